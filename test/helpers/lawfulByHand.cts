import { DateTime } from 'luxon';

/**
 * The calling hours of FL, KY, TX, AL, CA and Ontario written out by hand from the statutes (not
 * read from the package's table), and a reading of them on the wall clock: what the lawful-hours
 * tests check the node's calls against.
 */

/** [from, until] in hours of the day, or closed. */
type Day = [number, number] | 'closed';
export interface Expected {
	e164: string;
	zone: string;
	weekday: Day;
	saturday: Day;
	sunday: Day;
	/** Local dates with no calls (the sweep holds one: Monday 2027-01-18, MLK / Robert E. Lee Day). */
	holidays: string[];
}

export const HAND_READING: Record<string, Expected> = {
	// Fla. Stat. § 501.616(6)(a): 8 a.m. to 8 p.m.
	'US-FL': {
		e164: '+13055550101',
		zone: 'America/New_York',
		weekday: [8, 20],
		saturday: [8, 20],
		sunday: [8, 20],
		holidays: [],
	},
	// KRS 367.46955(15): 10 a.m. to 9 p.m.
	'US-KY': {
		e164: '+15025550102',
		zone: 'America/Kentucky/Louisville',
		weekday: [10, 21],
		saturday: [10, 21],
		sunday: [10, 21],
		holidays: [],
	},
	// Tex. Bus. & Com. Code § 301.051: 9 a.m. to 9 p.m., Sunday noon to 9 p.m.
	'US-TX': {
		e164: '+12145550103',
		zone: 'America/Chicago',
		weekday: [9, 21],
		saturday: [9, 21],
		sunday: [12, 21],
		holidays: [],
	},
	// Alabama: 8 a.m. to 8 p.m., never on Sunday or a state holiday
	'US-AL': {
		e164: '+12055550104',
		zone: 'America/Chicago',
		weekday: [8, 20],
		saturday: [8, 20],
		sunday: 'closed',
		holidays: ['2027-01-18'],
	},
	// federal 8 a.m. to 9 p.m.
	'US-CA': {
		e164: '+14155550105',
		zone: 'America/Los_Angeles',
		weekday: [8, 21],
		saturday: [8, 21],
		sunday: [8, 21],
		holidays: [],
	},
	// CRTC: weekdays 9:00 to 21:30, weekends 10:00 to 18:00
	'CA-ON': {
		e164: '+14165550106',
		zone: 'America/Toronto',
		weekday: [9, 21.5],
		saturday: [10, 18],
		sunday: [10, 18],
		holidays: [],
	},
};

/** The hand reading: is a call lawful at this instant in this place? */
export function lawfulByHand(expected: Expected, ms: number): boolean {
	const local = DateTime.fromMillis(ms, { zone: expected.zone });
	if (expected.holidays.includes(local.toISODate()!)) return false;
	const day =
		local.weekday === 7
			? expected.sunday
			: local.weekday === 6
				? expected.saturday
				: expected.weekday;
	if (day === 'closed') return false;
	const hour = local.hour + local.minute / 60;
	return hour >= day[0] && hour < day[1];
}
