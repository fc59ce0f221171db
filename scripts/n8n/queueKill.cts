/**
 * `npm run test:n8n:queue`, a worker SIGKILLed and one SIGTERMed while Place AI Call waits for its
 * calls by polling (issue 30): Place AI Call with Wait for Outcome on, Free the Worker off.
 *
 * - worker-2 stopped (idle), two executions started: both run on worker-1, which is SIGKILLed once
 *   their calls are placed; worker-2 started again.
 * - two executions more, on worker-2 alone, which is SIGTERMed once their calls are placed; their
 *   calls outlast its graceful shutdown (30 s), so it exits in the middle of the wait. worker-1 and
 *   then worker-2 started again.
 * - n8n does not run a stalled job again (its Bull queue has `maxStalledCount: 0`): each execution
 *   started once on a worker, and ended failed.
 * - Each execution's calls found the documented way: the Get Many node of
 *   examples/find-calls-of-failed-execution.json (Placed by Execution = the failed execution's ID)
 *   answers exactly the call that execution placed.
 * - What n8n saves, as docs/queue-mode.md states it. A worker that starts reads the crash journal
 *   (here the folder all processes share, as a worker restarted on its own volume would): the
 *   executions it finds unfinished are marked `crashed`, their run data rebuilt up to Place AI
 *   Call. Once Bull's lock on the job runs out (60 s) its stall check (every 30 s) fails the job,
 *   and the process that enqueued it saves the execution as `error` with the error alone, no run
 *   data: the state every execution ends in.
 * - Retries through n8n's REST API as the editor does (`POST /rest/executions/:id/retry`,
 *   `{loadWorkflow: false}`, as the owner): one made while an execution is `crashed` runs Place AI
 *   Call in mode `retry`, which finds the call by its fingerprint and ends with its record
 *   (`already_placed: true`, `placed_by_execution` the failed execution); one made once it is
 *   `error` runs no node at all (n8n starts it from an empty node stack). No Retry places a call.
 */
import { planCalls, type Simulator } from '../../simulator/index.cts';
import { check, CheckFailure, log, sleep } from './lib.cts';
import { postToWebhook, type Execution, type N8nProcess, type QueueN8n } from './queueCluster.cts';
import { PLACE_NODE, WEBHOOK_PATHS, WORKFLOW_IDS } from './queueWorkflows.cts';
import { executionDetail } from './trigger.cts';

/** Calls of about 5 s but their talk, which each kind sets so that the worker goes mid-wait. */
const CALL = {
	queueMs: 500,
	ringMs: 1_000,
	finishedDelayMs: 500,
	reasonDelayMs: 500,
	analysisDelayMs: 1_500,
};
/** Killed a few seconds after the calls are placed: the wait has begun. */
const KILLED_TALK_MS = 45_000;
/** SIGTERMed once placed: the wait outlasts the 30 s of graceful shutdown by a margin. */
const STOPPED_TALK_MS = 75_000;
const PER_KIND = 2;

type Kind = 'SIGKILL' | 'SIGTERM';

interface Failed {
	kind: Kind;
	execution: Execution;
	callId: string;
}

export interface KillCluster {
	n8n: QueueN8n;
	workers: N8nProcess[];
	/** The webhook process the executions start on. */
	webhook: N8nProcess;
}

