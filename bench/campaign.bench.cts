import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import { callsByTheRules, peakLive } from '../harness/callLog.cts';
import { installFakeTime, nextDueAfterQuiet } from '../harness/fakeTime.cts';
import { planCalls, startSimulator, type Call } from '../simulator/index.cts';

/**
 * Call → Run Campaign at the size, through n8n's engine against the simulator, on the
 * simulator's clock (fake time): 1,000 people in 3 time zones, Max Live Calls 10, 30 % of calls
 * unanswered, 2 redials 60 minutes after, a 09:00–17:00 window on weekdays. Counted from the
 * simulator's call log:
 * - `campaign_calls_placed` against `campaign_calls_expected` (from each person's results: one
 *   call, plus one per unanswered call before the third);
 * - `campaign_calls_outside_window`, `campaign_calls_twice` (two calls of a person for one try),
 *   `campaign_peak_live` (queued, ringing or talking at once);
 * - `campaign_requests_per_person` (every request to the API) and `campaign_listing_requests`.
 * The worker held, as the engine runs it; worker-freeing figures come from a real n8n.
 */

const PEOPLE = 1_000;
const MAX_LIVE = 10;
const WINDOW = { days: [1, 2, 3, 4, 5], fromMinute: 9 * 60, untilMinute: 17 * 60 };
const ZONES = ['Europe/London', 'America/New_York', 'Asia/Tokyo'];

/** Person n: a London, New York or Tokyo number, the New York ones with their zone in a column. */
function person(n: number): IDataObject {
	const serial = String(100_000 + n).slice(1);
	if (n % 3 === 0) return { to: `+4420794${serial}`, name: `P${n}` };
	if (n % 3 === 1) return { to: `+1212555${serial.slice(1)}`, name: `P${n}`, zone: ZONES[1] };
	return { to: `+813123${serial}`, name: `P${n}` };
}

/** Whether a call started inside 09:00–17:00 of a weekday in the zone (read on its own, not with the node's code). */
function insideWindow(at: number, zone: string): boolean {
	const local = DateTime.fromMillis(at, { zone });
	const minute = local.hour * 60 + local.minute;
	return (
		WINDOW.days.includes(local.weekday) &&
		minute >= WINDOW.fromMinute &&
		minute < WINDOW.untilMinute
	);
}

/** Calls a person should have had, given the results they got: up to 3, while nobody answers. */

export async function run(): Promise<Record<string, number>> {
	const time = installFakeTime();
	// Monday 07:00 UTC: Tokyo's window is open, London's opens in two hours, New York's in seven
	time.clock.setSystemTime(Date.parse('2026-11-30T07:00:00Z'));
	const sim = await startSimulator();
	try {
		planCalls(sim).byShare({ shares: { no_answer: 0.3 }, talkMs: [30_000, 180_000], seed: 32 });
		const people = Array.from({ length: PEOPLE }, (_, n) => person(n));
		const startedAt = time.now();
		const { items, error } = await time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource: 'call',
					operation: 'runCampaign',
					agentId: { __rl: true, mode: 'id', value: [...sim.org.agents.values()][0].id },
					fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
					toNumber: '={{ $json.to }}',
					fullName: '={{ $json.name }}',
					personTimeZone: '={{ $json.zone ?? "" }}',
					maxLiveCalls: MAX_LIVE,
					callDays: WINDOW.days,
					callFrom: '09:00',
					callUntil: '17:00',
					redialOn: ['no_answer'],
					redialAfterMinutes: 60,
					maxTries: 3,
				},
				items: people,
			}),
			{
				onStep: () => sim.clock.runDue(),
				nextDueAt: nextDueAfterQuiet(sim),
				stepMs: 60_000,
				maxMs: 14 * 24 * 3_600_000,
			},
		);
		if (error) throw new Error(`the campaign failed: ${error.message}`);
		const rang = [...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
		const byPerson = new Map<string, Call[]>();
		for (const call of rang) byPerson.set(call.to!, [...(byPerson.get(call.to!) ?? []), call]);
		const zoneOf = (n: number) => ZONES[n % 3];
		let outside = 0;
		let expected = 0;
		let twice = 0;
		people.forEach((entry, n) => {
			const calls = (byPerson.get(String(entry.to)) ?? []).sort((a, b) => a.place_at - b.place_at);
			expected += callsByTheRules(calls, ['no_answer'], 3);
			outside += calls.filter((call) => !insideWindow(call.place_at, zoneOf(n))).length;
			const tries = calls.map((call) => call.metadata?.n8n_attempt);
			twice += tries.length - new Set(tries).size;
		});
		const called = items.filter((item) => item.json.campaign_status === 'called').length;
		if (called !== PEOPLE) throw new Error(`${called} of ${PEOPLE} people were called`);
		return {
			campaign_people: PEOPLE,
			campaign_calls_placed: rang.length,
			campaign_calls_expected: expected,
			campaign_calls_outside_window: outside,
			campaign_calls_twice: twice,
			campaign_peak_live: peakLive(rang),
			campaign_requests_per_person: Math.round((sim.requests.length / PEOPLE) * 100) / 100,
			campaign_listing_requests: sim.requestsTo('GET', '/v1/calls').length,
			campaign_canceled_claims: sim.org.calls.size - rang.length,
			campaign_simulated_hours: Math.round((time.now() - startedAt) / 360_000) / 10,
		};
	} finally {
		await sim.stop();
		time.uninstall();
	}
}
