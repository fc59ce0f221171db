import { DateTime, IANAZone } from 'luxon';

import { HOLIDAYS_KNOWN_THROUGH } from '../../nodes/VoiceAgentCrm/shared/callingRules/holidays';
import { placeOfNumber } from '../../nodes/VoiceAgentCrm/shared/callingRules/lawful';
import { NANP_AREA_CODES } from '../../nodes/VoiceAgentCrm/shared/callingRules/nanp';
import {
	CALLING_RULES,
	type CallingRule,
} from '../../nodes/VoiceAgentCrm/shared/callingRules/rules';

/**
 * The calling-rules tables (docs/calling-rules.md): every row carries its source and as-of date,
 * its hours read as hours, the US rows stay within the federal 08:00-21:00, the holiday lists
 * cover the two years ahead, and the NANP table gives every assigned area code a place and valid
 * zones. Read here without the module's functions, so a table a function misreads still fails.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HOURS = /^(closed|\d{2}:\d{2}-\d{2}:\d{2}(, \d{2}:\d{2}-\d{2}:\d{2})*)$/;

/** The rows lacking a source or an as-of date, by place (what the first test asserts is empty). */
function rowsLackingSources(rows: readonly CallingRule[]): string[] {
	return rows
		.filter((row) => !row.source?.trim() || !ISO_DATE.test(row.asOf ?? ''))
		.map((row) => row.place);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const spans = (hours: string) =>
	hours === 'closed'
		? []
		: hours.split(', ').map((span) => span.split('-').map(minutes) as [number, number]);

describe('The calling rules table', () => {
	it('has a source and an as-of date on every row, and the check catches a row without them', () => {
		expect(rowsLackingSources(CALLING_RULES)).toEqual([]);
		const planted = [
			{ ...CALLING_RULES[0], source: '' },
			{ ...CALLING_RULES[1], asOf: '' },
		];
		expect(rowsLackingSources(planted)).toEqual([CALLING_RULES[0].place, CALLING_RULES[1].place]);
	});

	it('writes every day as hours or closed, each span opening before it closes', () => {
		for (const row of CALLING_RULES)
			for (const hours of [
				row.weekdays,
				row.saturday,
				row.sunday,
				row.holidays?.hours ?? 'closed',
			]) {
				expect({ place: row.place, hours, ok: HOURS.test(hours) }).toEqual({
					place: row.place,
					hours,
					ok: true,
				});
				for (const [from, until] of spans(hours)) expect(from).toBeLessThan(until);
			}
	});

	it('keeps every US row within the federal 08:00-21:00', () => {
		const us = CALLING_RULES.filter((row) => row.place.startsWith('US-'));
		expect(us.length).toBeGreaterThanOrEqual(56); // 50 states, DC, 5 territories
		for (const row of us)
			for (const hours of [row.weekdays, row.saturday, row.sunday])
				for (const [from, until] of spans(hours)) {
					expect(from).toBeGreaterThanOrEqual(8 * 60);
					expect(until).toBeLessThanOrEqual(21 * 60);
				}
	});

	it('has one row for every place and date: dated rows of a place adjoin and do not overlap', () => {
		const byPlace = new Map<string, CallingRule[]>();
		for (const row of CALLING_RULES)
			byPlace.set(row.place, [...(byPlace.get(row.place) ?? []), row]);
		for (const [place, rows] of byPlace) {
			const sorted = [...rows].sort((a, b) => (a.from ?? '').localeCompare(b.from ?? ''));
			expect({ place, first: sorted[0].from, last: sorted.at(-1)!.until }).toEqual({
				place,
				first: undefined,
				last: undefined,
			});
			for (let i = 1; i < sorted.length; i++) expect(sorted[i].from).toBe(sorted[i - 1].until);
		}
		// Pennsylvania: Sundays banned from 2026-10-18 (issue 41)
		const pa = byPlace.get('US-PA')!;
		expect(pa.map((row) => [row.until ?? row.from, row.sunday])).toEqual([
			['2026-10-18', '08:00-21:00'],
			['2026-10-18', 'closed'],
		]);
	});

	it('lists holidays from 2026-11 through 2028-12, sorted, on the dates the statutes give', () => {
		expect(HOLIDAYS_KNOWN_THROUGH >= '2028-12-31').toBe(true);
		for (const row of CALLING_RULES.filter((r) => r.holidays)) {
			const dates = row.holidays!.dates;
			expect([...dates].sort()).toEqual([...dates]);
			expect(new Set(dates).size).toBe(dates.length);
			for (const date of dates) {
				expect(DateTime.fromISO(date).isValid).toBe(true);
				expect(date >= '2026-11-01' && date <= row.holidays!.knownThrough).toBe(true);
			}
			expect(dates.some((date) => date.startsWith('2028-12'))).toBe(true);
		}
		const datesOf = (place: string) =>
			CALLING_RULES.find((r) => r.place === place)!.holidays!.dates;
		// hand-read from a calendar: Thanksgiving (4th Thursday of November), MLK Day (3rd Monday of
		// January), Rhode Island's Victory Day (2nd Monday of August), France's Ascension (Easter + 39)
		expect(datesOf('US-AL')).toEqual(
			expect.arrayContaining(['2026-11-26', '2027-11-25', '2028-11-23', '2027-01-18']),
		);
		expect(datesOf('US-LA')).toEqual(
			expect.arrayContaining(['2027-02-09', '2028-02-29', '2027-03-26']),
		);
		expect(datesOf('US-RI')).toEqual(expect.arrayContaining(['2027-08-09', '2028-08-14']));
		expect(datesOf('FR')).toEqual(
			expect.arrayContaining(['2027-05-06', '2028-05-25', '2027-07-14']),
		);
		expect(datesOf('AU')).toEqual(
			expect.arrayContaining(['2027-04-25', '2028-01-26', '2027-12-27']),
		);
	});
});

describe('The NANP area code table', () => {
	const PLACE = /^(US-[A-Z]{2}|CA-[A-Z]{2}|[A-Z]{2})$/;

	it('gives every code a place and at least one valid IANA zone', () => {
		expect(NANP_AREA_CODES.size).toBeGreaterThan(400);
		for (const [code, entry] of NANP_AREA_CODES) {
			expect(code).toMatch(/^[2-9]\d\d$/);
			expect(entry.places.length).toBeGreaterThan(0);
			for (const place of entry.places) expect(place).toMatch(PLACE);
			expect(entry.zones.length).toBeGreaterThan(0);
			for (const zone of entry.zones)
				expect({ code, zone, valid: IANAZone.isValidZone(zone) }).toEqual({
					code,
					zone,
					valid: true,
				});
		}
	});

	it('covers every state, DC, the territories and every province and territory of Canada', () => {
		const places = new Set([...NANP_AREA_CODES.values()].flatMap((entry) => entry.places));
		const states =
			'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU MP AS';
		const provinces = 'AB BC MB NB NL NS NT NU ON PE QC SK YT';
		for (const state of states.split(' ')) expect(places).toContain(`US-${state}`);
		for (const province of provinces.split(' ')) expect(places).toContain(`CA-${province}`);
		// every US and Canadian place of the table has a row in the rules
		for (const place of places)
			if (/^(US|CA)-/.test(place))
				expect(CALLING_RULES.some((row) => row.place === place)).toBe(true);
	});

	it.each([
		['208', ['US-ID'], ['America/Boise', 'America/Los_Angeles']],
		['850', ['US-FL'], ['America/New_York', 'America/Chicago']],
		['270', ['US-KY'], ['America/Kentucky/Louisville', 'America/Chicago']],
		['605', ['US-SD'], ['America/Chicago', 'America/Denver']],
		['915', ['US-TX'], ['America/Denver']],
		['214', ['US-TX'], ['America/Chicago']],
		['305', ['US-FL'], ['America/New_York']],
		['416', ['CA-ON'], ['America/Toronto']],
		['902', ['CA-NS', 'CA-PE'], ['America/Halifax']],
		['876', ['JM'], ['America/Jamaica']],
		['787', ['US-PR'], ['America/Puerto_Rico']],
	])('spot check: %s is %j on %j', (code, places, zones) => {
		const entry = NANP_AREA_CODES.get(code)!;
		expect(entry.places).toEqual(places);
		expect([...entry.zones].sort()).toEqual([...zones].sort());
	});

	it.each(['800', '888', '900', '555', '999', '211'])(
		'answers unknown for %s, which names no place',
		(code) => {
			expect(NANP_AREA_CODES.has(code)).toBe(false);
			const place = placeOfNumber(`+1${code}5550123`);
			expect(place).toEqual({
				known: false,
				e164: `+1${code}5550123`,
				reason: expect.stringContaining(`area code ${code}`),
				refused: true,
			});
		},
	);
});

describe('The other numbering plans', () => {
	it.each([
		['+61212345678', ['AU'], ['Australia/Sydney', 'Australia/Lord_Howe']],
		[
			'+61412345678',
			['AU'],
			expect.arrayContaining(['Australia/Perth', 'Australia/Sydney', 'Australia/Darwin']),
		],
		['+61812345678', ['AU'], expect.arrayContaining(['Australia/Perth', 'Australia/Adelaide'])],
		['+5511912345678', ['BR-SP'], ['America/Sao_Paulo']],
		['+5597912345678', ['BR-AM'], ['America/Manaus', 'America/Eirunepe']],
	])('%s is in %j, zones %j', (e164, places, zones) => {
		expect(placeOfNumber(e164)).toEqual({
			known: true,
			e164,
			places,
			zones,
			timeZoneSource: 'numbering_plan',
		});
	});

	it.each(['+74951234567', '+79161234567', '+525512345678'])(
		'%s: the zone is not known from the number, and the reason says why',
		(e164) => {
			const place = placeOfNumber(e164);
			expect(place.known).toBe(false);
			if (!place.known) expect(place.reason).toMatch(/do not tell the zone.*give the person/);
			// the item's zone serves instead
			expect(placeOfNumber(e164, { zone: 'Europe/Moscow' })).toMatchObject({
				known: true,
				zones: ['Europe/Moscow'],
				timeZoneSource: 'field',
			});
		},
	);

	it("takes the item's zone over the area code, keeps the area code's place, and refuses an invalid zone", () => {
		expect(placeOfNumber('+18505550123', { zone: 'America/Chicago' })).toEqual({
			known: true,
			e164: '+18505550123',
			places: ['US-FL'],
			zones: ['America/Chicago'],
			timeZoneSource: 'field',
		});
		// a fallback zone fills in only when the number tells nothing
		expect(
			placeOfNumber('+18505550123', { zone: 'America/Denver', zoneSource: 'fallback' }),
		).toMatchObject({
			zones: ['America/New_York', 'America/Chicago'],
			timeZoneSource: 'area_code',
		});
		expect(placeOfNumber('+4930123456', { zone: 'Europe/Berlin', zoneSource: 'number' })).toEqual({
			known: true,
			e164: '+4930123456',
			places: [],
			zones: ['Europe/Berlin'],
			timeZoneSource: 'number',
		});
		// a country of one zone: the number tells it
		expect(placeOfNumber('+4930123456')).toMatchObject({
			known: true,
			zones: ['Europe/Berlin'],
			timeZoneSource: 'number',
		});
		// an unassigned +1 area code is refused even with a zone: no rule can be known for it
		expect(placeOfNumber('+19995550123', { zone: 'America/Chicago' })).toMatchObject({
			known: false,
			reason: expect.stringContaining('area code 999'),
		});
		expect(
			placeOfNumber('+33612345678', { zone: 'Europe/Paris', zoneSource: 'number' }),
		).toMatchObject({
			places: ['FR'],
			zones: ['Europe/Paris'],
		});
		expect(placeOfNumber('+18505550123', { zone: 'Mars/Olympus' })).toMatchObject({
			known: false,
			reason: expect.stringContaining('Mars/Olympus'),
		});
	});
});
