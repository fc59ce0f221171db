/**
 * Every `examples/*.json`, imported unchanged into the real n8n and run with `n8n execute`.
 *
 * Generic checks for each: its nodes are the types a user gets from the editor install
 * (`n8n-nodes-voice-agent-crm.*`), its Voice Agent CRM nodes name the simulator credential, the run
 * succeeded, the last node produced items, and the API key appears nowhere in the output.
 * EXPECTATIONS adds checks per file. An example that starts with the Voice Agent CRM Trigger cannot be
 * run by `n8n execute` (a poll in CLI mode returns nothing): it is published and checked live (trigger.cts).
 * An Error Workflow (Error Trigger) is imported and checked here, and run by test/examples.test.cts;
 * so is a campaign (Run Campaign schedules its calls on n8n's clock, which the examples' time lapse
 * of the simulator leaves behind; campaignRestart.cts runs a campaign live, on real time).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { exampleSamples, N8N_FILES } from '../../harness/examples.cts';
import type { Simulator } from '../../simulator/index.cts';
import { storedEvents, VOICES } from '../../simulator/index.cts';
import {
	check,
	log,
	type N8nInstance,
	parseExecuteOutput,
	PACKAGE_NAME,
	redact,
	ROOT,
	tail,
} from './lib.cts';
import { ACTION_NODE_TYPE, CREDENTIAL_ID, CREDENTIAL_NAME, TRIGGER_NODE_TYPE } from './shared.cts';

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		typeVersion: number;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
	}>;
	connections: Record<string, { main?: Array<Array<{ node: string }>> }>;
}

interface Item {
	json: Record<string, unknown>;
}

export interface ExampleRun {
	file: string;
	workflow: WorkflowJson;
	/** Output items of each node's first run, by node name. */
	items: Record<string, Item[]>;
	lastNode: string;
	sim: Simulator;
}

/** Checks per example file, besides the generic ones; the simulator's own records are the oracle. */
const EXPECTATIONS: Record<string, (run: ExampleRun) => void> = {
	'place-call-and-wait.json': ({ items, lastNode, sim }) => {
		const [call] = (items[lastNode] ?? []).map((i) => i.json);
		const stored = sim.org.calls.get(String(call?.id));
		check(
			!!stored && stored.finished && call.call_status === 'completed' && !!call.call_analysis,
			`place-call-and-wait.json: the call was placed in the simulator and awaited to its end (${String(call?.call_status)}, analysis ${call?.call_analysis ? 'present' : 'missing'})`,
			() => JSON.stringify(call).slice(0, 500),
		);
	},
	'opt-out-said-on-a-call.json': ({ items, sim }) => {
		const [call] = (items['Call Lucas and Wait for the Analysis'] ?? []).map((i) => i.json);
		const lucas = [...sim.org.contacts.values()].find((c) => c.full_name === 'Lucas Pereira');
		const mark = lucas?.additional_data.find((entry) => entry.field === 'do_not_call');
		check(
			(call?.call_analysis as Record<string, unknown> | undefined)?.wants_no_more_calls === true &&
				!!mark,
			`opt-out-said-on-a-call.json: the call's analysis said no more calls, and the contact was marked do not call in the same execution (${String(mark?.value)})`,
			() => JSON.stringify({ call, lucas }).slice(0, 800),
		);
	},
	'sync-crm-rows-to-events.json': ({ items, lastNode, sim }) => {
		const out = (items[lastNode] ?? []).map((i) => i.json);
		const events = out.filter((j) => !('summary' in j));
		const summary = out.find((j) => 'summary' in j)?.summary as Record<string, number> | undefined;
		const created = events.filter((e) => e.status === 'created').length;
		// the example's own events: the file example (run first) stores a renewal too
		const ids = new Set(events.map((e) => e.event_id));
		const stored = storedEvents(sim.org, { event_name: 'subscription_renewed' }).filter((e) =>
			ids.has(e.event_id),
		).length;
		check(
			events.length === 250 &&
				summary?.received === 250 &&
				summary.created === created &&
				stored === created,
			`sync-crm-rows-to-events.json: 250 rows → 250 event results (${created} created, ${events.length - created} not), the summary agrees, the simulator stored ${stored}`,
			() => JSON.stringify(summary),
		);
	},
	'sync-crm-contacts-then-events.json': ({ items, lastNode, sim }) => {
		const rows = (items['Create or Update Contacts'] ?? []).map((i) => i.json);
		const known = rows.filter((row) => sim.org.contacts.has(String(row.contact_id))).length;
		const summary = (items[lastNode] ?? []).map((i) => i.json).find((j) => 'summary' in j)
			?.summary as Record<string, number> | undefined;
		check(
			rows.length === 40 && known === 38 && summary?.received === 40 && summary.rejected === 2,
			`sync-crm-contacts-then-events.json: 40 rows → ${known} contacts the simulator holds, 2 refused; ${summary?.created} events stored on them`,
			() => JSON.stringify(summary),
		);
	},
	'list-voices.json': ({ items }) => {
		const voices = items['List Voices'] ?? [];
		const catalog = VOICES.map((v) => v.id);
		check(
			voices.length === catalog.length &&
				voices.every((v, i) => v.json.id === catalog[i] && typeof v.json.name === 'string'),
			`list-voices.json: one item per voice of the simulator's catalog (${catalog.length}), in its order, each with id and name`,
			() => JSON.stringify(voices.map((v) => v.json.id)),
		);
	},
};

