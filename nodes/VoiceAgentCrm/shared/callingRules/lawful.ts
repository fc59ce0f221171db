import { DateTime, IANAZone } from 'luxon';

import { areaCodeOf } from './nanp';
import { NUMBERING_PLANS } from './numberingPlans';
import { CALLING_RULES, type CallingRule } from './rules';
import { zoneOfNumber } from './singleZones';

/**
 * Lawful calling hours for one number (docs/calling-rules.md): its place and every zone it can be
 * in, the rule of that place, whether an instant is lawful in all of those zones, and the next
 * instant that is. The user's own window is Run Campaign's (campaign/opening.ts). Pure: luxon and
 * the tables only.
 */

/** Where the zones came from: the item's field, the area code, a numbering plan, or the caller's own reading. */
export type TimeZoneSource = 'field' | 'area_code' | 'numbering_plan' | 'number' | 'fallback';

export interface KnownPlace {
	known: true;
	e164: string;
	/** ISO places whose rules apply (several for a code shared by provinces); [] when none is known. */
	places: string[];
	/** Every zone the person can be in; a call waits until all of them are within hours. */
	zones: string[];
	timeZoneSource: TimeZoneSource;
}

export interface UnknownPlace {
	known: false;
	e164: string;
	/** Why, for the item: the campaign refuses the person. */
	reason: string;
	/** No zone the caller gives makes the number callable: its area code is not assigned. */
	refused?: true;
}

export type Place = KnownPlace | UnknownPlace;

/** What the caller already knows of the person: a zone (and where it came from), a place. */
export interface GivenPlace {
	zone?: string;
	/** `field` (the default) wins over the number; any other only fills in when the number tells nothing. */
	zoneSource?: 'field' | 'number' | 'fallback';
	/** An ISO place (`US-FL`) that replaces the one read from the number. */
	place?: string;
}

/** The one-zone countries with a row of their own, by calling code (Australia: its numbering plan). */
const COUNTRY_OF_CODE: Record<string, string> = { '33': 'FR', '44': 'GB' };

/** How far ahead an opening is looked for: two weeks covers every row with an open day. */
const HORIZON_DAYS = 14;

/** How many entries each memo below keeps before it starts again (a few MB at most). */
const KEPT = 20_000;

/**
 * The place, zones and zone source of an E.164 number. The item's own zone (a field) wins over
 * the number, the number over a zone the caller only inferred; a +1 number whose area code is not
 * assigned is refused whatever zone comes with it: no rule can be known for it.
 */
export function placeOfNumber(e164: string, given: GivenPlace = {}): Place {
	if (given.zone !== undefined && !IANAZone.isValidZone(given.zone))
		return { known: false, e164, reason: `"${given.zone}" is not an IANA time zone` };
	const read = readNumber(e164);
	if (read.refused) return { known: false, e164, reason: read.reason, refused: true };
	const places = given.place ? [given.place] : read.places;
	const zoneSource = given.zoneSource ?? 'field';
	if (read.zones && !(given.zone && zoneSource === 'field'))
		return { known: true, e164, places, zones: read.zones, timeZoneSource: read.source };
	if (given.zone)
		return { known: true, e164, places, zones: [given.zone], timeZoneSource: zoneSource };
	return { known: false, e164, reason: read.reason };
}

interface NumberReading {
	places: string[];
	zones?: string[];
	source: 'area_code' | 'numbering_plan' | 'number';
	/** Why the number gives no zone (or, with `refused`, why it cannot be called at all). */
	reason: string;
	refused?: boolean;
}

/** What the number itself says: NANP area codes, the other plans, or the country alone. */
function readNumber(e164: string): NumberReading {
	if (e164.startsWith('+1')) {
		const { code, entry } = areaCodeOf(e164);
		if (!entry)
			return {
				places: [],
				source: 'area_code',
				reason: `area code ${code} of ${e164} is not an assigned geographic NANP area code, so its place and zone are unknown`,
				refused: true,
			};
		return { places: entry.places, zones: entry.zones, source: 'area_code', reason: '' };
	}
	for (const length of [1, 2]) {
		const plan = NUMBERING_PLANS[e164.slice(1, 1 + length)];
		if (!plan) continue;
		const found = plan.placeOf(e164.slice(1 + length));
		if ('unknown' in found) return { places: [], source: 'numbering_plan', reason: found.unknown };
		return { ...found, source: 'numbering_plan', reason: '' };
	}
	const country = COUNTRY_OF_CODE[e164.slice(1, 3)];
	const zone = zoneOfNumber(e164);
	if (zone)
		return { places: country ? [country] : [], zones: [zone], source: 'number', reason: '' };
	return {
		places: country ? [country] : [],
		source: 'numbering_plan',
		reason: `the zone of ${e164} is not known from the number: give the person's zone`,
	};
}

