import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import type { PollingTrigger } from '../../harness/poll.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { insertCall } from '../../simulator/index.cts';
import { finishedCallsPoll } from '../helpers/polling.cts';

const CALLS = '/v1/calls';
/** More finished calls than one page holds (1,000), so that the poll reads a second page. */
const TWO_PAGES = 1_100;

/**
 * A poll that fails keeps its state: the error is raised (n8n shows it and retries on schedule),
 * the static data is as it was, and the next good poll emits every call missed, once.
 */
describe('Trigger: a failed poll keeps its state and the next good poll emits what was missed, once', () => {
	// on the fake clock: each failing page is tried three times, with a backoff between the tries
	let time: FakeTime;
	let sim: Simulator;
	let trigger: PollingTrigger;
	const poll = () => time.runUntilSettled(trigger.poll());

	beforeEach(async () => {
		time = installFakeTime();
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		trigger = finishedCallsPoll(sim);
		expect(await poll()).toBeNull();
		await sim.clock.advance(60_000);
	});
	afterEach(async () => {
		await sim.stop();
		time.uninstall();
	});

	const finishCalls = (count: number) =>
		Array.from(
			{ length: count },
			(_, i) => insertCall(sim, { created_at: sim.clock.iso(sim.clock.now() - i) }).id,
		);
	const emitted = (output: Awaited<ReturnType<PollingTrigger['poll']>>) =>
		(output?.[0] ?? []).map((item) => String(item.json.id));

	async function failingPoll(): Promise<void> {
		const before = JSON.stringify(trigger.staticData);
		const error = (await poll().then(
			() => undefined,
			(e: unknown) => e,
		)) as { message?: string; description?: string } | undefined;
		expect(error?.message).toMatch(/HTTP 500/);
		expect(error?.description).toMatch(/GET \/v1\/calls answered 500/);
		expect(JSON.stringify(trigger.staticData)).toBe(before);
		// the service recovers
		sim.faults.clear();
	}

	it('a 5xx on the first page', async () => {
		const missed = finishCalls(5);
		sim.faults.inject({ method: 'GET', path: CALLS, times: Infinity, fault: { status: 500 } });
		await failingPoll();
		const next = emitted(await poll());
		expect(next.sort()).toEqual([...missed].sort());
		expect(await poll()).toBeNull();
	});

	it('a 5xx on a later page, after the first page was read', async () => {
		const missed = finishCalls(TWO_PAGES);
		// the first page is read; the second fails, every try
		sim.faults.inject({
			method: 'GET',
			path: CALLS,
			skip: 1,
			times: Infinity,
			fault: { status: 500 },
		});
		const sent = sim.requestsTo('GET', CALLS).length;
		await failingPoll();
		expect(
			sim
				.requestsTo('GET', CALLS)
				.slice(sent)
				.map((r) => r.status),
		).toEqual([200, 500, 500, 500]);
		// the first page was read and then dropped with the failed poll: nothing of it was emitted
		const next = emitted(await poll());
		expect(next).toHaveLength(TWO_PAGES);
		expect(new Set(next)).toEqual(new Set(missed));
		expect(await poll()).toBeNull();
	});
});
