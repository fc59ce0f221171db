/**
 * `npm run test:n8n:queue`, the Instant Trigger where queue mode can emit an event twice or lose
 * it (issue 30), measured on a workflow of its own (its own agent, static data and executions):
 * Instant Trigger → Remove Duplicates on `emission_key` (the recipe of docs/instant-trigger.md) →
 * No Operation. Its calls are inserted in the simulator, which posts nothing for them: this part
 * posts each delivery itself, where it wants it.
 *
 * - Simultaneous duplicates: each call-ended delivery posted to both webhook processes at the same
 *   moment (a service repeating a delivery whose answer was slow, the repeat routed to the other
 *   process), and, for comparison, twice at once to one process (a load balancer that routes a
 *   webhook's path to one process).
 * - A slow graceful shutdown: webhook-1 is held in its shutdown by an execution it started (a
 *   Wait of 25 s: n8n waits for it), while deliveries arrive at both processes, two at a time.
 * - Its start: webhook-1 started again, and deliveries posted to it until one is answered 200;
 *   those answered 404 (listening before the workflows' webhooks are registered) are lost to n8n.
 * - Then the recovery: it takes an event that stayed unclaimed at two sweeps a minute apart, once
 *   the event is 3 minutes old (the delivery horizon of 2 minutes and a margin of 1). The calls'
 *   times are moved 3 minutes back in the simulator (`ageCall`) rather than waited for in real
 *   time, and a call a minute through the round robin brings the two sweeps (a lost event is
 *   recovered at the second; a second emission by the recovery comes then too). The sweeps, the
 *   claims and their write-backs run in real time as before; only the events' age is given.
 *
 * Printed: per case, of how many events the trigger emitted once, twice or never, and how many
 * Remove Duplicates passed once, twice or never.
 */
import { randomUUID } from 'node:crypto';

import { ageCall, insertCall, type Simulator } from '../../simulator/index.cts';
import { check, CheckFailure, log, postJson, sleep } from './lib.cts';
import type { N8nProcess, QueueN8n } from './queueCluster.cts';
import type { RoundRobin } from './queueInstant.cts';
import { CREDENTIAL_ID, CREDENTIAL_NAME, INSTANT_TRIGGER_NODE_TYPE } from './shared.cts';
import { executionsOf } from './trigger.cts';

export const DOUBLES_WORKFLOW_ID = 'QueueInstantDup1';
export const HOLD_WORKFLOW_ID = 'QueueInstantHld1';
const TRIGGER_NAME = 'Instant Trigger';
const DEDUPE_NAME = 'Remove Duplicates';
const ONCE_NAME = 'Once';
const HOLD_PATH = 'hold-shutdown';
const HOLD_SECONDS = 25;
/** Calls per case: small, the figures are counts of events. */
const CALLS = 10;
/** How old an event must be for the recovery: the delivery horizon (2 min), its margin (1 min), 5 s more. */
const RECOVERY_AGE_MS = 3 * 60_000 + 5_000;
/** The recovery sweeps at most once a minute (recovery.ts): a later call a little over that apart. */
const SWEEP_GAP_MS = 61_000;

/** An agent that no other workflow of the suite listens to (added to the simulator's seed of two). */
export function doublesAgentOf(sim: Simulator, taken: string[]): string {
	const free = [...sim.org.agents.keys()].find((id) => !taken.includes(id));
	if (free) return free;
	const model = sim.org.agents.values().next().value!;
	const id = randomUUID();
	sim.org.agents.set(id, { ...model, id, name: 'Instant doubles', webhook_url: null });
	return id;
}

const node = (id: string, name: string, type: string, version: number, x: number) => ({
	id: `5d1f3a2b-8c4e-4f6a-9b7d-0e1f2a3b4c${id}`,
	name,
	type,
	typeVersion: version,
	position: [x, 0],
});

