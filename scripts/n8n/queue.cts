/**
 * `npm run test:n8n:queue`: the package proven on n8n's distributed engine (issue 17).
 *
 * Redis and Postgres (installed with apt-get when missing), then the pinned n8n in queue mode: a main
 * (it runs the trigger's polls), two workers of concurrency 5 and a webhook process, the packed package
 * installed as a community package. The simulator runs in this process with its clock running on its
 * own and short call timings, at the reference's rate limits. Proven on that cluster:
 *
 * 1. 40 place-and-wait executions at once (20 waiting by polling, 20 freeing the worker): 40 calls
 *    placed, 40 records returned, at most 1% of all requests answered 429.
 * 2. The trigger emits each finished call once, across a restart of main.
 * 3. 10 event syncs of 1,000 rows at once: 10,000 events stored, none twice, no item failed.
 * 4. Worker-freeing waits resume with their calls' records after both workers restarted.
 * 4b. A worker SIGKILLed and one SIGTERMed during polling waits: each call found by its failed
 *    execution's ID, each Retry places no call (queueKill.cts).
 * 4c. Campaigns: 4 at once over overlapping lists, no number dialled twice (queueCampaign.cts); a
 *    campaign whose worker was SIGKILLed in its first step, run again: it follows the dead
 *    execution's calls itself and ends within their time (queueCampaignRerun.cts).
 *
 * 5. The Instant Trigger with two webhook processes behind a round robin (queueInstant.cts), and
 *    where it can emit twice or lose an event: simultaneous duplicates, a slow graceful shutdown,
 *    deliveries answered 404 at a start (queueInstantDoubles.cts).
 *
 * Everything started is stopped at the end, also on failure. Environment: N8N_CACHE_DIR,
 * TEST_N8N_SKIP_BUILD=1 (pack dist/ as it is, as happens anyway when it is current),
 * TEST_N8N_QUEUE_ONLY_INSTANT=1 (5 alone; `doubles`: its second half alone),
 * TEST_N8N_QUEUE_ONLY_KILL=1 (4b alone, or with the former), TEST_N8N_QUEUE_ONLY_CAMPAIGN=1 (the
 * campaigns alone, or with the former), TEST_N8N_QUEUE_SKIP_INSTANT=1 (all but 5).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { planCalls, startSimulator, storedEvents, type Simulator } from '../../simulator/index.cts';
import {
	buildAndPack,
	check,
	CheckFailure,
	checks,
	freePort,
	freshDir,
	installCommunityPackage,
	installN8n,
	installPaths,
	keepSecret,
	log,
	redact,
	ROOT,
	setUpOwner,
	stageTimer,
	sleep,
	waitFor,
	writeJson,
	type Owner,
} from './lib.cts';
import {
	ensureServices,
	executionIds,
	executionsDone,
	N8nProcess,
	onStop,
	postToWebhook,
	publishWorkflows,
	QueueN8n,
	startPostgres,
	startRedis,
	stopAll,
	type Execution,
} from './queueCluster.cts';
import {
	INSTANT_WORKFLOW_ID,
	instantTriggerInQueueMode,
	instantWorkflow,
	RoundRobin,
} from './queueInstant.cts';
import {
	doublesAgentOf,
	doublesWorkflows,
	DOUBLES_WORKFLOW_ID,
	HOLD_WORKFLOW_ID,
	instantDoublesInQueueMode,
} from './queueInstantDoubles.cts';
import {
	AGENT_ID,
	eventsWorkflow,
	findCallsWorkflow,
	PLACE_NODE,
	placeWorkflow,
	SEND_NODE,
	TRIGGER_NODE,
	triggerWorkflow,
	WEBHOOK_PATHS,
	WORKFLOW_IDS,
} from './queueWorkflows.cts';
import { killedPollingWaits } from './queueKill.cts';
import { manualTestStepOnWorker } from './queueManual.cts';
import { executionsOf } from './trigger.cts';
import { campaignsAtOnce } from './queueCampaign.cts';
import { campaignRunAgainAfterKill } from './queueCampaignRerun.cts';

/** A call from placement to its analysis in about 5 s. */
const FAST_CALL = {
	queueMs: 500,
	ringMs: 1_000,
	talkMs: 2_000,
	finishedDelayMs: 500,
	reasonDelayMs: 500,
	analysisDelayMs: 1_500,
};
const PLACE_AND_WAIT = 20; // of each kind
const SYNCS = 10;
const ROWS = 1_000;
const WAITS_ACROSS_RESTART = 4;

