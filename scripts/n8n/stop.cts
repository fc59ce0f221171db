/**
 * A Stop in the editor, in the real n8n: what the user finds afterwards of what the node did.
 *
 * Each workflow is started as the editor's Execute Workflow button starts it (`POST
 * /rest/workflows/:id/run` from its Manual Trigger), stopped as the editor's Stop button stops it
 * (`POST /rest/executions/:id/stop`) while the node's request is on its way (the simulator has
 * handled it and holds its answer), then read back as the editor reads it (`GET
 * /rest/executions/:id`). n8n saves a stopped execution from its snapshot at the Stop, without the
 * node's error; its custom data is what carries the node's account of the Stop.
 * - Tag → Create: the tag was created; the custom data says it may have been, and what to check.
 * - Event → Send from a file (Read/Write Files from Disk → Send), stopped mid-file: the custom data
 *   names the row to start again at; a second workflow with Start at Row set to it sends the rest,
 *   and no row is stored twice.
 * - Run Campaign, stopped while its calls wait for their window: they are canceled before they ring.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

import { N8N_FILES } from '../../harness/examples.cts';
import { purchases } from '../../harness/purchases.cts';
import { storedEvents, type Simulator } from '../../simulator/index.cts';
import { ACTION_NODE_TYPE, CREDENTIAL_ID, CREDENTIAL_NAME } from './shared.cts';
import { check, log, type N8nInstance, sleep } from './lib.cts';
import { parseFlatted } from './trigger.cts';

export const TRIGGER = 'When clicking ‘Execute workflow’';
const NODE = 'Voice Agent CRM';
/** Longer than the node's 30-second request timeout: the node ends through the Stop, or the check fails. */
const HOLD_MS = 60_000;
const FILE = 'stop-test.csv';
const FILE_ROWS = 350;
/** The key of the custom data where the node writes what a Stop left in the balance (docs/faults.md). */
const STOPPED_NOTE_KEY = 'voice_agent_crm_stopped';

interface SavedExecution {
	status: string;
	customData?: Record<string, string>;
	data: string;
}

export async function runStopTest(n8n: N8nInstance, sim: Simulator): Promise<void> {
	await stopTagCreate(n8n, sim);
	await stopFileMidway(n8n, sim);
	await stopCampaign(n8n, sim);
}

async function stopTagCreate(n8n: N8nInstance, sim: Simulator): Promise<void> {
	const name = `stop-proof-${randomUUID().slice(0, 8)}`;
	const id = await createWorkflow(n8n, 'Stop test: Tag → Create', [
		actionNode({ resource: 'tag', operation: 'create', name, color: '#112233' }),
	]);
	// the tag is created, its answer held
	sim.faults.inject({
		method: 'POST',
		path: '/v1/tags',
		fault: { afterHandling: true, delayMs: HOLD_MS, drop: true },
	});
	const saved = await runAndStop(n8n, sim, id, 'POST', '/v1/tags', 1);
	const created = [...sim.org.tags.values()].filter((tag) => tag.name === name);
	check(created.length === 1, `Stop test, Tag → Create: the simulator created the tag "${name}"`);
	check(
		saved.customData?.[STOPPED_NOTE_KEY] ===
			'The tag may have been created: the execution was stopped while POST /v1/tags was on its way (item 0). Check Tag → Get Many before running this item again.',
		`Stop test, Tag → Create: n8n saved the stopped execution with the custom data ${STOPPED_NOTE_KEY} saying the tag may have been created and to check Tag → Get Many`,
		() => JSON.stringify(saved.customData),
	);
}

