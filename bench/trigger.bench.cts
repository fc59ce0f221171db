import { pollingTrigger, type PollingTrigger } from '../harness/poll.cts';
import { startSimulator, type Simulator } from '../simulator/index.cts';
import { insertCall } from '../simulator/index.cts';

const HISTORY = 10_000;
const MINUTE = 60_000;

async function requestsOf(
	sim: Simulator,
	poll: () => Promise<unknown>,
): Promise<{ requests: number; result: unknown }> {
	const before = sim.requests.length;
	const result = await poll();
	return { requests: sim.requests.length - before, result };
}

function callTrigger(sim: Simulator, parameters: Record<string, unknown> = {}): PollingTrigger {
	return pollingTrigger({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: { event: 'callFinished', ...parameters },
		clock: () => sim.clock.now(),
	});
}

/** 100 calls that finished since the last poll, created over the last minute. */
function hundredNew(sim: Simulator): void {
	const now = sim.clock.now();
	for (let i = 0; i < 100; i++)
		insertCall(sim, { created_at: sim.clock.iso(now - MINUTE + i * 600) });
}

async function emittedCount(trigger: PollingTrigger): Promise<number> {
	return ((await trigger.poll()) as Array<unknown[]> | null)?.[0]?.length ?? 0;
}

/**
 * Requests of the Call Finished trigger against the simulator, over 10,000 finished calls of history:
 * - `trigger_idle_poll_requests`: a poll that finds nothing new (goal 1);
 * - `trigger_requests_per_100_new`: a poll that finds 100 new finished calls (default transcript options);
 * - `trigger_requests_per_100_new_word_timings`: the same with word timings, which the list does not carry,
 *   so each call is read on its own (101);
 * - `trigger_activation_requests`: the baseline at activation.
 */
export async function run(): Promise<Record<string, number>> {
	const sim = await startSimulator();
	try {
		const start = sim.clock.now() - HISTORY * 1_000;
		for (let i = 0; i < HISTORY; i++)
			insertCall(sim, { created_at: sim.clock.iso(start + i * 1_000), call_analysis: null });

		const trigger = callTrigger(sim);
		const activation = await requestsOf(sim, () => trigger.poll());
		await sim.clock.advance(MINUTE);
		const idle = await requestsOf(sim, () => trigger.poll());
		if (idle.result !== null) throw new Error('the idle poll emitted something');

		await sim.clock.advance(MINUTE);
		hundredNew(sim);
		let emitted = 0;
		const fresh = await requestsOf(sim, async () => (emitted = await emittedCount(trigger)));
		if (emitted !== 100) throw new Error(`expected 100 new calls, got ${emitted}`);

		const withWords = callTrigger(sim, { transcriptOptions: { includeWords: true } });
		await withWords.poll();
		await sim.clock.advance(MINUTE);
		hundredNew(sim);
		const freshWithWords = await requestsOf(
			sim,
			async () => (emitted = await emittedCount(withWords)),
		);
		if (emitted !== 100)
			throw new Error(`expected 100 new calls with word timings, got ${emitted}`);

		return {
			trigger_idle_poll_requests: idle.requests,
			trigger_requests_per_100_new: fresh.requests,
			trigger_requests_per_100_new_word_timings: freshWithWords.requests,
			trigger_activation_requests: activation.requests,
		};
	} finally {
		await sim.stop();
	}
}