interface Cluster {
	n8n: QueueN8n;
	main: N8nProcess;
	/** The first webhook process; `webhooks` has both, behind `roundRobin`. */
	webhook: N8nProcess;
	webhooks: N8nProcess[];
	roundRobin: RoundRobin;
	instantAgentId: string;
	workers: N8nProcess[];
	owner: Owner;
}

/** The rest of the run skipped (TEST_N8N_QUEUE_ONLY_INSTANT=1). */
class Skipped extends Error {}

async function main(): Promise<void> {
	const t0 = Date.now();
	const workDir = freshDir(path.join(ROOT, 'test', '.tmp', 'n8n-queue'));
	const logDir = freshDir(path.join(workDir, 'logs'));
	const { timed, summary } = stageTimer();

	let failed: unknown;
	let sim: Simulator | undefined;
	try {
		const cacheDir = await timed('install n8n', installN8n);
		await timed('services', ensureServices);
		const tarball = await timed('build and pack', () => buildAndPack(workDir, logDir));

		// the webhook process loads a waiting execution from Postgres before it reads the event: on a
		// loaded machine that took longer than the simulator's default 5 s, and the event was lost
		sim = await startSimulator({
			apiKey: `vak_${randomBytes(18).toString('hex')}`,
			webhookTimeoutMs: 60_000,
		});
		keepSecret(sim.apiKey);
		planCalls(sim).byDefault(FAST_CALL);
		sim.clock.runOnItsOwn();
		log(`simulator: ${sim.baseUrl}, clock running on its own, calls of about 5 s`);

		const cluster = await timed('cluster up', () =>
			startCluster(cacheDir, workDir, logDir, tarball, sim!),
		);
		const callsBefore = new Set(sim.org.calls.keys());

		// TEST_N8N_QUEUE_ONLY_KILL=1: the killed workers' part; TEST_N8N_QUEUE_ONLY_INSTANT=doubles:
		// only the doubles part of the Instant Trigger; both: the two
		const onlyKill = process.env.TEST_N8N_QUEUE_ONLY_KILL === '1';
		const onlyCampaign = process.env.TEST_N8N_QUEUE_ONLY_CAMPAIGN === '1';
		const onlyInstant = process.env.TEST_N8N_QUEUE_ONLY_INSTANT;
		if (onlyKill || onlyCampaign || onlyInstant === '1' || onlyInstant === 'doubles') {
			log(
				`only the parts asked for (TEST_N8N_QUEUE_ONLY_KILL=${onlyKill ? 1 : ''}, TEST_N8N_QUEUE_ONLY_CAMPAIGN=${onlyCampaign ? 1 : ''}, TEST_N8N_QUEUE_ONLY_INSTANT=${onlyInstant ?? ''})`,
			);
			if (onlyCampaign) {
				await timed('4 campaigns at once', () => campaignsAtOnce(cluster, sim!));
				await timed('campaign run again after a killed worker', () =>
					campaignRunAgainAfterKill(cluster, sim!),
				);
			}
			if (onlyKill)
				await timed('workers killed in polling waits', () => killedPollingWaits(cluster, sim!));
			if (onlyInstant === '1')
				await timed('instant trigger, two webhook processes', () =>
					instantTriggerInQueueMode(cluster.n8n, sim!, cluster.webhooks, cluster.instantAgentId),
				);
			if (onlyInstant) await timed('instant trigger, doubles', () => instantDoubles(cluster, sim!));
			throw new Skipped();
		}
		const checkRateLimited = await timed('40 place-and-wait', () => placeAndWait(cluster, sim!));
		await timed('manual Test step on a worker', () => manualTestStepOnWorker(cluster, sim!));
		await timed('restart main', async () => {
			await cluster.main.restart();
			await cluster.n8n.restOk('POST', '/login', {
				emailOrLdapLoginId: cluster.owner.email,
				password: cluster.owner.password,
			});
			log('main: restarted');
		});
		await timed('10 event syncs', () => eventSyncs(cluster, sim!));
		await timed('waits across worker restarts', () => waitsAcrossWorkerRestarts(cluster, sim!));
		await timed('workers killed in polling waits', () => killedPollingWaits(cluster, sim!));
		await timed('trigger across main restart', () =>
			triggerEmittedEachCallOnce(cluster, sim!, callsBefore),
		);
		await timed('late events', async () => reportLateEvents(cluster));
		await timed('4 campaigns at once', () => campaignsAtOnce(cluster, sim!));
		await timed('campaign run again after a killed worker', () =>
			campaignRunAgainAfterKill(cluster, sim!),
		);
		// TEST_N8N_QUEUE_SKIP_INSTANT=1 leaves this part out; TEST_N8N_QUEUE_ONLY_INSTANT=1 runs it alone
		if (process.env.TEST_N8N_QUEUE_SKIP_INSTANT === '1')
			log('instant trigger part skipped (TEST_N8N_QUEUE_SKIP_INSTANT=1)');
		else {
			await timed('instant trigger, two webhook processes', () =>
				instantTriggerInQueueMode(cluster.n8n, sim!, cluster.webhooks, cluster.instantAgentId),
			);
			await timed('instant trigger, doubles', () => instantDoubles(cluster, sim!));
		}
		checkRateLimited();
	} catch (error) {
		if (!(error instanceof Skipped)) failed = error;
	} finally {
		await stopAll();
		await sim?.stop();
	}

	const seconds = Math.round((Date.now() - t0) / 1000);
	log(summary());
	log(`logs: ${logDir}`);
	if (failed) {
		const message = failed instanceof Error ? failed.message : String(failed);
		log(`FAILED after ${seconds}s: ${failed instanceof CheckFailure ? '' : 'error: '}${message}`);
		if (!(failed instanceof CheckFailure) && failed instanceof Error)
			console.error(redact(failed.stack ?? ''));
		console.log(`test:n8n:queue: ${checks.passed} passed, 1 failed`);
		process.exit(1);
	}
	console.log(`test:n8n:queue: ${checks.passed} passed, 0 failed (${seconds}s)`);
	process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// The cluster

async function startCluster(
	cacheDir: string,
	workDir: string,
	logDir: string,
	tarball: string,
	sim: Simulator,
): Promise<Cluster> {
	const redisPort = await startRedis(workDir);
	const webhookPorts = [await freePort(), await freePort()];
	const roundRobin = new RoundRobin(() => webhookPorts);
	await roundRobin.start();
	onStop('round robin', () => roundRobin.stop());
	const instantAgentId = [...sim.org.agents.keys()].find((id) => id !== AGENT_ID)!;
	const database = await startPostgres(logDir);
	const n8n = new QueueN8n(
		installPaths(cacheDir),
		freshDir(path.join(workDir, 'user')),
		logDir,
		await freePort(),
	);
	n8n.redisPort = redisPort;
	n8n.database = database;
	// call webhooks and resume URLs reach the webhook processes through the round robin
	n8n.webhookBaseUrl = `${roundRobin.url}/`;
	await installCommunityPackage(n8n, tarball);

	await n8n.importSimulatorCredential(sim, path.join(workDir, 'credentials.json'));
	const workflows = [
		placeWorkflow('polling'),
		placeWorkflow('freeing'),
		findCallsWorkflow(),
		eventsWorkflow(ROWS),
		triggerWorkflow(),
		instantWorkflow(instantAgentId),
		...doublesWorkflows(doublesAgentOf(sim, [AGENT_ID, instantAgentId])),
	];
	const workflowsFile = path.join(workDir, 'workflows.json');
	writeJson(workflowsFile, workflows);
	await n8n.cliOk(['import:workflow', `--input=${workflowsFile}`]);
	await publishWorkflows(database, [
		...Object.values(WORKFLOW_IDS),
		INSTANT_WORKFLOW_ID,
		DOUBLES_WORKFLOW_ID,
		HOLD_WORKFLOW_ID,
	]);
	log(`n8n: credential and ${workflows.length} workflows imported into Postgres and published`);

	const main = await N8nProcess.create(n8n, 'main', 'main', n8n.port);
	const webhooks = [
		await N8nProcess.create(n8n, 'webhook-1', 'webhook', webhookPorts[0]),
		await N8nProcess.create(n8n, 'webhook-2', 'webhook', webhookPorts[1]),
	];
	const workers = [
		await N8nProcess.create(n8n, 'worker-1', 'worker'),
		await N8nProcess.create(n8n, 'worker-2', 'worker'),
	];
	await main.start();
	await Promise.all([...webhooks, ...workers].map((p) => p.start()));
	log(
		`n8n: main ${main.url}, webhooks ${webhooks.map((w) => w.url).join(' and ')} behind ${roundRobin.url}, 2 workers of concurrency 5: ready`,
	);
	const owner = await setUpOwner(n8n);
	return { n8n, main, webhook: webhooks[0], webhooks, roundRobin, instantAgentId, workers, owner };
}

/** The Instant Trigger's doubles, shutdown and start part (queueInstantDoubles.cts). */
function instantDoubles(cluster: Cluster, sim: Simulator): Promise<void> {
	const agentId = doublesAgentOf(sim, [AGENT_ID, cluster.instantAgentId]);
	return instantDoublesInQueueMode(cluster.n8n, sim, cluster.webhooks, cluster.roundRobin, agentId);
}

function recordOf(execution: Execution): Record<string, unknown> | undefined {
	return execution.items[PLACE_NODE]?.[0]?.json;
}

const phone = (n: number) => `+1415556${String(n).padStart(4, '0')}`;

// ---------------------------------------------------------------------------------------------
// 1. 40 place-and-wait executions at once

/** Runs the executions and checks them; answers the check of the 429 share, made once the other proofs ran. */
async function placeAndWait(cluster: Cluster, sim: Simulator): Promise<() => void> {
	const firstRequest = sim.requests.length;
	const placementsBefore = sim.requestsTo('POST', '/v1/calls/single-phone-call').length;
	const kinds = ['polling', 'freeing'] as const;
	await Promise.all(
		kinds.flatMap((kind, k) =>
			Array.from({ length: PLACE_AND_WAIT }, (_, i) =>
				postToWebhook(cluster.webhook.url, WEBHOOK_PATHS[kind], {
					to: phone(k * 100 + i),
					name: `Queue ${kind} ${i}`,
				}),
			),
		),
	);
	log(`started ${2 * PLACE_AND_WAIT} executions through the webhook process`);
	const runs = await Promise.all(
		kinds.map((kind) =>
			executionsDone(cluster.n8n, WORKFLOW_IDS[kind], PLACE_AND_WAIT, new Set(), 8 * 60_000),
		),
	);
	const all = runs.flat();
	const requests = sim.requests.slice(firstRequest);
	const limited = requests.filter((r) => r.status === 429).length;
	const placements =
		sim.requestsTo('POST', '/v1/calls/single-phone-call').length - placementsBefore;

	check(
		all.every((e) => e.summary.status === 'success'),
		`${all.length} place-and-wait executions, all successful`,
		() => all.map((e) => `${e.summary.id}: ${e.summary.status}`).join('\n'),
	);
	check(
		placements === 2 * PLACE_AND_WAIT,
		`${placements} calls placed in the simulator, one per execution`,
	);
	const records = all.map(recordOf);
	const callIds = new Set(records.map((r) => r?.id));
	check(
		records.every(
			(r) => typeof r?.id === 'string' && r.call_analysis && typeof r.call_analysis === 'object',
		) && callIds.size === all.length,
		`${callIds.size} distinct records returned, each with its analysis`,
	);
	for (const [k, kind] of kinds.entries()) {
		const numbers = runs[k].map(
			(e) => sim.org.calls.get(String(recordOf(e)?.id))?.contact.phone_number,
		);
		check(
			new Set(numbers).size === PLACE_AND_WAIT,
			`${kind}: each execution returned the record of its own call`,
		);
	}
	log(
		`measured: ${requests.length} requests for ${all.length} place-and-wait executions, ${limited} answered 429`,
	);
	return () =>
		check(
			limited <= 0.01 * requests.length,
			`40 place-and-wait: ${limited} of ${requests.length} requests answered 429 (at most 1%)`,
		);
}

// ---------------------------------------------------------------------------------------------
// 2. The trigger across a restart of main

async function triggerEmittedEachCallOnce(
	cluster: Cluster,
	sim: Simulator,
	callsBefore: Set<string>,
): Promise<void> {
	const placed = [...sim.org.calls.values()].filter((c) => !callsBefore.has(c.id));
	await waitFor(
		() => placed.every((c) => c.finished),
		120_000,
		'every call placed in this run to finish',
	);
	const lastFinished = Date.now();
	const polls = () =>
		sim.requests.filter(
			(r) => r.method === 'GET' && r.path === '/v1/calls' && r.at > lastFinished + 1_000,
		).length;
	// main polls every minute: one poll after the last call finished covers them all
	await waitFor(() => polls() > 0, 75_000, 'a trigger poll after the last call finished');
	await sleep(5_000);
	let executions: Execution[] = [];
	const counts = new Map<string, number>();
	const deadline = Date.now() + 60_000;
	do {
		executions = await executionsOf(cluster.n8n, WORKFLOW_IDS.trigger);
		counts.clear();
		for (const e of executions)
			for (const item of e.items[TRIGGER_NODE] ?? [])
				counts.set(String(item.json.id), (counts.get(String(item.json.id)) ?? 0) + 1);
		if (placed.every((c) => counts.has(c.id))) break;
		await sleep(2_000);
	} while (Date.now() < deadline);
	const perCall = placed.map((c) => counts.get(c.id) ?? 0);
	check(
		executions.every((e) => e.summary.status === 'success' && e.summary.mode === 'trigger'),
		`${executions.length} trigger executions, all successful`,
	);
	check(
		perCall.every((n) => n === 1) && counts.size === placed.length,
		`the trigger emitted each of the ${placed.length} finished calls exactly once, across the restart of main`,
		() => `per call: ${perCall.join(',')}; emitted ${counts.size}`,
	);
}

// ---------------------------------------------------------------------------------------------
// 3. Parallel event syncs

async function eventSyncs(cluster: Cluster, sim: Simulator): Promise<void> {
	const before = await executionIds(cluster.n8n, WORKFLOW_IDS.events);
	await Promise.all(
		Array.from({ length: SYNCS }, (_, batch) =>
			postToWebhook(cluster.webhook.url, WEBHOOK_PATHS.events, { batch }),
		),
	);
	log(`started ${SYNCS} event syncs of ${ROWS} rows`);
	const runs = await executionsDone(cluster.n8n, WORKFLOW_IDS.events, SYNCS, before, 8 * 60_000);
	check(
		runs.every((e) => e.summary.status === 'success'),
		`${runs.length} event syncs, all successful`,
	);
	const summaries = runs.map(
		(e) => (e.items[SEND_NODE]?.[0]?.json.summary ?? {}) as Record<string, unknown>,
	);
	check(
		summaries.every((s) => s.received === ROWS && s.failed === 0),
		`each sync's summary: ${ROWS} received, 0 failed`,
		() => JSON.stringify(summaries),
	);
	// the service stores names normalized to snake_case: 'Queue Sync Row' → 'queue_sync_row'
	const stored = storedEvents(sim.org, { event_name: 'queue_sync_row' });
	const rows = new Set(stored.map((e) => String((e.params as Record<string, unknown>).row)));
	check(
		stored.length === SYNCS * ROWS && rows.size === SYNCS * ROWS,
		`${stored.length} events stored, ${rows.size} distinct rows: none twice, none missing`,
	);
	const requests = sim.requestsTo('POST', '/v1/events');
	log(
		`measured: ${requests.length} event requests in all, ${requests.filter((r) => r.status === 429).length} answered 429`,
	);
}

// ---------------------------------------------------------------------------------------------
// 4. Worker-freeing waits across a restart of both workers

async function waitsAcrossWorkerRestarts(cluster: Cluster, sim: Simulator): Promise<void> {
	const before = await executionIds(cluster.n8n, WORKFLOW_IDS.freeing);
	const callsBefore = new Set(sim.org.calls.keys());
	// long enough to outlast the restart of both workers
	for (let i = 0; i < WAITS_ACROSS_RESTART; i++)
		planCalls(sim).next({ ...FAST_CALL, talkMs: 45_000 });
	await Promise.all(
		Array.from({ length: WAITS_ACROSS_RESTART }, (_, i) =>
			postToWebhook(cluster.webhook.url, WEBHOOK_PATHS.freeing, {
				to: phone(500 + i),
				name: `Queue restart ${i}`,
			}),
		),
	);
	const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_IDS.freeing }));
	const waiting = async () =>
		(
			await cluster.n8n.restOk<{ data: { results: Array<{ id: string; status: string }> } }>(
				'GET',
				`/executions?filter=${filter}&limit=250`,
			)
		).data.results.filter((e) => !before.has(e.id) && e.status === 'waiting').length;
	const deadline = Date.now() + 60_000;
	while ((await waiting()) < WAITS_ACROSS_RESTART) {
		if (Date.now() > deadline)
			throw new CheckFailure(`timed out waiting for ${WAITS_ACROSS_RESTART} executions to wait`);
		await sleep(1_000);
	}
	check(true, `${WAITS_ACROSS_RESTART} worker-freeing executions waiting for their calls`);
	await Promise.all(cluster.workers.map((w) => w.stop()));
	log('both workers stopped');
	await Promise.all(cluster.workers.map((w) => w.start()));
	log('both workers started again');
	const runs = await executionsDone(
		cluster.n8n,
		WORKFLOW_IDS.freeing,
		WAITS_ACROSS_RESTART,
		before,
		4 * 60_000,
	);
	const placed = [...sim.org.calls.values()].filter((c) => !callsBefore.has(c.id));
	const returned = runs.map((e) => String(recordOf(e)?.id));
	check(
		runs.every((e) => e.summary.status === 'success') &&
			placed.length === WAITS_ACROSS_RESTART &&
			new Set(returned).size === WAITS_ACROSS_RESTART &&
			returned.every((id) => placed.some((c) => c.id === id && c.finished)) &&
			runs.every((e) => recordOf(e)?.call_analysis),
		`after both workers restarted, each of the ${WAITS_ACROSS_RESTART} waiting executions resumed with its call's record`,
		() =>
			runs.map((e) => `${e.summary.id}: ${e.summary.status} ${String(recordOf(e)?.id)}`).join('\n'),
	);
}

// ---------------------------------------------------------------------------------------------
// Late call events: what n8n logged

function reportLateEvents(cluster: Cluster): void {
	const pattern =
		/Error in handling webhook request POST \/webhook-waiting\/[^:]*: The execution "?\d+"? ?(has finished already|is running already)/g;
	for (const process of [cluster.main, cluster.webhook]) {
		const lines = process.log().match(pattern) ?? [];
		log(
			`measured: ${lines.length} late call events answered 409 by n8n in the ${process.name} log`,
		);
	}
}

// Ctrl+C or a CI timeout: what was started is stopped all the same
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		log(`${signal}: stopping everything started`);
		void stopAll().finally(() => process.exit(1));
	});
}

void main().catch((error: unknown) => {
	console.error(redact(error instanceof Error ? (error.stack ?? error.message) : String(error)));
	console.log('test:n8n:queue: 0 passed, 1 failed');
	process.exit(1);
});