/** The simulator's clock, moved 20 times faster than real time while an example runs, so that awaited calls finish. */
function timeLapse(sim: Simulator): () => void {
	const timer = setInterval(() => void sim.clock.advance(4_000), 200);
	return () => clearInterval(timer);
}

export async function runExamples(
	n8n: N8nInstance,
	sim: Simulator,
	files: string[],
	workDir: string,
): Promise<{ live: Array<{ file: string; id: string; workflow: WorkflowJson }> }> {
	check(
		files.length > 0,
		`examples/: ${files.length} example workflows found (${files.join(', ')})`,
	);
	const importDir = path.join(workDir, 'examples-import');
	mkdirSync(importDir, { recursive: true });
	const workflows = new Map<string, WorkflowJson>();
	for (const file of files) {
		const source = path.join(ROOT, 'examples', file);
		const workflow = JSON.parse(readFileSync(source, 'utf8')) as WorkflowJson;
		workflows.set(file, workflow);
		checkNodeTypes(file, workflow);
		checkShippedFilePaths(file, workflow);
		// byte for byte: the file users import
		copyFileSync(source, path.join(importDir, file));
	}
	const names = [...workflows.values()].map((w) => w.name);
	check(new Set(names).size === names.length, 'examples/: every example has its own workflow name');

	await n8n.cliOk(['import:workflow', '--separate', `--input=${importDir}`]);
	const ids = await workflowIds(n8n);
	const live: Array<{ file: string; id: string; workflow: WorkflowJson }> = [];

	for (const [file, workflow] of workflows) {
		const id = ids.get(workflow.name);
		check(!!id, `${file}: imported into n8n unchanged (workflow id ${id})`);
		if (workflow.nodes.some((n) => n.type === TRIGGER_NODE_TYPE)) {
			log(`${file}: starts with the Voice Agent CRM Trigger: checked live, with n8n running`);
			live.push({ file, id: id!, workflow });
			continue;
		}
		if (workflow.nodes.some((n) => n.type === 'n8n-nodes-base.errorTrigger')) {
			// `n8n execute` would hand its Error Trigger n8n's sample data, not a failed execution's
			log(
				`${file}: an Error Workflow: imported here; run by the engine test with a failed execution's data`,
			);
			continue;
		}
		if (workflow.nodes.some((n) => n.parameters.operation === 'runCampaign')) {
			// its calls are scheduled on n8n's clock, which the time lapse leaves behind the simulator's
			log(
				`${file}: a campaign: imported here; run by the engine test on the simulator's clock, and campaigns run live in the campaign part`,
			);
			continue;
		}
		const start = Date.now();
		const stop = timeLapse(sim);
		const result = await n8n
			.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 300_000 })
			.finally(stop);
		const output = `${result.stdout}\n${result.stderr}`;
		check(!output.includes(sim.apiKey), `${file}: the API key appears nowhere in n8n's output`);
		const runData = parseExecuteOutput(result.stdout) as
			| {
					status?: string;
					finished?: boolean;
					data: {
						resultData: {
							error?: unknown;
							lastNodeExecuted?: string;
							runData: Record<string, Array<{ data?: { main?: Item[][] } }>>;
						};
					};
			  }
			| undefined;
		// n8n 2.38.7 may die by a signal at exit when the workflow finished while its task runner was
		// still starting (docs/decisions.md, "Examples as shipped"): the run itself, printed whole, counts
		const diedAfterRun =
			result.code === null && runData?.status === 'success' && runData.finished === true;
		if (diedAfterRun)
			log(`${file}: n8n exited by ${String(result.signal)} after printing the finished run`);
		check(
			(result.code === 0 || diedAfterRun) && runData && !runData.data.resultData.error,
			`${file}: n8n execute succeeded (${((Date.now() - start) / 1000).toFixed(1)}s)`,
			() => redact(`exit ${result.code}\n${tail(result.stdout, 60)}\n${tail(result.stderr, 30)}`),
		);
		writeFileSync(path.join(workDir, `output-${file}`), redact(JSON.stringify(runData, null, 2)));
		const items: Record<string, Item[]> = {};
		for (const [node, runs] of Object.entries(runData!.data.resultData.runData))
			items[node] = runs[0]?.data?.main?.[0] ?? [];
		const lastNode = runData!.data.resultData.lastNodeExecuted ?? '';
		check(
			(items[lastNode]?.length ?? 0) > 0,
			`${file}: its last node "${lastNode}" produced ${items[lastNode]?.length ?? 0} items`,
		);
		EXPECTATIONS[file]?.({ file, workflow, items, lastNode, sim });
	}
	return { live };
}

