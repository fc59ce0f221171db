/**
 * A campaign run again after its worker was killed (issue 40), on n8n's distributed engine: a
 * worker-freeing campaign of 4 people, Max Live Calls 2, no redials. worker-2 stopped, the
 * campaign runs on worker-1, which is SIGKILLed in the campaign's first step once both calls are
 * placed (the simulator holds the second placement's answer until then): the two calls ring with
 * no execution behind them, their events sent to a resume URL that never waits. Both workers
 * started again, the same list posted again.
 *
 * Checked from the simulator's call log and the executions: the re-run followed the dead
 * execution's calls by its own looks and finished within the calls' own time (before, it placed
 * nothing into the lanes they held and waited for Remember Calls For); each number dialled once;
 * its 4 items `called`, the 2 people of the dead execution's calls `from_earlier_run`; no execution
 * of the workflow left waiting.
 */
import type { Simulator } from '../../simulator/index.cts';
import { CAMPAIGN_NODE, campaignPeople, dialledCalls } from './campaign.cts';
import { check, log, type N8nInstance, sleep } from './lib.cts';
import type { N8nProcess } from './queueCluster.cts';
import { activateQueueCampaign } from './queueCampaign.cts';
import { executionsOf } from './trigger.cts';

const PATH = 'queue-campaign-rerun';
const PEOPLE = campaignPeople(300, 4);
const MAX_LIVE = 2;
const PLACE_PATH = '/v1/calls/single-phone-call';
/** The calls' own time and the steps between them: two rounds of calls of a few seconds. */
const WITHIN_MS = 3 * 60_000;

interface RerunCluster {
	n8n: N8nInstance;
	webhook: { url: string };
	workers: N8nProcess[];
}

async function postList(cluster: RerunCluster): Promise<void> {
	const response = await fetch(`${cluster.webhook.url}/webhook/${PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ people: PEOPLE }),
	});
	await response.arrayBuffer();
	if (response.status !== 200)
		throw new Error(`the campaign's webhook answered ${response.status}`);
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms: number) {
	const deadline = Date.now() + ms;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
		await sleep(250);
	}
}

export async function campaignRunAgainAfterKill(
	cluster: RerunCluster,
	sim: Simulator,
): Promise<void> {
	const [first, second] = cluster.workers;
	const workflowId = await activateQueueCampaign(cluster.n8n, {
		id: 'QueueCampaignRerun01',
		name: 'test:n8n:queue campaign run again after a killed worker',
		path: PATH,
		idPrefix: '8b7c6d5e-4f3a-4b2c-9d0e-1f2a3b4c5d',
		maxLive: MAX_LIVE,
	});
	const numbers = PEOPLE.map((person) => person.to);
	const placed = () => numbers.flatMap((number) => dialledCalls(sim, number));

	await second.stop();
	let answerSecondPlacement = () => {};
	const killed = new Promise<void>((resolve) => (answerSecondPlacement = resolve));
	// the second placement is made, its answer held: the step cannot settle before the kill
	sim.faults.inject({
		method: 'POST',
		path: PLACE_PATH,
		skip: 1,
		fault: { until: killed, afterHandling: true },
	});
	await postList(cluster);
	await until('the first step placed its 2 calls', () => placed().length === MAX_LIVE, 60_000);
	await first.kill();
	answerSecondPlacement();
	sim.faults.clear();
	log('campaign run again: worker-1 SIGKILLed in the first step, its 2 calls placed');
	await Promise.all([first.start(), second.start()]);

	const rerunAt = Date.now();
	await postList(cluster);
	let ended: Awaited<ReturnType<typeof executionsOf>> = [];
	const rerunEnded = async () => {
		ended = await executionsOf(cluster.n8n, workflowId);
		return ended.some((e) => e.summary.status === 'success');
	};
	await until('the re-run ended', rerunEnded, WITHIN_MS);
	log(
		`campaign run again: the re-run ended ${Math.round((Date.now() - rerunAt) / 1000)} s after it was posted`,
	);
	const rerun = ended.find((e) => e.summary.status === 'success')!;
	const items = rerun.items[CAMPAIGN_NODE] ?? [];
	check(
		items.length === PEOPLE.length &&
			items.every((item) => item.json.campaign_status === 'called') &&
			items.filter((item) => item.json.from_earlier_run === true).length === MAX_LIVE,
		`campaign run again after a killed worker: the re-run followed the dead execution's ${MAX_LIVE} calls itself and ended within ${WITHIN_MS / 60_000} minutes, ${PEOPLE.length} people "called", ${MAX_LIVE} of them from the earlier run`,
		() =>
			items
				.map(
					(item) =>
						`${String(item.json.to_number)}: ${String(item.json.campaign_status)} ${String(item.json.from_earlier_run)}`,
				)
				.join('\n'),
	);
	const dialled = numbers.map((number) => dialledCalls(sim, number).length);
	check(
		dialled.every((n) => n === 1),
		`campaign run again: each number dialled once (${dialled.join(',')})`,
	);
	const waiting = (await executionsOf(cluster.n8n, workflowId)).filter(
		(e) => e.summary.status === 'waiting',
	);
	check(
		waiting.length === 0,
		`campaign run again: no execution of the campaign left waiting (${waiting.length})`,
	);
}