/** The row of a place on a local date (rows of one place have adjoining `from`/`until`). */
export function ruleOf(place: string, isoDate: string): CallingRule | undefined {
	return CALLING_RULES.find(
		(rule) =>
			rule.place === place &&
			(rule.from === undefined || rule.from <= isoDate) &&
			(rule.until === undefined || isoDate < rule.until),
	);
}

/** "08:00-20:00" → [[480, 1200]]; "closed" → []. */
export function spansOf(hours: string): [number, number][] {
	if (hours === 'closed') return [];
	return hours.split(',').map((span) => {
		const [from, until] = span.trim().split('-').map(minuteOf);
		return [from, until];
	});
}

function minuteOf(hhmm: string): number {
	const [hours, minutes] = hhmm.split(':').map(Number);
	return hours * 60 + minutes;
}

/** A local calendar day: its ISO date and ISO weekday (1 = Monday … 7 = Sunday). */
export interface LocalDay {
	iso: string;
	weekday: number;
}

/**
 * The local day of an instant in a zone, remembered by quarter hour: every clock change and
 * every zone's offset falls on a quarter hour, so all instants of one share their local day.
 */
const localDayCache = new Map<string, LocalDay>();
const QUARTER_HOUR = 15 * 60_000;

function localDayOf(at: number, zone: string): LocalDay {
	const quarter = Math.floor(at / QUARTER_HOUR);
	const key = `${zone} ${quarter}`;
	let day = localDayCache.get(key);
	if (!day) {
		const local = DateTime.fromMillis(quarter * QUARTER_HOUR, { zone });
		day = { iso: local.toISODate()!, weekday: local.weekday };
		if (localDayCache.size >= KEPT) localDayCache.clear();
		localDayCache.set(key, day);
	}
	return day;
}

