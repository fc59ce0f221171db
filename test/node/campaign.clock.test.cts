import { DateTime } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import { campaignParameters, EVERY_DAY } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { nextOpening } from '../../nodes/VoiceAgentCrm/actions/call/campaign/window';

/**
 * Run Campaign across clock changes, and with inputs at and past their bounds, through n8n's
 * engine on fake time: schedules are instants, windows are read on the wall clock (a clock
 * change neither widens nor empties one), and every input is bounded and refused on its own item.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Whether a call started inside From–Until on the wall clock of the zone (read here, not with the node's code). */
function onWallClock(at: number, zone: string, from: string, until: string): boolean {
	const local = DateTime.fromMillis(at, { zone }).toFormat('HH:mm:ss');
	return local >= `${from}:00` && local < `${until === '24:00' ? '24:00' : until}:00`;
}

describe('Run Campaign: clock changes and bounded inputs', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	// the night windows tested here are outside lawful hours in New York: the window alone applies
	const campaign = (extra: INodeParameters = {}) =>
		campaignParameters(sim, {
			maxLiveCalls: 2,
			callDays: EVERY_DAY,
			callingHours: 'window',
			...extra,
		});
	const run = (parameters: INodeParameters, items: IDataObject[], maxMs = 4 * DAY) =>
		time.runUntilSettled(
			runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters, items }),
			{
				onStep: () => sim.clock.runDue(),
				nextDueAt: nextDueAfterQuiet(sim),
				stepMs: 60_000,
				maxMs,
			},
		);
	const rang = (): Call[] =>
		[...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
	const listings = () => sim.requestsTo('GET', '/v1/calls').length;
	const newYorker = (n: number) => ({
		to: `+1212555${String(1000 + n)}`,
		name: `NY${n}`,
		zone: 'America/New_York',
	});
	const londoner = (n: number) => ({
		to: `+4420794603${String(n).padStart(2, '0')}`,
		name: `L${n}`,
	});

	describe.each([
		{
			place: 'New York',
			night: '2027-11-07, the clock falls back at 02:00',
			startAt: '2027-11-07T05:30:00Z',
			zone: 'America/New_York',
			person: newYorker,
		},
		{
			place: 'London',
			night: '2027-10-31, the clock falls back at 02:00',
			startAt: '2027-10-31T00:30:00Z',
			zone: 'Europe/London',
			person: londoner,
		},
	])('$place, $night', ({ startAt, zone, person }) => {
		beforeEach(() => time.clock.setSystemTime(Date.parse(startAt)));

		it.each([
			['00:00', '24:00'],
			['01:00', '02:30'],
		])(
			'a %s–%s window: calls through the repeated hour, none refused, each at the instant set and inside the window on the wall clock',
			async (from, until) => {
				planCalls(sim).byDefault({ talkMs: 10 * MINUTE });
				// 01:30 on the first pass: 12 calls of 10 minutes, 2 at a time, run through both passes
				const people = Array.from({ length: 12 }, (_, n) => person(n));
				const { items, error } = await run(campaign({ callFrom: from, callUntil: until }), people);
				expect(error).toBeUndefined();
				expect(items.filter((item) => item.json.campaign_status === 'refused')).toEqual([]);
				expect(items.map((item) => item.json.campaign_status)).toEqual(Array(12).fill('called'));
				expect(rang()).toHaveLength(12);
				const outside = rang().filter((call) => !onWallClock(call.place_at, zone, from, until));
				expect(outside).toEqual([]);
				const late = rang().filter(
					(call) => call.place_at !== Date.parse(String(call.metadata?.n8n_call_at)),
				);
				expect(late).toEqual([]);
				// the repeated hour was used: calls started in it on both of its passes
				const repeated = rang().filter(
					(call) => DateTime.fromMillis(call.place_at, { zone }).hour === 1,
				);
				expect(
					new Set(repeated.map((call) => DateTime.fromMillis(call.place_at, { zone }).offset)).size,
				).toBe(2);
			},
		);
	});

	describe.each([
		{
			place: 'New York',
			night: '2027-03-14',
			startAt: '2027-03-14T06:00:00Z',
			zone: 'America/New_York',
			person: newYorker,
		},
		{
			place: 'London',
			night: '2027-03-28',
			startAt: '2027-03-28T00:00:00Z',
			zone: 'Europe/London',
			person: londoner,
		},
	])('$place, $night, the clock springs forward', ({ startAt, zone, person }) => {
		beforeEach(() => time.clock.setSystemTime(Date.parse(startAt)));

		it('a 01:30–02:30 window: no call outside it on the wall clock, the skipped hour adds none', async () => {
			planCalls(sim).byDefault({ talkMs: 10 * MINUTE });
			const people = Array.from({ length: 8 }, (_, n) => person(n));
			const { items, error } = await run(
				campaign({ callFrom: '01:30', callUntil: '02:30' }),
				people,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.campaign_status)).toEqual(Array(8).fill('called'));
			const outside = rang().filter((call) => !onWallClock(call.place_at, zone, '01:30', '02:30'));
			expect(outside).toEqual([]);
		});
	});

	describe('a window and a clock change, on their own', () => {
		const window = (from: number, until: number) => ({
			days: EVERY_DAY,
			fromMinute: from,
			untilMinute: until,
		});

		it('a window that starts in the skipped hour opens at the change, the first valid instant', () => {
			// London, 2027-03-28: 01:00 GMT is 02:00 BST
			const opens = nextOpening(
				Date.parse('2027-03-28T00:30:00Z'),
				'Europe/London',
				window(90, 180),
			);
			expect(new Date(opens).toISOString()).toBe('2027-03-28T01:00:00.000Z');
		});

		it('a window wholly inside the skipped hour has no instant that day: it opens the next day, never outside', () => {
			const opens = nextOpening(
				Date.parse('2027-03-14T06:30:00Z'),
				'America/New_York',
				window(120, 150),
			);
			expect(DateTime.fromMillis(opens, { zone: 'America/New_York' }).toISO()).toBe(
				'2027-03-15T02:00:00.000-04:00',
			);
		});

		it('the repeated hour opens twice: after its first pass, the second', () => {
			// New York, 2027-11-07: 01:40 EDT, after a 01:00–01:30 window's first pass
			const opens = nextOpening(
				Date.parse('2027-11-07T05:40:00Z'),
				'America/New_York',
				window(60, 90),
			);
			expect(new Date(opens).toISOString()).toBe('2027-11-07T06:00:00.000Z');
		});
	});

	describe('on a Monday at 10:00 in London', () => {
		beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

		it('a redial 40,000 minutes after, within Remember Calls For: made on time, with a few looks while it waits', async () => {
			planCalls(sim).next({ result: 'no_answer' }).next({ result: 'answered' });
			const { items, error } = await run(
				campaign({
					callFrom: '00:00',
					callUntil: '24:00',
					redialAfterMinutes: 40_000,
					maxTries: 2,
					campaignOptions: { rememberDays: 30 },
				}),
				[londoner(1)],
				31 * DAY,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => [item.json.campaign_status, item.json.tries])).toEqual([
				['called', 2],
			]);
			const [first, redial] = rang().sort((a, b) => a.place_at - b.place_at);
			const interval = redial.place_at - Date.parse(first.finished_at!);
			expect(interval).toBeGreaterThanOrEqual(40_000 * MINUTE);
			expect(interval).toBeLessThan(40_000 * MINUTE + 1_000);
			// 27.8 days asleep: split under Node's timer limit, not a look every millisecond
			expect(listings()).toBeLessThan(40);
			// the halt read asleep: a minute apart in the first hour, then further apart (220 reads, not 40,000)
			expect(sim.requestsTo('GET', '/v1/tags').length).toBeLessThan(250);
		});

		it.each([
			[40_000, {}, 'at most 10080 minutes (7 days)'],
			[1e12, { rememberDays: 30 }, 'at most 43200 minutes (30 days)'],
		])(
			'Redial After %d minutes past Remember Calls For: refused before any request, the field named',
			async (minutes, options, bound) => {
				const { error } = await run(
					campaign({ redialAfterMinutes: minutes, campaignOptions: options }),
					[londoner(1), londoner(2)],
				);
				expect(error?.message).toContain(
					`Redial After (Minutes): must be within Options → Remember Calls For (Days): ${bound}`,
				);
				expect(sim.requests).toHaveLength(0);
			},
		);

		it("one person's Call On that is not days of the week fails that row alone, with the field named; the others are called", async () => {
			const people = [londoner(1), { ...londoner(2), days: ['Mon', 'Tue'] }, londoner(3)];
			const { items, error } = await run(
				campaign({ callDays: '={{ $json.days ?? [1, 2, 3, 4, 5, 6, 7] }}' }),
				people,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.campaign_status)).toEqual([
				'called',
				'invalid',
				'called',
			]);
			expect(items[1].json.reason).toBe(
				'Call On: must be a list of days as numbers from 1 (Monday) to 7 (Sunday), like [1, 2, 3, 4, 5] (got ["Mon","Tue"])',
			);
			expect(
				rang()
					.map((call) => call.to)
					.sort(),
			).toEqual([londoner(1).to, londoner(3).to]);
		});

		it("a refused placement's item carries the service's own message", async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/calls/single-phone-call',
				fault: {
					status: 400,
					body: { statusCode: 400, message: 'to_number is on the do-not-call list' },
				},
			});
			const { items, error } = await run(campaign(), [londoner(1), londoner(2)]);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.campaign_status)).toEqual(['refused', 'called']);
			expect(items[0].json.reason).toBe(
				'The service refused the call: to_number is on the do-not-call list',
			);
		});
	});
});
