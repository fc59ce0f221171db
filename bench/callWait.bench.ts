import { runNode } from '../harness/engine';
import { installFakeTime } from '../harness/fakeTime';
import { startSimulator } from '../simulator';
import { DEFAULT_TIMINGS, planCalls } from '../simulator';

const MINUTE = 60_000;
const TALK_MS = 10 * MINUTE;

/**
 * Requests of Place AI Call with "Wait for Outcome: until its analysis is ready" for one call of
 * 10 minutes, through the engine against the simulator, in fake time:
 * - `call_wait_status_polls`: status reads from placement to `finished` (goal ≤ 122 = 610 s / 5 s + 0);
 * - `call_wait_record_reads`: full-record reads from `finished` until the analysis is there;
 * - `call_wait_overshoot_seconds`: how long after the analysis arrived the node returned it.
 */
export async function run(): Promise<Record<string, number>> {
	const time = installFakeTime();
	const sim = await startSimulator();
	try {
		planCalls(sim).next({ talkMs: TALK_MS });
		const agent = [...sim.org.agents.values()][0];
		const startedAt = time.now();
		const { items, error } = await time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource: 'call',
					operation: 'placePhoneCall',
					agentId: { __rl: true, mode: 'id', value: agent.id },
					fromNumber: { __rl: true, mode: 'id', value: '+14155550100' },
					toNumber: '+14155550199',
					fullName: 'Jane Doe',
					waitFor: 'analysis',
				},
			}),
		);
		if (error || !items[0]?.json.call_analysis) throw new Error(`the wait did not return the analysis: ${error?.message ?? 'no analysis'}`);
		const analysisAt = DEFAULT_TIMINGS.queueMs + DEFAULT_TIMINGS.ringMs + TALK_MS + DEFAULT_TIMINGS.analysisDelayMs;
		return {
			call_wait_status_polls: sim.requestsTo('GET', /^\/v1\/calls\/[^/]+\/status$/).length,
			call_wait_record_reads: sim.requestsTo('GET', /^\/v1\/calls\/[0-9a-f-]{36}$/).length,
			call_wait_overshoot_seconds: Math.round((time.now() - startedAt - analysisAt) / 100) / 10,
		};
	} finally {
		await sim.stop();
		time.uninstall();
	}
}