async function stopFileMidway(n8n: N8nInstance, sim: Simulator): Promise<void> {
	// where the running n8n's Read/Write Files from Disk may read (run.cts)
	mkdirSync(path.join(n8n.userFolder, N8N_FILES), { recursive: true });
	const tag = randomUUID().slice(0, 8);
	writeFileSync(path.join(n8n.userFolder, N8N_FILES, FILE), purchases(`stop-${tag}`, FILE_ROWS));
	const fileWorkflow = (startAtRow?: number) => [
		{
			parameters: { fileSelector: `${N8N_FILES}/${FILE}`, options: {} },
			id: randomUUID(),
			name: 'Read File',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1.1,
			position: [220, 0],
		},
		actionNode({
			resource: 'event',
			operation: 'send',
			eventInput: 'file',
			...(startAtRow ? { fileOptions: { startAtRow } } : {}),
		}),
	];
	const storedBefore = storedEvents(sim.org).length;
	const stored = () => storedEvents(sim.org).length - storedBefore;

	const id = await createWorkflow(n8n, 'Stop test: Event → Send from a file', fileWorkflow());
	// the second batch (rows 102 to 201) is stored, its answer held
	sim.faults.inject({
		method: 'POST',
		path: '/v1/events',
		skip: 1,
		fault: { afterHandling: true, delayMs: HOLD_MS, drop: true },
	});
	const saved = await runAndStop(n8n, sim, id, 'POST', '/v1/events', 2);
	const note = saved.customData?.[STOPPED_NOTE_KEY] ?? '';
	check(
		note ===
			"Item 0's file stopped at row 102: run again with Options → Start at Row set to 102. Of 200 rows read: 100 done (100 stored, 0 duplicate, 0 not accepted), 100 sent with no answer (may be stored), 0 not sent.",
		`Stop test, Event → Send from a file: n8n saved the stopped execution with the custom data ${STOPPED_NOTE_KEY} naming row 102 to start again at (100 rows done, 100 sent with no answer)`,
		() => JSON.stringify(saved.customData),
	);
	check(stored() === 200, `Stop test, file: the simulator stored the 200 rows sent (${stored()})`);

	const row = Number(/Start at Row set to (\d+)/.exec(note)?.[1]);
	const again = await createWorkflow(n8n, 'Stop test: the file again from the row named', [
		...fileWorkflow(row),
	]);
	const { data } = await n8n.restOk<{ data: { executionId: string } }>(
		'POST',
		`/workflows/${again}/run`,
		{ triggerToStartFrom: { name: TRIGGER } },
	);
	const rerun = await savedExecution(n8n, data.executionId, (e) => e.status !== 'running');
	const summary = nodeOutput(n8n, rerun)?.summary as Record<string, number> | undefined;
	check(
		rerun.status === 'success' &&
			// rows 102 to 351: 102 to 201 were stored at the Stop, 202 to 351 were never sent
			summary?.rows_read === 250 &&
			summary.created === 150 &&
			summary.duplicate === 100 &&
			stored() === FILE_ROWS,
		`Stop test, file: run again with Start at Row ${row}, the rest is stored and the 100 rows sent with no answer are answered duplicate (${FILE_ROWS} stored in all, none twice)`,
		() => `${rerun.status} ${JSON.stringify(summary)} stored ${stored()}`,
	);
}

/**
 * Run Campaign stopped while its calls wait for their window (two hours ahead): every call it
 * scheduled is canceled before it rings, and the custom data says so.
 */
async function stopCampaign(n8n: N8nInstance, sim: Simulator): Promise<void> {
	const numbers = [1, 2, 3, 4].map((n) => `+4420794607${String(n).padStart(2, '0')}`);
	const opens = DateTime.now().setZone('Europe/London').plus({ hours: 2 }).hour;
	const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;
	const id = await createWorkflow(n8n, 'Stop test: Run Campaign', [
		...oneItemPerPerson(numbers.map((to, n) => ({ to, name: `Stop Person ${n}` }))),
		actionNode({
			resource: 'call',
			operation: 'runCampaign',
			agentId: { __rl: true, mode: 'id', value: [...sim.org.agents.keys()][0] },
			fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
			toNumber: '={{ $json.to }}',
			fullName: '={{ $json.name }}',
			maxLiveCalls: 2,
			callDays: [1, 2, 3, 4, 5, 6, 7],
			callFrom: hour(opens),
			callUntil: opens === 23 ? '24:00' : hour(opens + 1),
			redialOn: [],
		}),
	]);
	const saved = await runAndStop(n8n, sim, id, 'POST', '/v1/calls/single-phone-call', 2);
	const placed = () => [...sim.org.calls.values()].filter((call) => numbers.includes(call.to));
	// the node cancels after the Stop, and n8n may save the execution before it is done
	const deadline = Date.now() + 30_000;
	while (placed().some((call) => call.phase !== 'canceled') && Date.now() < deadline)
		await sleep(250);
	check(
		placed().length === 2 && placed().every((call) => call.phase === 'canceled'),
		`Stop test, Run Campaign: the 2 calls it scheduled were canceled before they rang (${placed()
			.map((call) => call.phase)
			.join(', ')})`,
	);
	const note = saved.customData?.[STOPPED_NOTE_KEY] ?? '';
	check(
		/^Run Campaign \w+ was stopped: (2 calls canceled before ringing|canceling)/.test(note),
		`Stop test, Run Campaign: n8n saved the stopped execution with the custom data ${STOPPED_NOTE_KEY} saying what was canceled`,
		() => note,
	);
}