/**
 * The paths an example's Read/Write Files from Disk nodes read, as shipped and never rewritten
 * here: `.n8n-files/<a sample file of examples/>`, read from n8n's working folder inside the folder
 * n8n 2.x allows by default (`~/.n8n-files`; n8n's Docker image works in its home).
 */
export function checkShippedFilePaths(
	file: string,
	workflow: { nodes: Array<{ type: string; parameters: { fileSelector?: unknown } }> },
): void {
	const paths = workflow.nodes
		.filter((n) => n.type === 'n8n-nodes-base.readWriteFile')
		.map((n) => String(n.parameters.fileSelector));
	if (!paths.length) return;
	const samples = exampleSamples();
	check(
		paths.every(
			(p) => p.startsWith(`${N8N_FILES}/`) && samples.includes(p.slice(N8N_FILES.length + 1)),
		),
		`${file}: reads ${paths.join(', ')} as shipped (a sample of examples/, in n8n's default file folder)`,
	);
}

/** The node types and the credential reference a user's import needs. */
function checkNodeTypes(file: string, workflow: WorkflowJson): void {
	const ours = workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`));
	const foreign = workflow.nodes.filter(
		(n) =>
			!n.type.startsWith(`${PACKAGE_NAME}.`) &&
			!n.type.startsWith('n8n-nodes-base.') &&
			!n.type.startsWith('@n8n/n8n-nodes-langchain.'),
	);
	check(
		ours.length > 0 &&
			foreign.length === 0 &&
			ours.every((n) => n.type === ACTION_NODE_TYPE || n.type === TRIGGER_NODE_TYPE),
		`${file}: node types as from the editor install (${[...new Set(workflow.nodes.map((n) => n.type))].join(', ')})`,
	);
	const references = ours.map((n) => n.credentials?.voiceAgentCrmApi);
	check(
		references.every((r) => r?.id === CREDENTIAL_ID && r?.name === CREDENTIAL_NAME),
		`${file}: every Voice Agent CRM node uses the credential "${CREDENTIAL_NAME}" (id ${CREDENTIAL_ID})`,
		() => JSON.stringify(references),
	);
}

/** `n8n list:workflow` prints `id|name` lines. */
export async function workflowIds(n8n: N8nInstance): Promise<Map<string, string>> {
	const result = await n8n.cliOk(['list:workflow']);
	const ids = new Map<string, string>();
	for (const line of `${result.stdout}\n${result.stderr}`.split('\n')) {
		const match = /^([A-Za-z0-9]{8,})\|(.+)$/.exec(line.trim());
		if (match) ids.set(match[2], match[1]);
	}
	return ids;
}