/** The day `count` days later (calendar arithmetic: no zone involved). */
function dayAfter(day: LocalDay, count: number): LocalDay {
	const date = new Date(`${day.iso}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + count);
	return { iso: date.toISOString().slice(0, 10), weekday: ((day.weekday - 1 + count) % 7) + 1 };
}

/**
 * The hours a row allows on a local day: a holiday's, or its weekday's. A row with holidays
 * allows nothing after the last date its list covers: an unknown holiday is not risked.
 */
export function hoursOn(rule: CallingRule, day: LocalDay): string {
	if (rule.holidays) {
		if (day.iso > rule.holidays.knownThrough || rule.holidays.dates.includes(day.iso))
			return rule.holidays.hours;
	}
	if (day.weekday === 7) return rule.sunday;
	return day.weekday === 6 ? rule.saturday : rule.weekdays;
}

/** The minutes open on a local day: every place's row. */
function openSpans(places: string[], day: LocalDay): [number, number][] {
	let spans: [number, number][] = [[0, 24 * 60]];
	for (const name of places) {
		const rule = ruleOf(name, day.iso);
		if (rule) spans = intersect(spans, spansOf(hoursOn(rule, day)));
	}
	return spans;
}

function intersect(a: [number, number][], b: [number, number][]): [number, number][] {
	const out: [number, number][] = [];
	for (const [a0, a1] of a)
		for (const [b0, b1] of b) {
			const [from, until] = [Math.max(a0, b0), Math.min(a1, b1)];
			if (from < until) out.push([from, until]);
		}
	return out.sort((x, y) => x[0] - y[0]);
}

/**
 * The first instant whose wall clock in `zone` reads `minute` of `day` or later. A time a
 * spring-forward gap skips opens at the gap's end (the first valid instant), not an hour after it
 * as luxon's own shift would place it.
 */
function wallClockInstant(zone: string, day: LocalDay, minute: number): number {
	if (minute >= 24 * 60) return wallClockInstant(zone, dayAfter(day, 1), minute - 24 * 60);
	const [year, month, date] = day.iso.split('-').map(Number);
	const hour = Math.floor(minute / 60);
	const wanted = DateTime.fromObject(
		{ year, month, day: date, hour, minute: minute % 60 },
		{ zone },
	);
	if (wanted.toISODate() === day.iso && wanted.hour * 60 + wanted.minute === minute)
		return wanted.toMillis();
	// in a gap: search the minute the clock jumped, between a few hours before and luxon's instant
	const reached = (ms: number) => {
		const local = DateTime.fromMillis(ms, { zone });
		const iso = local.toISODate()!;
		return iso > day.iso || (iso === day.iso && local.hour * 60 + local.minute >= minute);
	};
	let [before, after] = [wanted.toMillis() - 4 * 3_600_000, wanted.toMillis()];
	while (after - before > 60_000) {
		const middle = before + Math.floor((after - before) / 120_000) * 60_000;
		if (reached(middle)) after = middle;
		else before = middle;
	}
	return after;
}

/**
 * The open spans of a local day in a zone, as instants. Remembered: a campaign asks about the
 * same few days for every person and at every step, and luxon's zone arithmetic is the cost. The
 * answers depend only on the arguments and the tables, so remembering them changes nothing else.
 */
const openInstantsCache = new Map<string, [number, number][]>();

function openInstants(places: string[], zone: string, day: LocalDay): [number, number][] {
	const key = `${zone} ${day.iso} ${places.join(',')}`;
	let spans = openInstantsCache.get(key);
	if (!spans) {
		spans = openSpans(places, day).map(([from, until]) => [
			wallClockInstant(zone, day, from),
			wallClockInstant(zone, day, until),
		]);
		if (openInstantsCache.size >= KEPT) openInstantsCache.clear();
		openInstantsCache.set(key, spans);
	}
	return spans;
}

/** The first instant ≥ `at` open in one zone; undefined when none within the horizon. */
function nextOpenInZone(place: KnownPlace, zone: string, at: number): number | undefined {
	const first = localDayOf(at, zone);
	for (let count = 0; count <= HORIZON_DAYS; count++) {
		for (const [opens, closes] of openInstants(place.places, zone, dayAfter(first, count)))
			if (at < closes && opens < closes) return Math.max(at, opens);
	}
	return undefined;
}

/** Whether a call may start at `at` (epoch ms): inside the rule in every zone. */
export function isLawfulAt(place: KnownPlace, at: number): boolean {
	return nextLawfulOpening(place, at) === at;
}

/**
 * The earliest instant ≥ `after` (epoch ms) at which every zone of the place is open under the
 * rule of each place; undefined when none within two weeks (holiday dates past the table's end).
 */
export function nextLawfulOpening(place: KnownPlace, after: number): number | undefined {
	const limit = after + (HORIZON_DAYS + 1) * 24 * 3_600_000;
	let at = after;
	while (at <= limit) {
		const openings = place.zones.map((zone) => nextOpenInZone(place, zone, at));
		if (openings.some((opening) => opening === undefined)) return undefined;
		const latest = Math.max(...(openings as number[]));
		// every zone open now: this is the instant; otherwise try again from the latest opening
		if (latest === at) return at;
		at = latest;
	}
	return undefined;
}

/**
 * What the item says (`calling_rule`): each place's row on the local date of `at` in the first
 * zone, with its source; "no rule known" where the table has none.
 */
export function callingRuleText(place: KnownPlace, at: number): string {
	const date = DateTime.fromMillis(at, { zone: place.zones[0] }).toISODate()!;
	const rows = place.places.map((name) => ({ name, rule: ruleOf(name, date) }));
	if (!rows.length) return "no rule known (the user's window applies)";
	return rows
		.map(({ name, rule }) =>
			rule
				? `${name} ${hoursText(rule)}, source ${rule.source}`
				: `no rule known for ${name} (the user's window applies)`,
		)
		.join('; ');
}

/**
 * The row's hours in a line: "08:00-20:00" when every day is alike, else by day
 * ("Mon-Sat 08:00-20:00, Sun closed", "Mon-Fri 09:00-21:30, Sat-Sun 10:00-18:00"), then holidays.
 */
export function hoursText(rule: CallingRule): string {
	const { weekdays, saturday, sunday } = rule;
	let days = `Mon-Fri ${weekdays}, Sat ${saturday}, Sun ${sunday}`;
	if (weekdays === saturday && saturday === sunday)
		days = weekdays === '00:00-24:00' ? 'no hours in law' : weekdays;
	else if (weekdays === saturday) days = `Mon-Sat ${weekdays}, Sun ${sunday}`;
	else if (saturday === sunday) days = `Mon-Fri ${weekdays}, Sat-Sun ${saturday}`;
	return rule.holidays ? `${days}, ${rule.holidays.which} ${rule.holidays.hours}` : days;
}