const chain = (...names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** The measured workflow, and the one that holds webhook-1 in its shutdown. */
export function doublesWorkflows(agentId: string): Array<Record<string, unknown>> {
	const measured = {
		id: DOUBLES_WORKFLOW_ID,
		name: 'test:n8n:queue instant trigger: doubles, shutdowns, start',
		nodes: [
			{
				...node('01', TRIGGER_NAME, INSTANT_TRIGGER_NODE_TYPE, 1, 0),
				parameters: { events: ['callFinished'], registration: 'agents', agentIds: [agentId] },
				credentials: { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				webhookId: '5d1f3a2b-8c4e-4f6a-9b7d-0e1f2a3b4cff',
			},
			{
				...node('02', DEDUPE_NAME, 'n8n-nodes-base.removeDuplicates', 2, 220),
				parameters: {
					operation: 'removeItemsSeenInPreviousExecutions',
					logic: 'removeItemsWithAlreadySeenKeyValues',
					dedupeValue: '={{ $json.emission_key }}',
					options: {},
				},
			},
			{ ...node('03', ONCE_NAME, 'n8n-nodes-base.noOp', 1, 440), parameters: {} },
		],
		connections: chain(TRIGGER_NAME, DEDUPE_NAME, ONCE_NAME),
		settings: { executionOrder: 'v1' },
	};
	const hold = {
		id: HOLD_WORKFLOW_ID,
		name: 'test:n8n:queue: an execution that holds a webhook process in its shutdown',
		nodes: [
			{
				...node('11', 'Webhook', 'n8n-nodes-base.webhook', 2, 0),
				parameters: {
					httpMethod: 'POST',
					path: HOLD_PATH,
					responseMode: 'onReceived',
					options: {},
				},
				webhookId: '5d1f3a2b-8c4e-4f6a-9b7d-0e1f2a3b4cee',
			},
			{
				...node('12', 'Wait', 'n8n-nodes-base.wait', 1.1, 220),
				parameters: { resume: 'timeInterval', amount: HOLD_SECONDS, unit: 'seconds' },
			},
		],
		connections: chain('Webhook', 'Wait'),
		settings: { executionOrder: 'v1' },
	};
	return [measured, hold];
}

type Case = 'two processes at once' | 'one process twice at once' | 'during shutdown' | 'at start';

interface Subject {
	callId: string;
	case: Case;
	/** What the processes answered to its deliveries. */
	answers: Array<number | 'refused'>;
}

async function post(url: string, payload: unknown): Promise<number | 'refused'> {
	return postJson(url, payload).catch(() => 'refused' as const);
}

export async function instantDoublesInQueueMode(
	n8n: QueueN8n,
	sim: Simulator,
	webhooks: N8nProcess[],
	roundRobin: RoundRobin,
	agentId: string,
): Promise<void> {
	const registered = new URL(sim.org.agents.get(agentId)!.webhook_url ?? '');
	check(
		registered.searchParams.has('secret'),
		'doubles: activation set the URL with its secret on the agent',
	);
	const at = (base: string) => `${base}${registered.pathname}${registered.search}`;
	const subjects: Subject[] = [];
	const ended = (callId: string) => ({ event: 'call_ended', call_id: callId });
	const newCall = () => insertCall(sim, { phase: 'ended', agent_id: agentId }).id;
	const [first, second] = webhooks;

	// simultaneous duplicates: to both processes, and to one process
	for (const [kind, targets] of [
		['two processes at once', [first, second]],
		['one process twice at once', [first, first]],
	] as const) {
		for (let n = 0; n < CALLS; n++) {
			const callId = newCall();
			const answers = await Promise.all(targets.map((w) => post(at(w.url), ended(callId))));
			subjects.push({ callId, case: kind, answers });
			await sleep(300);
		}
	}

	// webhook-1 held in its graceful shutdown while deliveries arrive at both processes
	const held = await post(`${first.url}/webhook/${HOLD_PATH}`, {});
	await sleep(1_000);
	const stopAsked = Date.now();
	const stopping = first.stop();
	for (let n = 0; n < CALLS / 2; n++) {
		await Promise.all(
			[first, second].map(async (w) => {
				const callId = newCall();
				// a load balancer sends a refused connection, or a 503, to the other process
				const answers = [await post(at(w.url), ended(callId))];
				if (answers[0] === 'refused' || answers[0] === 503)
					answers.push(await post(at(second.url), ended(callId)));
				subjects.push({ callId, case: 'during shutdown', answers });
			}),
		);
		await sleep(2_000);
	}
	await stopping;
	log(
		`doubles: webhook-1 held in its shutdown by an execution (answer ${held}), exited ${Math.round((Date.now() - stopAsked) / 1000)} s after SIGTERM`,
	);

	// webhook-1 started again: deliveries to it, one call each, until one is answered 200
	const starting = first.start();
	const startDeadline = Date.now() + 180_000;
	const atStart = () => subjects.filter((s) => s.case === 'at start').length;
	for (let answered = false; !answered && atStart() < 30 && Date.now() < startDeadline; ) {
		if ((await post(`${first.url}/healthz`, {})) === 'refused') {
			await sleep(100);
			continue;
		}
		const callId = newCall();
		const answer = await post(at(first.url), ended(callId));
		subjects.push({ callId, case: 'at start', answers: [answer] });
		answered = answer === 200;
		await sleep(150);
	}
	await starting;

	// the events made old enough for the recovery; later calls, a minute apart, bring its sweeps
	const agedAt = await ageForRecovery(sim, agentId, subjects, 'doubles');
	const later = await twoSweepsSince(sim, agentId, agedAt, 'doubles', () =>
		post(at(roundRobin.url), ended(newCall())),
	);
	report(await settledEmissions(n8n, subjects), subjects, later);
}

/** When the recovery swept the agent's calls (one list request of 250 each, recovery.ts). */
export function sweepTimes(sim: Simulator, agentId: string): number[] {
	return sim
		.requestsTo('GET', '/v1/calls')
		.filter((r) => r.query.agent_id === agentId && r.query.limit === '250')
		.map((r) => r.at);
}

/**
 * Every subject's call moved back to RECOVERY_AGE_MS old, never before the workflow's activation
 * (the recovery takes only events after it: activation reads the agent before anything else).
 * Answers when that was done.
 */
export async function ageForRecovery(
	sim: Simulator,
	agentId: string,
	subjects: Array<{ callId: string }>,
	label: string,
): Promise<number> {
	const activation = Math.max(
		...sim.requests.filter((r) => r.path === `/v1/agents/${agentId}`).map((r) => r.at),
	);
	await sleep(activation + 1_000 - (Date.now() - RECOVERY_AGE_MS));
	const agedAt = Date.now();
	for (const { callId } of subjects) {
		const finishedAt = Date.parse(sim.org.calls.get(callId)!.finished_at!);
		const older = finishedAt - (agedAt - RECOVERY_AGE_MS);
		if (older > 0) ageCall(sim, callId, older);
	}
	log(
		`${label}: the ${subjects.length} calls' times moved back to ${RECOVERY_AGE_MS / 1000} s old`,
	);
	return agedAt;
}

/** Post later calls, each a sweep's gap after the last sweep, until two sweeps came since `since`. */
export async function twoSweepsSince(
	sim: Simulator,
	agentId: string,
	since: number,
	label: string,
	postLaterCall: () => Promise<unknown>,
): Promise<number> {
	const deadline = Date.now() + 5 * 60_000;
	let later = 0;
	while (sweepTimes(sim, agentId).filter((at) => at >= since).length < 2) {
		if (Date.now() > deadline) throw new CheckFailure(`${label}: timed out waiting for two sweeps`);
		const last = Math.max(0, ...sweepTimes(sim, agentId));
		await sleep(last + SWEEP_GAP_MS - Date.now());
		await postLaterCall();
		later++;
	}
	return later;
}

/** The emissions by call once every subject was emitted and no execution still runs (at most 90 s). */
async function settledEmissions(n8n: QueueN8n, subjects: Subject[]): Promise<Map<string, Emitted>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: DOUBLES_WORKFLOW_ID }));
	const deadline = Date.now() + 90_000;
	for (;;) {
		const { data } = await n8n.restOk<{ data: { results: Array<{ status: string }> } }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		const byCall = await emissionsByCall(n8n);
		const running = data.results.some((e) => e.status === 'running' || e.status === 'new');
		const allEmitted = subjects.every((s) => byCall.get(s.callId)?.trigger);
		if ((allEmitted && !running) || Date.now() > deadline) return byCall;
		await sleep(3_000);
	}
}

