import { DateTime } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeTime } from '../../harness/fakeTime.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { campaignParameters, EVERY_DAY, onFakeTime } from '../helpers/campaign.cts';
import { HAND_READING, lawfulByHand } from '../helpers/lawfulByHand.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * Run Campaign under its default Calling Hours (Lawful for the Person), through n8n's engine on
 * fake time, with no zone column: every call the simulator logs is checked against the hours
 * written out by hand (test/helpers/lawfulByHand.cts), not against the node's table.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('Run Campaign: lawful calling hours by the person’s place', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	// any hour of any day in the user's window: the law alone narrows it
	const campaign = (extra: INodeParameters = {}) =>
		campaignParameters(sim, {
			callDays: EVERY_DAY,
			callFrom: '00:00',
			callUntil: '24:00',
			maxLiveCalls: 6,
			...extra,
		});
	const run = (parameters: INodeParameters, items: IDataObject[]) => {
		const { drive, start } = onFakeTime(time, sim);
		return drive(start(parameters, items), { maxMs: 8 * DAY });
	};
	const rangTo = (to: string): Call[] =>
		[...sim.org.calls.values()].filter((call) => call.phase !== 'canceled' && call.to === to);
	const local = (at: number, zone: string) => DateTime.fromMillis(at, { zone });

	it('FL, KY, TX, AL, CA and Ontario across a Sunday and an Alabama holiday: 0 calls outside each place’s hours, each item naming its rule', async () => {
		// Saturday 2027-01-16 17:00 in Chicago; Monday 2027-01-18 is Robert E. Lee / MLK Day in Alabama
		time.clock.setSystemTime(Date.parse('2027-01-16T23:00:00Z'));
		planCalls(sim).byDefault({ result: 'no_answer' });
		const places = Object.keys(HAND_READING);
		const people = places.map((place) => ({ to: HAND_READING[place].e164, name: place }));

		const { items, error } = await run(campaign({ redialAfterMinutes: 180, maxTries: 6 }), people);

		expect(error).toBeUndefined();
		const outside: string[] = [];
		for (const place of places) {
			const expected = HAND_READING[place];
			const calls = rangTo(expected.e164);
			expect(calls).toHaveLength(6);
			for (const call of calls)
				if (!lawfulByHand(expected, call.place_at))
					outside.push(`${place} ${local(call.place_at, expected.zone).toISO()}`);
		}
		expect(outside).toEqual([]);
		// the weekend was called through where the law allows it, and not where it does not
		const onSunday = (place: string) =>
			rangTo(HAND_READING[place].e164).filter(
				(call) => local(call.place_at, HAND_READING[place].zone).weekday === 7,
			).length;
		expect(onSunday('US-TX')).toBeGreaterThan(0);
		expect(onSunday('US-AL')).toBe(0);
		const onHoliday = rangTo(HAND_READING['US-AL'].e164).filter(
			(call) => local(call.place_at, 'America/Chicago').toISODate() === '2027-01-18',
		);
		expect(onHoliday).toEqual([]);

		expect(items.map((item) => item.json.campaign_status)).toEqual(places.map(() => 'called'));
		expect(items.map((item) => item.json.time_zone_source)).toEqual(places.map(() => 'area_code'));
		for (const [at, place] of places.entries())
			expect(items[at].json.calling_rule).toMatch(new RegExp(`^${place} .*, source .+`));
		expect(items[2].json.calling_rule).toMatch(/^US-TX Mon-Sat 09:00-21:00, Sun 12:00-21:00/);
	});

	it('a +1 list with no zone column: an area code on two zones is called only when both are in hours; an unassigned one is invalid', async () => {
		// Friday 2027-01-15 06:00 in New York
		time.clock.setSystemTime(Date.parse('2027-01-15T11:00:00Z'));
		planCalls(sim).byDefault({ result: 'no_answer' });
		const pensacola = { to: '+18505550123', name: 'Panhandle' }; // Florida: Eastern and Central
		const siouxFalls = { to: '+16055550123', name: 'South Dakota' }; // Central and Mountain
		const nowhere = { to: '+19995550123', name: 'Unassigned' };

		const { items, error } = await run(campaign({ redialAfterMinutes: 200, maxTries: 5 }), [
			pensacola,
			siouxFalls,
			nowhere,
		]);

		expect(error).toBeUndefined();
		// by hand: Florida 08:00-20:00 (Fla. Stat. § 501.616), South Dakota the federal 08:00-21:00
		const within = (at: number, zone: string, from: number, until: number) => {
			const clock = local(at, zone);
			const hour = clock.hour + clock.minute / 60;
			return hour >= from && hour < until;
		};
		const panhandle = rangTo(pensacola.to);
		const dakota = rangTo(siouxFalls.to);
		expect(panhandle).toHaveLength(5);
		expect(dakota).toHaveLength(5);
		for (const call of panhandle) {
			expect(within(call.place_at, 'America/New_York', 8, 20)).toBe(true);
			expect(within(call.place_at, 'America/Chicago', 8, 20)).toBe(true);
		}
		for (const call of dakota) {
			expect(within(call.place_at, 'America/Chicago', 8, 21)).toBe(true);
			expect(within(call.place_at, 'America/Denver', 8, 21)).toBe(true);
		}
		// the first calls waited for the later zone: 08:00 Central, 08:00 Mountain
		const first = (calls: Call[]) => Math.min(...calls.map((call) => call.place_at));
		expect(local(first(panhandle), 'America/Chicago').toFormat('HH:mm')).toBe('08:00');
		expect(local(first(dakota), 'America/Denver').toFormat('HH:mm')).toBe('08:00');

		expect(items[0].json).toMatchObject({
			time_zones: ['America/New_York', 'America/Chicago'],
			time_zone_source: 'area_code',
			calling_rule: expect.stringMatching(/^US-FL 08:00-20:00, source /),
		});
		expect(items[1].json.time_zones).toEqual(['America/Chicago', 'America/Denver']);
		expect(items[2].json).toMatchObject({
			campaign_status: 'invalid',
			reason: expect.stringMatching(/^To Number: area code 999 .* not an assigned/),
		});
		expect(rangTo(nowhere.to)).toEqual([]);
	});

	it('Only My Window calls at the hours of the window alone, and the items say the rule was not checked', async () => {
		// Friday 2027-01-15 02:00 in Chicago: outside every place's lawful hours
		time.clock.setSystemTime(Date.parse('2027-01-15T08:00:00Z'));
		const texan = { to: HAND_READING['US-TX'].e164, name: 'Night Owl' };

		const { items, error } = await run(campaign({ callingHours: 'window' }), [texan]);

		expect(error).toBeUndefined();
		const [call] = rangTo(texan.to);
		expect(call.place_at - Date.parse('2027-01-15T08:00:00Z')).toBeLessThan(HOUR);
		expect(items[0].json.calling_rule).toBe('not checked: Calling Hours is Only My Window');
	});
});
