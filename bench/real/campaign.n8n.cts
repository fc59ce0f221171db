/**
 * `npm run bench:n8n:campaign`: what a Run Campaign holds of n8n while it waits, in the real n8n
 * 2.38.7 (`n8n start`, the one `npm run test:n8n` installs). Two campaigns run side by side, each of
 * 20 people, Max Live Calls 5, 30 % of calls not answered and redialled once a minute after, calls
 * of 5–15 s: one freeing the worker (Free the Worker While Waiting), one holding it (polling). Every
 * second the executions' status is read through n8n's REST API: the seconds an execution is
 * `running` (it holds a worker, or main's process in regular mode) against those it is `waiting`
 * (in the database, nothing held); the wall time is their sum, from the start request to the
 * first look that sees the execution done.
 * Both campaigns are checked first (success, 20 `called` items, no number dialled twice). The
 * figures replace the `campaign_real_*` keys of bench/results.json. Not part of `npm test`: it
 * takes about 5 minutes.
 *
 * Environment: N8N_CACHE_DIR (where test:n8n installed n8n), BENCH_N8N_SKIP_BUILD=1.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { planCalls, startSimulator, type Call, type Simulator } from '../../simulator/index.cts';
import {
	CAMPAIGN_NODE,
	campaignPeople,
	campaignWorkflow,
	canceledCalls,
	dialledCalls,
	SHORT_CALL,
} from '../../scripts/n8n/campaign.cts';
import {
	buildAndPack,
	freePort,
	freshDir,
	installCommunityPackage,
	installPaths,
	keepSecret,
	log,
	N8nInstance,
	PACKAGE_NAME,
	ROOT,
	setUpOwner,
	sleep,
	writeJson,
} from '../../scripts/n8n/lib.cts';
import { executionsOf } from '../../scripts/n8n/trigger.cts';

const CREDENTIAL = { id: 'VoiceAgentCrmBench', name: 'Voice Agent CRM (bench)' };
const PEOPLE = 20;
const RULES = { maxLive: 5, redialOn: ['no_answer'], redialAfterMinutes: 1, maxTries: 2 };
const MODES = {
	free_worker: { id: 'BenchCampaignFree', freeWorker: true, first: 1 },
	held_worker: { id: 'BenchCampaignHeld', freeWorker: false, first: 100 },
} as const;
type Mode = keyof typeof MODES;

interface Tally {
	running: number;
	waiting: number;
	done: boolean;
}

async function statusOf(n8n: N8nInstance, workflowId: string): Promise<string | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await n8n.restOk<{ data: { results: Array<{ status: string }> } }>(
		'GET',
		`/executions?filter=${filter}&limit=10`,
	);
	return list.data.results[0]?.status;
}

async function importWorkflows(n8n: N8nInstance, sim: Simulator, workDir: string): Promise<void> {
	const workflows = Object.entries(MODES).map(([mode, { id, freeWorker }]) =>
		campaignWorkflow({
			id,
			name: `bench campaign (${mode})`,
			path: `bench-campaign-${mode}`,
			idPrefix: `9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b${freeWorker ? '1' : '2'}`,
			credential: CREDENTIAL,
			agentId: [...sim.org.agents.keys()][0],
			fromNumber: [...sim.org.phoneNumbers.values()][0].phone_number,
			freeWorker,
			...RULES,
		}),
	);
	const file = path.join(workDir, 'workflows.json');
	writeJson(file, workflows);
	await n8n.cliOk(['import:workflow', `--input=${file}`]);
	for (const { id } of Object.values(MODES)) await n8n.cliOk(['publish:workflow', `--id=${id}`]);
}

/** Both campaigns started at once; the seconds each spends running and waiting, read every second. */
async function runSideBySide(n8n: N8nInstance): Promise<Record<Mode, Tally>> {
	const tallies = {} as Record<Mode, Tally>;
	for (const [mode, { first }] of Object.entries(MODES) as Array<[Mode, (typeof MODES)[Mode]]>) {
		tallies[mode] = { running: 0, waiting: 0, done: false };
		const response = await fetch(`${n8n.url}/webhook/bench-campaign-${mode}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ people: campaignPeople(first, PEOPLE) }),
		});
		if (response.status !== 200)
			throw new Error(`${mode}: the webhook answered ${response.status}`);
	}
	const deadline = Date.now() + 15 * 60_000;
	let last = Date.now();
	while (Object.values(tallies).some((tally) => !tally.done)) {
		if (Date.now() > deadline) throw new Error('the campaigns did not finish in 15 minutes');
		const tick = Date.now();
		// the time since the last look counts for the status seen now (a look takes longer on a loaded machine)
		const seconds = (tick - last) / 1000;
		last = tick;
		for (const [mode, { id }] of Object.entries(MODES) as Array<[Mode, (typeof MODES)[Mode]]>) {
			const tally = tallies[mode];
			if (tally.done) continue;
			const status = await statusOf(n8n, id);
			if (status === 'waiting') tally.waiting += seconds;
			else if (status && !['running', 'new'].includes(status)) tally.done = true;
			else tally.running += seconds;
		}
		await sleep(Math.max(0, 1_000 - (Date.now() - tick)));
	}
	return tallies;
}

/** Each campaign checked: success, every person called, no one dialled beyond the rules. */
async function checkCampaign(n8n: N8nInstance, sim: Simulator, mode: Mode): Promise<void> {
	const { id, first } = MODES[mode];
	const [execution] = await executionsOf(n8n, id);
	const items = execution?.items[CAMPAIGN_NODE] ?? [];
	const people = campaignPeople(first, PEOPLE);
	const twice = people.filter((p) => {
		const calls = dialledCalls(sim, p.to);
		return (
			calls.length > RULES.maxTries || (calls.length === 2 && calls[0].call_result !== 'no_answer')
		);
	});
	if (
		execution?.summary.status !== 'success' ||
		items.length !== PEOPLE ||
		items.some((item) => item.json.campaign_status !== 'called') ||
		twice.length
	)
		throw new Error(
			`${mode}: ${execution?.summary.status}, ${items.length} items, ${twice.length} dialled beyond the rules`,
		);
}

/** When a canceled call was placed, due and canceled: a cancel 5 s before the start is a deadline's. */
function whyCanceled(sim: Simulator, call: Call): string {
	const placedAt = Date.parse(call.created_at);
	const canceledAt = sim.requestsTo('POST', `/v1/calls/${call.id}/cancel`).map((r) => r.at);
	const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
	return `call placed ${seconds(call.place_at - placedAt)} ahead, canceled ${canceledAt.map((at) => `${seconds(call.place_at - at)} before its start`).join(', then ')}`;
}

async function main(): Promise<void> {
	const workDir = freshDir(path.join(ROOT, 'bench', '.tmp', 'n8n-campaign'));
	const logDir = freshDir(path.join(workDir, 'logs'));
	const install = installPaths(
		process.env.N8N_CACHE_DIR ?? path.join(homedir(), '.cache', PACKAGE_NAME, 'n8n-2.38.7'),
	);
	const n8n = new N8nInstance(
		install,
		freshDir(path.join(workDir, 'user')),
		logDir,
		await freePort(),
	);
	n8n.taskBrokerPort = await freePort();
	if (process.env.BENCH_N8N_SKIP_BUILD === '1') process.env.TEST_N8N_SKIP_BUILD = '1';
	await installCommunityPackage(n8n, await buildAndPack(workDir, logDir));
	const sim = await startSimulator({ apiKey: `vak_${randomBytes(18).toString('hex')}` });
	keepSecret(sim.apiKey);
	planCalls(sim)
		.byDefault({ ...SHORT_CALL, ringMs: 3_000 })
		.byShare({ shares: { no_answer: 0.3 }, talkMs: [5_000, 15_000], seed: 20 });
	sim.clock.runOnItsOwn();
	try {
		await n8n.importSimulatorCredential(sim, path.join(workDir, 'credentials.json'), CREDENTIAL);
		await importWorkflows(n8n, sim, workDir);
		await n8n.start();
		await setUpOwner(n8n);
		const tallies = await runSideBySide(n8n);
		const figures: Record<string, number> = {};
		for (const mode of Object.keys(MODES) as Mode[]) {
			await checkCampaign(n8n, sim, mode);
			const { running, waiting } = tallies[mode];
			figures[`campaign_real_${mode}_wall_s`] = Math.round(running + waiting);
			figures[`campaign_real_${mode}_running_s`] = Math.round(running);
			figures[`campaign_real_${mode}_waiting_s`] = Math.round(waiting);
			const numbers = campaignPeople(MODES[mode].first, PEOPLE).map((p) => p.to);
			figures[`campaign_real_${mode}_calls`] = numbers.flatMap((n) => dialledCalls(sim, n)).length;
			// placed and canceled before ringing: claims lost to a step of the same run taken at the
			// same time, or placements no look confirmed by their deadline (5 s before their start)
			const canceled = canceledCalls(sim, numbers);
			figures[`campaign_real_${mode}_canceled_calls`] = canceled.length;
			for (const call of canceled) log(`${mode}: ${whyCanceled(sim, call)}`);
		}
		figures.campaign_real_free_worker_running_share =
			Math.round(
				(figures.campaign_real_free_worker_running_s / figures.campaign_real_free_worker_wall_s) *
					1000,
			) / 1000;
		log(JSON.stringify(figures));
		const resultsPath = path.join(ROOT, 'bench', 'results.json');
		const earlier = JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, number>;
		const kept = Object.fromEntries(
			Object.entries(earlier).filter(([key]) => !key.startsWith('campaign_real_')),
		);
		writeFileSync(resultsPath, `${JSON.stringify({ ...kept, ...figures }, null, 2)}\n`);
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