export async function killedPollingWaits(cluster: KillCluster, sim: Simulator): Promise<void> {
	const { n8n, workers } = cluster;
	const [first, second] = workers;
	const callsBefore = new Set(sim.org.calls.keys());
	const placedBefore = sim.requestsTo('POST', '/v1/calls/single-phone-call').length;
	const newCalls = () => [...sim.org.calls.values()].filter((c) => !callsBefore.has(c.id));

	await second.stop();
	await startAndPlace(cluster, sim, 'SIGKILL', KILLED_TALK_MS, newCalls);
	await first.kill();
	log('kill: worker-1 SIGKILLed while its 2 executions waited for their calls by polling');
	await second.start();
	await startAndPlace(cluster, sim, 'SIGTERM', STOPPED_TALK_MS, newCalls);
	const stopAsked = Date.now();
	const stopping = second.stop();
	await first.start();
	await stopping;
	log(
		`kill: worker-2 SIGTERMed while its 2 executions waited, exited ${Math.round((Date.now() - stopAsked) / 1000)} s later`,
	);
	// its start reads the crash journal it shares with worker-1 (one user folder here, as a worker
	// restarted on its own volume): the executions it ran are marked crashed, their run data rebuilt
	await second.start();

	const calls = newCalls();
	const placedBy = new Map(
		calls.map((c, at) => [
			String(c.metadata?.n8n_execution_id),
			{ kind: (at < PER_KIND ? 'SIGKILL' : 'SIGTERM') as Kind, callId: c.id },
		]),
	);
	check(
		calls.length === 2 * PER_KIND && placedBy.size === calls.length,
		`kill: ${calls.length} calls placed, each carrying the ID of its own execution in its trace`,
		() => calls.map((c) => `${c.id}: ${String(c.metadata?.n8n_execution_id)}`).join('\n'),
	);
	const { seen, inWindow } = await untilFailed(n8n, placedBy);
	for (const [id, statuses] of seen)
		log(`kill, ${placedBy.get(id)!.kind}: execution ${id} was ${statuses.join(' → ')}`);
	const starts = (id: string) =>
		workers.reduce(
			(n, w) =>
				n + (w.log().match(new RegExp(`Worker started execution ${id} \\(`, 'g'))?.length ?? 0),
			0,
		);
	check(
		[...placedBy.keys()].every((id) => starts(id) === 1),
		`kill: each of the ${placedBy.size} executions ran once on a worker (n8n does not run a stalled job again)`,
		() => [...placedBy.keys()].map((id) => `${id}: started ${starts(id)} times`).join('\n'),
	);
	// a crashed execution's Retry, made before n8n's stall check overwrote it
	for (const r of await Promise.all(inWindow)) checkWindowRetry(r);

	const failed: Failed[] = [];
	for (const [id, origin] of placedBy)
		failed.push({
			...origin,
			execution: await executionDetail(n8n, {
				id,
				status: 'error',
				mode: 'webhook',
				workflowId: WORKFLOW_IDS.polling,
			}),
		});
	check(
		failed.every((f) => !f.execution.lastNode && !Object.keys(f.execution.items).length),
		`kill: in the end the ${failed.length} executions are saved as error with no run data (n8n's stall check: the error alone)`,
		() => failed.map(savedAs).join('\n'),
	);
	for (const f of failed) await findsItsCalls(cluster, f);
	const retried = await Promise.all(failed.map((f) => retry(n8n, f)));
	for (const r of retried) checkFinalRetry(r);
	const placedAfter = sim.requestsTo('POST', '/v1/calls/single-phone-call').length;
	check(
		placedAfter - placedBefore === 2 * PER_KIND && newCalls().length === 2 * PER_KIND,
		`kill: the ${retried.length + inWindow.length} Retries placed no call (${placedAfter - placedBefore - 2 * PER_KIND} new)`,
	);
}

/**
 * Poll the executions every second until each is `error`, the state n8n's stall check leaves
 * (Bull's lock, 60 s, ran out and its check, every 30 s, failed the job). One seen `crashed` on
 * the way is retried at once, while its run data is there.
 */
async function untilFailed(
	n8n: QueueN8n,
	placedBy: Map<string, { kind: Kind; callId: string }>,
): Promise<{ seen: Map<string, string[]>; inWindow: Array<Promise<Retried>> }> {
	const seen = new Map([...placedBy.keys()].map((id) => [id, [] as string[]]));
	const inWindow: Array<Promise<Retried>> = [];
	const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_IDS.polling }));
	const deadline = Date.now() + 5 * 60_000;
	for (;;) {
		const { data } = await n8n.restOk<{
			data: { results: Array<{ id: string; status: string; mode: string }> };
		}>('GET', `/executions?filter=${filter}&limit=250`);
		for (const summary of data.results.filter((e) => seen.has(e.id))) {
			const statuses = seen.get(summary.id)!;
			if (statuses.at(-1) === summary.status) continue;
			statuses.push(summary.status);
			if (summary.status !== 'crashed') continue;
			const execution = await executionDetail(n8n, {
				...summary,
				workflowId: WORKFLOW_IDS.polling,
			});
			inWindow.push(retry(n8n, { ...placedBy.get(summary.id)!, execution }));
		}
		if ([...seen.values()].every((s) => s.at(-1) === 'error')) return { seen, inWindow };
		if (Date.now() > deadline)
			throw new CheckFailure(
				`kill: timed out waiting for the executions to fail: ${[...seen].map(([id, s]) => `${id} ${s.join(' → ')}`).join('; ')}`,
			);
		await sleep(1_000);
	}
}

