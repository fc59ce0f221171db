import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import { installFakeTime } from '../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../simulator/index.cts';
import { DEFAULT_TIMINGS, planCalls } from '../simulator/index.cts';

const MINUTE = 60_000;
const TALK_MS = 10 * MINUTE;
/** Calls awaited together in one execution, for the wait's busiest minute. */
const CALLS_AWAITED_TOGETHER = 100;

/**
 * Requests of Place AI Call with "Wait for Outcome: until its analysis is ready" for one call of
 * 10 minutes, through the engine against the simulator, in fake time:
 * - `call_wait_status_polls`: status reads from placement to `finished` (goal ≤ 122 = 610 s / 5 s + 0);
 * - `call_wait_record_reads`: full-record reads from `finished` until the analysis is there;
 * - `call_wait_overshoot_seconds`: how long after the analysis arrived the node returned it;
 * - `call_wait_busiest_minute_requests`: with 100 calls awaited together, the most status and
 *   record reads of the wait in any 60 s (goal ≤ 60, half the organization's 120 a minute).
 */
export async function run(): Promise<Record<string, number>> {
	return {
		...(await oneCall()),
		call_wait_busiest_minute_requests: await busiestMinuteOfManyCalls(),
	};
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const STATUS_READ = /^\/v1\/calls\/[0-9a-f-]{36}\/status$/;
const RECORD_READ = /^\/v1\/calls\/[0-9a-f-]{36}$/;

/** Place AI Call with "Wait for Outcome: until its analysis is ready", one call per input item. */
function placeAndAwaitAnalysis(sim: Simulator, toNumber: string, items?: IDataObject[]) {
	return runNode({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: {
			resource: 'call',
			operation: 'placePhoneCall',
			agentId: byId([...sim.org.agents.values()][0].id),
			fromNumber: byId('+14155550100'),
			toNumber,
			fullName: 'Jane Doe',
			waitFor: 'analysis',
		},
		items,
	});
}

async function oneCall(): Promise<Record<string, number>> {
	const time = installFakeTime();
	const sim = await startSimulator();
	try {
		planCalls(sim).next({ talkMs: TALK_MS });
		const startedAt = time.now();
		const { items, error } = await time.runUntilSettled(placeAndAwaitAnalysis(sim, '+14155550199'));
		if (error || !items[0]?.json.call_analysis)
			throw new Error(`the wait did not return the analysis: ${error?.message ?? 'no analysis'}`);
		const analysisAt =
			DEFAULT_TIMINGS.queueMs + DEFAULT_TIMINGS.ringMs + TALK_MS + DEFAULT_TIMINGS.analysisDelayMs;
		return {
			call_wait_status_polls: sim.requestsTo('GET', STATUS_READ).length,
			call_wait_record_reads: sim.requestsTo('GET', RECORD_READ).length,
			call_wait_overshoot_seconds: Math.round((time.now() - startedAt - analysisAt) / 100) / 10,
		};
	} finally {
		await sim.stop();
		time.uninstall();
	}
}

/** 100 calls of 1 to 10 minutes placed in one execution and awaited together until their analysis. */
async function busiestMinuteOfManyCalls(): Promise<number> {
	const time = installFakeTime();
	const sim = await startSimulator();
	try {
		const plans = planCalls(sim);
		for (let i = 0; i < CALLS_AWAITED_TOGETHER; i++)
			plans.next({ talkMs: (1 + (i % 10)) * MINUTE });
		const { items, error } = await time.runUntilSettled(
			placeAndAwaitAnalysis(
				sim,
				'={{ $json.to }}',
				Array.from({ length: CALLS_AWAITED_TOGETHER }, (_, i) => ({
					to: `+1415555${String(1000 + i)}`,
				})),
			),
		);
		const analysed = items.filter((item) => item.json.call_analysis).length;
		if (error || analysed !== CALLS_AWAITED_TOGETHER)
			throw new Error(`the wait returned ${analysed} analyses: ${error?.message ?? ''}`);
		const reads = [...sim.requestsTo('GET', STATUS_READ), ...sim.requestsTo('GET', RECORD_READ)]
			.map((r) => r.at)
			.sort((a, b) => a - b);
		return busiestWindow(reads, MINUTE);
	} finally {
		await sim.stop();
		time.uninstall();
	}
}

/** The most timestamps within any window of `windowMs` (sorted input). */
function busiestWindow(sorted: number[], windowMs: number): number {
	let most = 0;
	for (let first = 0, last = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}
