import { DateTime } from 'luxon';

import {
	callingRuleText,
	isLawfulAt,
	nextLawfulOpening,
	placeOfNumber,
	type KnownPlace,
} from '../../nodes/VoiceAgentCrm/shared/callingRules/lawful';
import { HAND_READING as EXPECTED, lawfulByHand } from '../helpers/lawfulByHand.cts';
import { openingFor } from '../../nodes/VoiceAgentCrm/actions/call/campaign/opening';
import type { CallingWindow } from '../../nodes/VoiceAgentCrm/actions/call/campaign/window';

/**
 * isLawfulAt and nextLawfulOpening against an independent reading: the hours of FL, KY, TX, AL,
 * CA and Ontario written out here by hand (not read from the table), checked on the wall clock of
 * each place's zone every quarter hour over a long weekend that holds a Sunday and an Alabama
 * state holiday. Then the cases the sweep cannot show: a code on two zones, clock changes, dated
 * rows, the user's window, holiday lists running out.
 */

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();
const iso = (ms: number | undefined, zone: string) =>
	ms === undefined
		? undefined
		: DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true });

function known(e164: string, given = {}): KnownPlace {
	const place = placeOfNumber(e164, given);
	if (!place.known) throw new Error(place.reason);
	return place;
}

describe('Lawful calling hours against a hand reading', () => {
	// Friday 2027-01-15 00:00 UTC to Wednesday 2027-01-20 12:00 UTC: a Saturday, a Sunday and
	// Alabama's MLK / Robert E. Lee Day
	const sweepStart = Date.UTC(2027, 0, 15);
	const sweepEnd = Date.UTC(2027, 0, 20, 12);
	const instants: number[] = [];
	for (let t = sweepStart; t <= sweepEnd; t += QUARTER) instants.push(t);

	it.each(Object.keys(EXPECTED))('%s: isLawfulAt agrees at every quarter hour', (name) => {
		const expected = EXPECTED[name];
		const place = known(expected.e164);
		expect(place.places).toEqual([name]);
		const disagreements = instants
			.filter((t) => isLawfulAt(place, t) !== lawfulByHand(expected, t))
			.map((t) => iso(t, expected.zone));
		expect(disagreements).toEqual([]);
		expect(instants.filter((t) => lawfulByHand(expected, t)).length).toBeGreaterThan(0);
	});

	it.each(Object.keys(EXPECTED))(
		'%s: nextLawfulOpening is the first lawful quarter hour of the hand reading',
		(name) => {
			const expected = EXPECTED[name];
			const place = known(expected.e164);
			// every opening of these rules is on a quarter hour: the hand's first lawful quarter
			// hour at or after each instant is the opening
			const lawful = instants.map((t) => lawfulByHand(expected, t));
			const firstLawful: (number | undefined)[] = [];
			let next: number | undefined;
			for (let i = instants.length - 1; i >= 0; i--) {
				if (lawful[i]) next = instants[i];
				firstLawful[i] = next;
			}
			const disagreements = instants
				.map((t, i) => ({ t, expected: firstLawful[i] }))
				.filter(
					({ t, expected: opening }) =>
						opening !== undefined && nextLawfulOpening(place, t) !== opening,
				)
				.map(({ t }) => iso(t, expected.zone));
			expect(disagreements).toEqual([]);
		},
	);

	it('names the rule that applied, with its source', () => {
		const text = (e164: string) => callingRuleText(known(e164), sweepStart);
		expect(text(EXPECTED['US-FL'].e164)).toBe(
			'US-FL 08:00-20:00, source Fla. Stat. § 501.616(6)(a) (Florida Telephone Solicitation Act, 2021 amendment)',
		);
		expect(text(EXPECTED['US-AL'].e164)).toMatch(
			/^US-AL Mon-Sat 08:00-20:00, Sun closed, state holidays closed, source Ala\. Code/,
		);
		expect(text(EXPECTED['CA-ON'].e164)).toMatch(
			/^CA-ON Mon-Fri 09:00-21:30, Sat-Sun 10:00-18:00, source CRTC/,
		);
		// Pennsylvania's row is the one in force on the person's date
		expect(text('+12155550100')).toMatch(
			/^US-PA Mon-Sat 08:00-21:00, Sun closed, source 73 P\.S\. § 2241/,
		);
		expect(
			callingRuleText(known('+12155550100'), at('2026-10-11T10:00', 'America/New_York')),
		).toMatch(/^US-PA 08:00-21:00, source 73 P\.S\. § 2245/);
		expect(text(EXPECTED['US-TX'].e164)).toMatch(
			/^US-TX Mon-Sat 09:00-21:00, Sun 12:00-21:00, source/,
		);
		expect(text('+14015550100')).toMatch(
			/^US-RI Mon-Fri 09:00-18:00, Sat 10:00-17:00, Sun closed, legal holidays closed, source/,
		);
		const london = known('+442079460101', { zone: 'Europe/London', zoneSource: 'number' });
		expect(callingRuleText(london, sweepStart)).toMatch(
			/^GB no hours in law, source Privacy and Electronic Communications Regulations/,
		);
		expect(text('+18765550100')).toBe("no rule known for JM (the user's window applies)");
		expect(callingRuleText(known('+4930123456', { zone: 'Europe/Berlin' }), sweepStart)).toBe(
			"no rule known (the user's window applies)",
		);
	});
});