/**
 * Runs the workflow from the editor's button, stops it once the `nth` matching request reaches
 * the simulator (it is then on its way), and returns the execution as n8n saved it.
 */
async function runAndStop(
	n8n: N8nInstance,
	sim: Simulator,
	workflowId: string,
	method: string,
	route: string,
	nth: number,
): Promise<SavedExecution> {
	let seen = 0;
	let stopOff = () => {};
	const arrived = new Promise<void>((resolve) => {
		stopOff = sim.onRequest((request) => {
			if (request.method === method && request.path === route && ++seen === nth) resolve();
		});
	});
	try {
		const { data } = await n8n.restOk<{ data: { executionId: string } }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{ triggerToStartFrom: { name: TRIGGER } },
		);
		const { executionId } = data;
		const timedOut = await Promise.race([
			arrived.then(() => false),
			sleep(60_000).then(() => true),
		]);
		check(!timedOut, `Stop test: execution ${executionId} sent ${method} ${route} (${nth})`);
		await n8n.restOk('POST', `/executions/${executionId}/stop`, {});
		// n8n saves the custom data after it answers the Stop
		const saved = await savedExecution(
			n8n,
			executionId,
			(e) => e.status === 'canceled' && e.customData?.[STOPPED_NOTE_KEY] !== undefined,
		);
		const run = parseFlatted(n8n, saved.data) as {
			resultData: { runData: Record<string, unknown> };
		};
		log(
			`Stop test: execution ${executionId} saved as "${saved.status}", with run data of ${Object.keys(run.resultData.runData).join(', ') || 'no node'}; custom data ${JSON.stringify(saved.customData)}`,
		);
		check(saved.status === 'canceled', `Stop test: n8n saved execution ${executionId} as canceled`);
		return saved;
	} finally {
		stopOff();
		sim.faults.clear();
	}
}

/** The execution as n8n's REST API gives it, once `ready` holds (or after `timeoutMs`, as it is then). */
export async function savedExecution(
	n8n: N8nInstance,
	executionId: string,
	ready: (execution: SavedExecution) => boolean,
	timeoutMs = 30_000,
): Promise<SavedExecution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { data } = await n8n.restOk<{ data: SavedExecution }>(
			'GET',
			`/executions/${executionId}`,
		);
		if (ready(data) || Date.now() > deadline) return data;
		await sleep(250);
	}
}

/** The JSON of the Voice Agent CRM node's first output item. */
function nodeOutput(
	n8n: N8nInstance,
	execution: SavedExecution,
): Record<string, unknown> | undefined {
	const run = parseFlatted(n8n, execution.data) as {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: object }>> } }>>;
		};
	};
	return run.resultData.runData[NODE]?.[0]?.data?.main?.[0]?.[0]?.json as
		| Record<string, unknown>
		| undefined;
}

/** Set (the people, as a list) → Split Out: one item per person, `{to, name}`. */
export function oneItemPerPerson(people: Array<{ to: string; name: string }>): object[] {
	return [
		{
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ people }), options: {} },
			id: randomUUID(),
			name: 'People',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
		},
		{
			parameters: { fieldToSplitOut: 'people', options: {} },
			id: randomUUID(),
			name: 'One Item per Person',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [330, 0],
		},
	];
}

/** A workflow of the Manual Trigger and `nodes` in a row, created as the signed-in owner; its ID. */
export async function createWorkflow(
	n8n: N8nInstance,
	name: string,
	nodes: object[],
): Promise<string> {
	const all = [
		{
			parameters: {},
			id: randomUUID(),
			name: TRIGGER,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		...nodes,
	] as Array<{ name: string }>;
	const connections = Object.fromEntries(
		all
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	const { data } = await n8n.restOk<{ data: { id: string } }>('POST', '/workflows', {
		name,
		active: false,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	});
	return data.id;
}

function actionNode(parameters: Record<string, unknown>): object {
	return {
		parameters,
		id: randomUUID(),
		name: NODE,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [440, 0],
		credentials: { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
}