/** Start the kind's executions and wait until the simulator has their calls, still under way. */
async function startAndPlace(
	cluster: KillCluster,
	sim: Simulator,
	kind: Kind,
	talkMs: number,
	newCalls: () => Array<{ id: string; finished: boolean }>,
): Promise<void> {
	const placed = newCalls().length;
	for (let i = 0; i < PER_KIND; i++) planCalls(sim).next({ ...CALL, talkMs });
	await Promise.all(
		Array.from({ length: PER_KIND }, (_, i) =>
			postToWebhook(cluster.webhook.url, WEBHOOK_PATHS.polling, {
				to: `+1415556${String(700 + placed + i).padStart(4, '0')}`,
				name: `Queue ${kind} ${i}`,
			}),
		),
	);
	const deadline = Date.now() + 90_000;
	while (newCalls().length < placed + PER_KIND) {
		if (Date.now() > deadline)
			throw new CheckFailure(`kill: the ${kind} executions' calls were not placed within 90 s`);
		await sleep(500);
	}
	if (
		newCalls()
			.slice(placed)
			.some((c) => c.finished)
	)
		throw new CheckFailure(`kill: a ${kind} call finished before the worker went`);
	// the placement's answer reaches the node and its polling wait begins
	await sleep(3_000);
}

/** The documented way: Get Many, Placed by Execution = the failed execution's ID. */
async function findsItsCalls(cluster: KillCluster, f: Failed): Promise<void> {
	const id = f.execution.summary.id;
	const response = await fetch(`${cluster.webhook.url}/webhook/${WEBHOOK_PATHS.findCalls}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ execution: { id } }),
	});
	const found = (await response.json().catch(() => [])) as Array<{ id?: string }>;
	const ids = Array.isArray(found) ? found.map((c) => String(c.id)) : [];
	check(
		response.status === 200 && ids.length === 1 && ids[0] === f.callId,
		`kill, ${f.kind}: Get Many → Placed by Execution = ${id} (the example's node) finds exactly its call`,
		() => `answered ${response.status}: ${JSON.stringify(found).slice(0, 500)}`,
	);
}

interface Retried {
	failed: Failed;
	status: number;
	retry?: Execution;
	refusal?: string;
}

/** Retry as the editor's "Retry with original workflow" does, logged in as the owner. */
async function retry(n8n: QueueN8n, failed: Failed): Promise<Retried> {
	const { status, body } = await n8n.rest<{ data?: { id: string; status: string; mode: string } }>(
		'POST',
		`/executions/${failed.execution.summary.id}/retry`,
		{ loadWorkflow: false },
	);
	const started = body?.data;
	if (status >= 300 || !started?.id)
		return { failed, status, refusal: JSON.stringify(body).slice(0, 300) };
	const retried = await executionDetail(n8n, { ...started, workflowId: WORKFLOW_IDS.polling });
	return { failed, status, retry: retried };
}

function savedAs(f: Failed): string {
	const { id, status } = f.execution.summary;
	return `${id} ${status} (last node: ${f.execution.lastNode || 'none'}, run data of ${Object.keys(f.execution.items).join(', ') || 'no node'})`;
}

function logRetry({ failed, status, retry, refusal }: Retried, when: string): void {
	log(
		`kill, ${failed.kind}: Retry of ${failed.execution.summary.id} ${when} answered ${status}${refusal ? `: ${refusal}` : `, execution ${retry?.summary.id} ${retry?.summary.status}, nodes run: ${Object.keys(retry?.items ?? {}).join(', ') || 'none'}`}`,
	);
}

/** A crashed execution, saved with its run data up to Place AI Call: its Retry runs the node again. */
function checkWindowRetry(retried: Retried): void {
	const { failed, retry, refusal } = retried;
	const { kind, execution, callId } = failed;
	const id = execution.summary.id;
	const record = retry?.items[PLACE_NODE]?.[0]?.json;
	logRetry(retried, 'while crashed');
	check(
		execution.lastNode === PLACE_NODE &&
			retry?.summary.status === 'success' &&
			record?.id === callId &&
			record.already_placed === true &&
			record.placed_by_execution === id &&
			!!record.call_analysis,
		`kill, ${kind}: ${id} crashed with its run data up to ${PLACE_NODE}; its Retry ran the node in mode retry, which went on with the original call: its record, already_placed true, placed_by_execution ${id}`,
		() =>
			`${savedAs(failed)}: ${JSON.stringify(record ?? retry?.summary ?? refusal).slice(0, 500)}`,
	);
}

/** Saved with the error alone: n8n's Retry starts from an empty node stack (docs/queue-mode.md). */
function checkFinalRetry(retried: Retried): void {
	const { failed, retry, refusal } = retried;
	logRetry(retried, 'once failed');
	check(
		!!retry && Object.keys(retry.items).length === 0,
		`kill, ${failed.kind}: the Retry of ${failed.execution.summary.id}, saved with the error alone, ran no node (nothing placed, nothing awaited; ended ${retry?.summary.status}): its call is found as above`,
		() => JSON.stringify(retry?.summary ?? refusal),
	);
}