describe('Lawful calling hours: zones, clocks, dates and windows', () => {
	it('opens an area code on two zones only when both are in hours (850: Eastern and Central Florida)', () => {
		const place = known('+18505550123');
		expect(place.zones).toEqual(['America/New_York', 'America/Chicago']);
		// 08:30 Eastern is 07:30 Central: closed in Pensacola
		const morning = at('2027-01-15T08:30', 'America/New_York');
		expect(isLawfulAt(place, morning)).toBe(false);
		expect(iso(nextLawfulOpening(place, morning), 'America/New_York')).toBe(
			'2027-01-15T09:00:00-05:00',
		);
		// 19:30 Central is 20:30 Eastern: closed in Tallahassee
		expect(isLawfulAt(place, at('2027-01-15T19:59', 'America/New_York'))).toBe(true);
		expect(isLawfulAt(place, at('2027-01-15T19:30', 'America/Chicago'))).toBe(false);
		expect(
			iso(nextLawfulOpening(place, at('2027-01-15T19:30', 'America/Chicago')), 'America/New_York'),
		).toBe('2027-01-16T09:00:00-05:00');
	});

	it('opens 605 (South Dakota, Central and Mountain) at 08:00 Mountain', () => {
		const place = known('+16055550123');
		expect(
			iso(nextLawfulOpening(place, at('2027-01-15T08:00', 'America/Chicago')), 'America/Denver'),
		).toBe('2027-01-15T08:00:00-07:00');
	});

	it('opens a window that starts inside a spring-forward gap at the first valid instant', () => {
		// no rule for the place: the user's window alone, 02:30-05:00, on 2027-03-14 in New York
		// (02:00-03:00 does not exist that night)
		const place = known('+4930123456', { zone: 'America/New_York' });
		const window: CallingWindow = {
			days: [1, 2, 3, 4, 5, 6, 7],
			fromMinute: 150,
			untilMinute: 300,
		};
		const opening = openingFor(
			{ place, window, lawful: true },
			at('2027-03-14T00:00', 'America/New_York'),
		);
		expect(new Date(opening!).toISOString()).toBe('2027-03-14T07:00:00.000Z'); // 03:00 EDT
		expect(openingFor({ place, window, lawful: true }, opening! - MINUTE)).toBe(opening);
	});

	it('keeps wall-clock hours across the autumn change (Texas, 2027-11-07)', () => {
		const place = known('+12145550123');
		const saturdayNight = at('2027-11-06T21:30', 'America/Chicago');
		expect(iso(nextLawfulOpening(place, saturdayNight), 'America/Chicago')).toBe(
			'2027-11-07T12:00:00-06:00',
		);
	});

	it("applies Pennsylvania's Sunday ban from 2026-10-18 and not before", () => {
		const place = known('+12155550123');
		expect(isLawfulAt(place, at('2026-10-11T10:00', 'America/New_York'))).toBe(true);
		expect(isLawfulAt(place, at('2026-10-18T10:00', 'America/New_York'))).toBe(false);
		expect(
			iso(nextLawfulOpening(place, at('2026-10-18T10:00', 'America/New_York')), 'America/New_York'),
		).toBe('2026-10-19T08:00:00-04:00');
	});

	it("intersects the user's window with the rule", () => {
		const place = known('+13055550123'); // Florida, 08:00-20:00
		const window: CallingWindow = {
			days: [1, 2, 3, 4, 5],
			fromMinute: 7 * 60,
			untilMinute: 17 * 60,
		};
		const opening = (localTime: string, lawful = true) =>
			iso(
				openingFor({ place, window, lawful }, at(localTime, 'America/New_York')),
				'America/New_York',
			);
		expect(opening('2027-01-15T07:30')).toBe('2027-01-15T08:00:00-05:00');
		expect(opening('2027-01-15T17:00')).toBe('2027-01-18T08:00:00-05:00');
		// Only My Window: the window alone
		expect(opening('2027-01-15T07:30', false)).toBe('2027-01-15T07:30:00-05:00');
		expect(opening('2027-01-15T17:00', false)).toBe('2027-01-18T07:00:00-05:00');
	});

	it('finds no opening when the window and the rule never meet, nor past the end of the holiday lists', () => {
		const sundaysOnly: CallingWindow = { days: [7], fromMinute: 9 * 60, untilMinute: 17 * 60 };
		expect(
			openingFor(
				{ place: known('+12055550123'), window: sundaysOnly, lawful: true },
				at('2027-01-15T09:00', 'America/Chicago'),
			),
		).toBeUndefined();
		// Alabama's holidays are listed through 2028-12-31: the days after are not risked
		expect(
			nextLawfulOpening(known('+12055550123'), at('2029-01-02T09:00', 'America/Chicago')),
		).toBeUndefined();
	});

	it('calls a Yukon, Northwest Territories or Nunavut number (867) only when all five zones are in hours', () => {
		const place = known('+18675550123');
		expect(place.places).toEqual(['CA-YT', 'CA-NT', 'CA-NU']);
		// weekdays 09:00-21:30 in Iqaluit (UTC-5) and Whitehorse (UTC-7): 11:00 to 21:30 Eastern
		const opening = nextLawfulOpening(place, at('2027-01-15T06:00', 'America/Iqaluit'));
		expect(iso(opening, 'America/Iqaluit')).toBe('2027-01-15T11:00:00-05:00');
	});
});
