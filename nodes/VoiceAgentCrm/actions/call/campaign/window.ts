import { DateTime } from 'luxon';

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

/** The instant of a minute of a local day, read on the wall clock (a clock change moves no hour). */
function localMinute(day: DateTime, minute: number): number {
	if (minute === 24 * 60) return day.plus({ days: 1 }).startOf('day').toMillis();
	return day.set({ hour: Math.floor(minute / 60), minute: minute % 60 }).toMillis();
}

/**
 * The first instant at or after `at` (epoch ms) inside the window, in `zone`. A valid window opens
 * within a week; a local time that does not exist (a clock change) is moved forward by luxon.
 */
export function nextOpening(at: number, zone: string, window: CallingWindow): number {
	const start = DateTime.fromMillis(at, { zone });
	for (let day = 0; day <= 7; day++) {
		const date = start.plus({ days: day }).startOf('day');
		if (!window.days.includes(date.weekday)) continue;
		const opens = localMinute(date, window.fromMinute);
		const closes = localMinute(date, window.untilMinute);
		if (at < closes) return Math.max(at, opens);
	}
	throw new Error('a checked calling window opens within a week');
}

/** Whether an instant lies inside the window in `zone` (what the tests and the bench count). */
export function isInsideWindow(at: number, zone: string, window: CallingWindow): boolean {
	return nextOpening(at, zone, window) === at;
}
