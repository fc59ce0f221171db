/**
 * Run Campaign on n8n's distributed engine (issues 32, 40): 4 campaigns started at once through
 * the webhook process, each run by a worker, over overlapping lists of 6 people (each person on two
 * lists), Max Live Calls 2, so that each run places its list over three steps or more, the shape
 * in which a step's later placements race the other runs' (a list no longer than Max Live Calls is
 * claimed whole in the first step), no redials, freeing the worker (each call's end takes a step
 * in a webhook process). Checked from the
 * simulator's call log and the executions: no number with two calls that rang, each person
 * `called` in exactly one execution and `skipped` (already called) in the other, or `called`
 * with `from_earlier_run` when that run started after the call was made. The claims lost
 * to a concurrent run, canceled before they rang, are counted and logged.
 */
import { peakLive } from '../../harness/callLog.cts';
import type { Simulator } from '../../simulator/index.cts';
import {
	CAMPAIGN_NODE,
	campaignPeople,
	campaignWorkflow,
	type CampaignSettings,
	canceledCalls,
	dialledCalls,
} from './campaign.cts';
import { check, log, type N8nInstance, sleep } from './lib.cts';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from './shared.cts';
import { executionsOf } from './trigger.cts';
import { AGENT_ID, FROM_NUMBER } from './queueWorkflows.cts';

const RUNS = 4;
const PATH = 'queue-campaign';
const POOL = campaignPeople(200, 12);
const MAX_LIVE = 2;

/** List k: 6 people from the pool, starting 3 further on than list k - 1 (each person on two lists). */
const listOf = (k: number) => Array.from({ length: 6 }, (_, i) => POOL[(3 * k + i) % POOL.length]);

/** What this part needs of queue.cts's cluster. */
interface QueueCluster {
	n8n: N8nInstance;
	webhook: { url: string };
}

/**
 * A worker-freeing campaign workflow with no redials, created and activated through n8n's REST
 * API (the cluster is up already); its ID.
 */
export async function activateQueueCampaign(
	n8n: N8nInstance,
	workflow: Pick<CampaignSettings, 'id' | 'name' | 'path' | 'idPrefix' | 'maxLive'>,
): Promise<string> {
	const { id: _id, ...body } = campaignWorkflow({
		...workflow,
		credential: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME },
		agentId: AGENT_ID,
		fromNumber: FROM_NUMBER,
		freeWorker: true,
		redialOn: [],
		redialAfterMinutes: 1,
		maxTries: 1,
	});
	const { data } = await n8n.restOk<{ data: { id: string; versionId: string } }>(
		'POST',
		'/workflows',
		body,
	);
	await n8n.restOk('POST', `/workflows/${data.id}/activate`, { versionId: data.versionId });
	// the webhook processes learn of a new production webhook from the database
	await sleep(2_000);
	return data.id;
}

export async function campaignsAtOnce(cluster: QueueCluster, sim: Simulator): Promise<void> {
	const workflowId = await activateQueueCampaign(cluster.n8n, {
		id: 'QueueCampaign001',
		name: 'test:n8n:queue campaigns at once',
		path: PATH,
		idPrefix: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c',
		maxLive: MAX_LIVE,
	});
	const statuses = await Promise.all(
		Array.from({ length: RUNS }, async (_, k) => {
			const response = await fetch(`${cluster.webhook.url}/webhook/${PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ people: listOf(k) }),
			});
			await response.arrayBuffer();
			return response.status;
		}),
	);
	check(
		statuses.every((s) => s === 200),
		`${RUNS} campaigns over overlapping lists started at once`,
	);
	const deadline = Date.now() + 5 * 60_000;
	let executions = await executionsOf(cluster.n8n, workflowId);
	while (executions.length < RUNS || executions.some((e) => e.summary.status === 'waiting')) {
		if (Date.now() > deadline)
			throw new Error(
				`timed out: campaigns ${executions.map((e) => e.summary.status).join(',')} of ${RUNS}`,
			);
		await sleep(2_000);
		executions = await executionsOf(cluster.n8n, workflowId);
	}
	const numbers = POOL.map((p) => p.to);
	const dialled = numbers.map((number) => dialledCalls(sim, number).length);
	const canceled = canceledCalls(sim, numbers).length;
	log(
		`measured: ${RUNS} campaigns at once over ${numbers.length} people: ${dialled.reduce((a, b) => a + b, 0)} calls rang, ${canceled} lost claims canceled before they rang`,
	);
	check(
		dialled.every((n) => n === 1),
		`in queue mode no number dialled twice, none left out (calls per person ${dialled.join(',')})`,
	);
	const rang = numbers.flatMap((number) => dialledCalls(sim, number));
	const campaigns = [...new Set(rang.map((call) => String(call.metadata?.n8n_campaign)))];
	const peaks = campaigns.map((key) =>
		peakLive(rang.filter((call) => call.metadata?.n8n_campaign === key)),
	);
	check(
		peaks.every((peak) => peak <= MAX_LIVE),
		`each campaign at most Max Live Calls (${MAX_LIVE}) live at once (peaks ${peaks.join(',')})`,
	);
	const items = executions.flatMap((e) => e.items[CAMPAIGN_NODE] ?? []);
	// the run that called the person says `called`; the other `skipped`, or, when it started after
	// that call was made (the campaign is the people: it goes on with it), `called` from an earlier run
	const statusesOf = (number: string) =>
		items
			.filter((item) => item.json.to_number === number)
			.map(({ json }) =>
				json.campaign_status === 'called' && json.from_earlier_run
					? 'called (earlier run)'
					: String(json.campaign_status),
			)
			.sort();
	const answeredOnce = (number: string) =>
		['called,skipped', 'called,called (earlier run)'].includes(statusesOf(number).join());
	check(
		executions.every((e) => e.summary.status === 'success') && numbers.every(answeredOnce),
		`each person "called" in exactly one execution and "skipped" (or "called" from an earlier run) in the other, all ${RUNS} executions success`,
		() =>
			`${executions.map((e) => e.summary.status).join(',')}\n${numbers.map((n) => `${n}: ${statusesOf(n).join()}`).join('\n')}`,
	);
}
