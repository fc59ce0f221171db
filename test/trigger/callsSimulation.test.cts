import type { IDataObject } from 'n8n-workflow';

import { insertCall } from '../../simulator/index.cts';
import type { Simulator } from '../../simulator/index.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { pollingTrigger, type PollingTrigger } from '../../harness/poll.cts';
import { beforeNthRequest, finishedIds, placeCall, randomSource } from './simulation.cts';

const MINUTE = 60_000;
const ANALYSIS_WAIT_MINUTES = 5;
const LATE_ANALYSIS_MS = 20 * MINUTE;

/**
 * Acceptance (issue 7): 1,000 calls driven through many polls, with calls sharing timestamps,
 * pages shifting between requests, calls seen live in one poll and finished in a later one,
 * analysis arriving late (and too late), a poll failing halfway through its pages, 429s, and
 * n8n restarts. The trigger must emit exactly the calls that finished after activation, each once.
 */
describe('Call Finished through 1,000 simulated calls', () => {
	let time: FakeTime;
	let sim: Simulator;
	// the transport's repeats after a failed page wait on fake time, not in real time
	withSimulatorOnFakeTime((t, s) => ([time, sim] = [t, s]), { once: true });

	it('emits every call that finished after activation exactly once, with its analysis or a note saying why not', async () => {
		const random = randomSource(7);
		const plans = new Map<string, { analysisDelayMs?: number }>();
		const place = (placeInMs?: number) => {
			const { call, plan } = placeCall(sim, random, {
				placeInMs,
				lateAnalysisMs: LATE_ANALYSIS_MS,
			});
			plans.set(call.id, plan);
		};

		// before activation: 20 finished calls (never to be emitted) and 10 live ones (to be emitted when they finish)
		for (let i = 0; i < 20; i++)
			insertCall(sim, { created_at: sim.clock.iso(sim.clock.now() - (30 - i) * MINUTE) });
		for (let i = 0; i < 10; i++) place();

		const trigger: PollingTrigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: {
				event: 'callFinished',
				waitForAnalysis: true,
				analysisWaitMinutes: ANALYSIS_WAIT_MINUTES,
			},
			clock: () => sim.clock.now(),
			time,
		});
		expect(await trigger.poll()).toBeNull();
		const finishedBefore = finishedIds(sim);

		const emitted: IDataObject[] = [];
		const collect = (out: Awaited<ReturnType<PollingTrigger['poll']>>) => {
			for (const item of out?.[0] ?? []) emitted.push(item.json);
		};
		const newestCreatedAt = () =>
			[...sim.org.calls.values()]
				.map((c) => c.created_at)
				.sort()
				.pop()!;
		let shiftedPoll = false;
		let failedPoll = false;

		for (let step = 1; step <= 40; step++) {
			await sim.clock.advance(MINUTE);
			for (let i = 0; i < 9; i++) place();
			place(10 * MINUTE + Math.floor(random() * 50 * MINUTE));
			if (step % 10 === 5) {
				// ten finished calls sharing the newest timestamp the trigger has already seen
				const tie = newestCreatedAt();
				for (let i = 0; i < 10; i++) insertCall(sim, { created_at: tie });
			}
			if (step % 4 === 0) {
				// a finished call that becomes visible late, dated before the newest one seen
				insertCall(sim, {
					created_at: sim.clock.iso(sim.clock.now() - 61_000),
					finished_at: sim.clock.iso(sim.clock.now() - 1_000),
				});
			}
			if (step % 7 === 0) trigger.restart();
			if (step % 3 === 0)
				sim.faults.inject({
					method: 'GET',
					path: '/v1/calls',
					fault: { status: 429, retryAfter: 0 },
				});

			if (step === 10) {
				// a burst that spans two pages; the second page fails (all three tries)
				for (let i = 0; i < 255; i++) place();
				const disarm = beforeNthRequest(sim, 'GET', '/v1/calls', 2, () =>
					sim.faults.inject({ method: 'GET', path: '/v1/calls', fault: { status: 500 }, times: 3 }),
				);
				await expect(trigger.poll()).rejects.toThrow();
				failedPoll = disarm();
			}
			if (step === 30) {
				// a burst that spans two pages; ten calls are placed between the first and the second page
				for (let i = 0; i < 255; i++) place();
				const disarm = beforeNthRequest(sim, 'GET', '/v1/calls', 2, () => {
					for (let i = 0; i < 10; i++) place();
				});
				collect(await trigger.poll());
				shiftedPoll = disarm();
				continue;
			}
			collect(await trigger.poll());
		}
		// let every call end and every analysis arrive, polling each minute
		for (let minute = 0; minute < 90; minute++) {
			await sim.clock.advance(MINUTE);
			collect(await trigger.poll());
		}

		expect(failedPoll).toBe(true);
		expect(shiftedPoll).toBe(true);
		expect(sim.org.calls.size).toBe(1_000);
		const expected = [...finishedIds(sim)].filter((id) => !finishedBefore.has(id));
		const ids = emitted.map((c) => c.id as string);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual(expected.sort());
		expect(sim.org.calls.size - finishedBefore.size).toBe(expected.length);

		for (const call of emitted) {
			const pickedUp = !!call.start_at;
			if (call.analysis_ready) {
				expect(call.call_analysis).toBeTruthy();
				expect((call.chat_history as unknown[]).length).toBeGreaterThan(0);
			} else if (pickedUp) {
				// emitted without its analysis only when it really came after the bound
				expect(plans.get(call.id as string)?.analysisDelayMs).toBe(LATE_ANALYSIS_MS);
				expect(call.analysis_note).toMatch(/had not arrived 5 minutes after/);
			} else {
				expect(call.analysis_note).toMatch(/nobody picked up/);
			}
		}
		// planned analysis within the bound was always waited for
		const readyWhenDue = emitted.filter(
			(c) =>
				c.start_at &&
				(plans.get(c.id as string)?.analysisDelayMs ?? 0) < ANALYSIS_WAIT_MINUTES * MINUTE,
		);
		expect(readyWhenDue.every((c) => c.analysis_ready === true)).toBe(true);
	}, 60_000);
});
