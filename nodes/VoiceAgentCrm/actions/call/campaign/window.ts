import { DateTime, IANAZone } from 'luxon';

/**
 * The calling window: the days and hours, in the recipient's time zone, in which a campaign's call
 * may start. A call is always placed (or scheduled) to start inside it; a call that starts at
 * 16:59 may go on after 17:00.
 */
export interface CallingWindow {
	/** ISO weekdays, 1 = Monday … 7 = Sunday. */
	days: number[];
	/** Minutes after local midnight: the first minute calls may start, and the first they may not. */
	fromMinute: number;
	untilMinute: number;
}

/** "09:00" → 540; undefined for anything that is not a time of day (24:00 allowed as the end). */
export function minuteOfDay(text: unknown): number | undefined {
	const match = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(String(text ?? ''));
	if (!match) return undefined;
	const [hours, minutes] = [Number(match[1]), Number(match[2])];
	if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return undefined;
	return hours * 60 + minutes;
}

/** The window's problem, or undefined when calls can start in it at some time of some week. */
export function windowProblem(window: CallingWindow): string | undefined {
	if (!window.days.length) return 'Calling Window → Days has no day in it';
	if (window.untilMinute <= window.fromMinute)
		return 'Calling Window has no hour in it: Until must be later than From on the same day';
	return undefined;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How far the wall clock of `zone` is ahead of UTC at an instant. */
function offsetAt(at: number, zone: string): number {
	return IANAZone.create(zone).offset(at) * MINUTE_MS;
}

/**
 * Every instant at which the wall clock of `zone` reads `wall` (a local date and time, its fields
 * read as UTC): one, two in the hour a clock change repeats, none in the hour it skips.
 */
function instantsOfWall(wall: number, zone: string): number[] {
	const offsets = new Set([offsetAt(wall - DAY_MS, zone), offsetAt(wall + DAY_MS, zone)]);
	return [...offsets]
		.map((offset) => wall - offset)
		.filter((at) => at + offsetAt(at, zone) === wall);
}

/** The instants in [from, until) at which `zone` changes its clock: the first instant on the new offset. */
function clockChanges(from: number, until: number, zone: string): number[] {
	const changes: number[] = [];
	for (let dayStart = from; dayStart < until; dayStart += DAY_MS) {
		let [before, after] = [dayStart, Math.min(dayStart + DAY_MS, until)];
		const offset = offsetAt(before, zone);
		if (offsetAt(after, zone) === offset) continue;
		while (after - before > 1) {
			const middle = Math.floor((before + after) / 2);
			if (offsetAt(middle, zone) === offset) before = middle;
			else after = middle;
		}
		changes.push(after);
	}
	return changes;
}

/**
 * Whether an instant lies inside the window in `zone`, read on the wall clock: its local weekday
 * is a window day and its local time of day is at or after From and before Until. A clock change
 * moves no hour of the window: the repeated hour is inside twice when the window holds it, the
 * skipped hour never.
 */
export function isInsideWindow(at: number, zone: string, window: CallingWindow): boolean {
	// the local date and time, read from the instant moved by the zone's offset
	const local = new Date(at + offsetAt(at, zone));
	const weekday = local.getUTCDay() || 7;
	const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
	return (
		window.days.includes(weekday) && minute >= window.fromMinute && minute < window.untilMinute
	);
}

/** Dates after the local date of an instant on which a valid window next opens: a week, and a day for a week's only window day lost to a clock change. */
const DATES_AHEAD = 8;

/**
 * The first instant at or after `at` (epoch ms) inside the window, in `zone`. The window opens when
 * the wall clock reaches From on a window day, or when a clock change sets it inside the window:
 * a From that a clock change skips opens at the change, the first valid instant; a window wholly
 * inside the skipped hour has no instant that day, and opens on its next day.
 */
export function nextOpening(at: number, zone: string, window: CallingWindow): number {
	if (isInsideWindow(at, zone, window)) return at;
	const offset = offsetAt(at, zone);
	const horizon = at + (DATES_AHEAD + 2) * DAY_MS;
	// a zone changes its clock at most once in ten days: the same offset at both ends, no change between
	const changes = offsetAt(horizon, zone) === offset ? [] : clockChanges(at, horizon, zone);
	// From on each local date ahead, its fields read as UTC (as `instantsOfWall` takes them)
	const localMidnight = Math.floor((at + offset) / DAY_MS) * DAY_MS;
	const walls = Array.from(
		{ length: DATES_AHEAD + 1 },
		(_, days) => localMidnight + days * DAY_MS + window.fromMinute * MINUTE_MS,
	).filter((wall) => window.days.includes(new Date(wall).getUTCDay() || 7));
	const opensOnWallClock = changes.length
		? walls.flatMap((wall) => instantsOfWall(wall, zone))
		: walls.map((wall) => wall - offset);
	const opening = [...opensOnWallClock, ...changes]
		.filter((instant) => instant > at)
		.sort((a, b) => a - b)
		.find((instant) => isInsideWindow(instant, zone, window));
	if (opening === undefined) throw new Error('a checked calling window opens within a week');
	return opening;
}

/** A placement's schedule: an instant, written in UTC, so that no local hour a clock change repeats makes it ambiguous. */
export function scheduleOf(callAt: number): { scheduled_call_time: string; timezone: string } {
	return {
		scheduled_call_time: DateTime.fromMillis(callAt, { zone: 'UTC' }).toFormat(
			'yyyy-MM-dd HH:mm:ss',
		),
		timezone: 'UTC',
	};
}