interface Emitted {
	trigger: number;
	once: number;
	recovered: number;
}

async function emissionsByCall(n8n: QueueN8n): Promise<Map<string, Emitted>> {
	const byCall = new Map<string, Emitted>();
	const of = (callId: string) => {
		if (!byCall.has(callId)) byCall.set(callId, { trigger: 0, once: 0, recovered: 0 });
		return byCall.get(callId)!;
	};
	for (const execution of await executionsOf(n8n, DOUBLES_WORKFLOW_ID)) {
		for (const item of execution.items[TRIGGER_NAME] ?? []) {
			const emitted = of(String(item.json.call_id));
			emitted.trigger++;
			if (item.json.recovered === true) emitted.recovered++;
		}
		for (const item of execution.items[ONCE_NAME] ?? []) of(String(item.json.call_id)).once++;
	}
	return byCall;
}

/** "once 8, twice 2, never 0 of 10" for the counts of one case. */
function figures(counts: number[]): string {
	const times = (k: number) => counts.filter((c) => (k === 2 ? c >= 2 : c === k)).length;
	return `once ${times(1)}, twice ${times(2)}, never ${times(0)} of ${counts.length}`;
}

function report(byCall: Map<string, Emitted>, subjects: Subject[], later: number): void {
	const none: Emitted = { trigger: 0, once: 0, recovered: 0 };
	const cases: Case[] = [
		'two processes at once',
		'one process twice at once',
		'during shutdown',
		'at start',
	];
	for (const kind of cases) {
		const ofCase = subjects.filter((s) => s.case === kind);
		const emitted = ofCase.map((s) => byCall.get(s.callId) ?? none);
		const answers = ofCase.flatMap((s) => s.answers);
		const notOk = answers.filter((a) => a !== 200);
		log(
			`doubles, ${kind}: ${answers.length} deliveries (${notOk.length} not answered 200: ${notOk.join(', ') || 'none'}); trigger: ${figures(emitted.map((e) => e.trigger))} (${emitted.reduce((n, e) => n + e.recovered, 0)} recovered); after Remove Duplicates: ${figures(emitted.map((e) => e.once))}`,
		);
	}
	log(`doubles: ${later} later calls brought the sweeps`);
	const lost = subjects.filter((s) => !(byCall.get(s.callId)?.trigger ?? 0));
	check(
		lost.length === 0,
		`doubles: every event of the ${subjects.length} calls emitted (the 404s at start and the deliveries during shutdown included): ${lost.length} never`,
		() => lost.map((s) => `${s.case}: ${s.callId} (${s.answers.join(', ')})`).join('\n'),
	);
	const oneProcess = subjects.filter((s) => s.case === 'one process twice at once');
	check(
		oneProcess.every((s) => byCall.get(s.callId)?.trigger === 1),
		`doubles: duplicates at once to one process: each emitted once by the trigger (${oneProcess.length} calls)`,
	);
	// a second emission by the recovery comes minutes after the first: Remove Duplicates drops it
	const recoveredTwice = subjects.filter((s) => {
		const e = byCall.get(s.callId);
		return e && e.recovered > 0 && e.once !== 1;
	});
	check(
		recoveredTwice.length === 0,
		`doubles: a recovered second emission never passes Remove Duplicates (${recoveredTwice.length} passed)`,
	);
}
