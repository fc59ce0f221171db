import {
	ALABAMA_HOLIDAYS,
	AUSTRALIA_HOLIDAYS,
	FRANCE_HOLIDAYS,
	HOLIDAYS_KNOWN_THROUGH,
	LOUISIANA_HOLIDAYS,
	RHODE_ISLAND_HOLIDAYS,
} from './holidays';

/**
 * The calling-hours rules by the called person's place (docs/calling-rules.md): when a marketing
 * call may ring, in the person's own local time. An aid, not legal advice.
 *
 * Hours are written as a reviewer reads them: `'08:00-20:00'`, several spans as
 * `'10:00-13:00, 14:00-20:00'`, and `'closed'` for a day without calls. A row holds the whole rule
 * of its place (a US state's row is already within the federal 08:00-21:00). Where sources
 * disagree, the row takes the stricter reading and says so in `note`.
 */
export interface CallingRule {
	/** The place: ISO 3166-1 country, or ISO 3166-2 state/province (`US-FL`, `CA-ON`). */
	place: string;
	/** Its name, for messages. */
	name: string;
	/** The first local date the row applies on (absent: since before the table); inclusive. */
	from?: string;
	/** The first local date the row no longer applies on (absent: still in force). */
	until?: string;
	/** Monday to Friday, Saturday, Sunday. */
	weekdays: string;
	saturday: string;
	sunday: string;
	/** Holidays and their hours; dates recipient-local, listed through `knownThrough`. */
	holidays?: { hours: string; which: string; dates: readonly string[]; knownThrough: string };
	/** The statute, regulation or public page the row comes from. */
	source: string;
	/** The date the row was last checked against its source. */
	asOf: string;
	/** Where sources disagree or a reading was taken, what was chosen. */
	note?: string;
}

/** When the rows were compiled (the late-2025 compliance tables and the sources named). */
const COMPILED = '2025-12-01';

const FEDERAL_SOURCE = '47 CFR 64.1200(c)(1); 16 CFR 310.4(c) (Telemarketing Sales Rule)';

/** A US state or territory with no stricter hours known: the federal 08:00-21:00, every day. */
function federal(place: string, name: string): CallingRule {
	return {
		place,
		name,
		weekdays: '08:00-21:00',
		saturday: '08:00-21:00',
		sunday: '08:00-21:00',
		source: FEDERAL_SOURCE,
		asOf: COMPILED,
		note: 'no stricter state hours known; the federal rule',
	};
}

/** The same hours every day. */
const everyDay = (hours: string) => ({ weekdays: hours, saturday: hours, sunday: hours });

const US_STRICTER: CallingRule[] = [
	{
		place: 'US-AL',
		name: 'Alabama',
		weekdays: '08:00-20:00',
		saturday: '08:00-20:00',
		sunday: 'closed',
		holidays: {
			hours: 'closed',
			which: 'state holidays',
			dates: ALABAMA_HOLIDAYS,
			knownThrough: HOLIDAYS_KNOWN_THROUGH,
		},
		source: 'Ala. Code § 8-19C-3 (Alabama Telephone Solicitation Act); holidays Ala. Code § 1-3-8',
		asOf: COMPILED,
		note: 'tables give 08:00-20:00 or 08:00-21:00 Monday-Saturday; the stricter 20:00 taken',
	},
	{
		place: 'US-CT',
		name: 'Connecticut',
		...everyDay('09:00-20:00'),
		source: 'Conn. Gen. Stat. § 42-288a, as amended by Public Act 23-98 (2023)',
		asOf: COMPILED,
	},
	{
		place: 'US-FL',
		name: 'Florida',
		...everyDay('08:00-20:00'),
		source: 'Fla. Stat. § 501.616(6)(a) (Florida Telephone Solicitation Act, 2021 amendment)',
		asOf: COMPILED,
		note: 'also at most 3 calls per person per 24 hours on one subject, § 501.616(6)(b)',
	},
	{
		place: 'US-KY',
		name: 'Kentucky',
		...everyDay('10:00-21:00'),
		source: 'KRS 367.46955(15)',
		asOf: COMPILED,
	},
	{
		place: 'US-LA',
		name: 'Louisiana',
		weekdays: '08:00-20:00',
		saturday: '08:00-20:00',
		sunday: 'closed',
		holidays: {
			hours: 'closed',
			which: 'legal holidays',
			dates: LOUISIANA_HOLIDAYS,
			knownThrough: HOLIDAYS_KNOWN_THROUGH,
		},
		source:
			'La. R.S. 45:844.11 et seq. (Telephone Solicitation Relief Act); holidays La. R.S. 1:55',
		asOf: COMPILED,
		note: 'legal holidays read widely (parish-only days such as Mardi Gras included)',
	},
	{
		place: 'US-MA',
		name: 'Massachusetts',
		...everyDay('08:00-20:00'),
		source: 'M.G.L. c. 159C, § 3 (telephone solicitation); 201 CMR 12.00',
		asOf: COMPILED,
	},
	{
		place: 'US-MD',
		name: 'Maryland',
		...everyDay('08:00-20:00'),
		source: 'Md. Code, Com. Law Title 14, Subtitle 45 (Stop the Spam Calls Act of 2023)',
		asOf: COMPILED,
		note: 'also at most 3 calls per person per 24 hours on one subject',
	},
	{
		place: 'US-MN',
		name: 'Minnesota',
		...everyDay('09:00-21:00'),
		source: 'Minn. Stat. § 325E.27',
		asOf: COMPILED,
	},
	{
		place: 'US-MS',
		name: 'Mississippi',
		weekdays: '08:00-20:00',
		saturday: '08:00-20:00',
		sunday: 'closed',
		source: 'Miss. Code Ann. § 77-3-725',
		asOf: COMPILED,
		note: 'tables give an end of 20:00 or 21:00; the stricter 20:00 taken',
	},
	{
		place: 'US-NV',
		name: 'Nevada',
		...everyDay('09:00-20:00'),
		source: 'NRS 228.590 and compliance tables (issue 41, late 2025)',
		asOf: COMPILED,
	},
	{
		place: 'US-OK',
		name: 'Oklahoma',
		...everyDay('08:00-20:00'),
		source: '15 O.S. § 775C.4 (Oklahoma Telephone Solicitation Act of 2022)',
		asOf: COMPILED,
		note: 'also at most 3 calls per person per 24 hours on one subject',
	},
	{
		place: 'US-PA',
		name: 'Pennsylvania',
		until: '2026-10-18',
		...everyDay('08:00-21:00'),
		source: '73 P.S. § 2245 (Telemarketer Registration Act)',
		asOf: COMPILED,
	},
	{
		place: 'US-PA',
		name: 'Pennsylvania',
		from: '2026-10-18',
		weekdays: '08:00-21:00',
		saturday: '08:00-21:00',
		sunday: 'closed',
		source:
			'73 P.S. § 2241 et seq. (Telemarketer Registration Act) as amended in 2025: no Sunday calls from 2026-10-18',
		asOf: COMPILED,
		note: 'the Sunday ban and its date as issue 41 reports them; check against the Act',
	},
	{
		place: 'US-RI',
		name: 'Rhode Island',
		weekdays: '09:00-18:00',
		saturday: '10:00-17:00',
		sunday: 'closed',
		holidays: {
			hours: 'closed',
			which: 'legal holidays',
			dates: RHODE_ISLAND_HOLIDAYS,
			knownThrough: HOLIDAYS_KNOWN_THROUGH,
		},
		source: 'R.I. Gen. Laws § 5-61-3.5; holidays R.I. Gen. Laws § 25-1-1',
		asOf: COMPILED,
	},
	{
		place: 'US-TX',
		name: 'Texas',
		weekdays: '09:00-21:00',
		saturday: '09:00-21:00',
		sunday: '12:00-21:00',
		source: 'Tex. Bus. & Com. Code § 301.051',
		asOf: COMPILED,
	},
	{
		place: 'US-WA',
		name: 'Washington',
		...everyDay('08:00-20:00'),
		source: 'RCW 80.36.390',
		asOf: COMPILED,
	},
];

/** Every other state, DC and the territories (the TCPA applies to them as to the states). */
const US_FEDERAL_ONLY: [string, string][] = [
	['US-AK', 'Alaska'],
	['US-AR', 'Arkansas'],
	['US-AZ', 'Arizona'],
	['US-CA', 'California'],
	['US-CO', 'Colorado'],
	['US-DC', 'District of Columbia'],
	['US-DE', 'Delaware'],
	['US-GA', 'Georgia'],
	['US-HI', 'Hawaii'],
	['US-IA', 'Iowa'],
	['US-ID', 'Idaho'],
	['US-IL', 'Illinois'],
	['US-IN', 'Indiana'],
	['US-KS', 'Kansas'],
	['US-ME', 'Maine'],
	['US-MI', 'Michigan'],
	['US-MO', 'Missouri'],
	['US-MT', 'Montana'],
	['US-NC', 'North Carolina'],
	['US-ND', 'North Dakota'],
	['US-NE', 'Nebraska'],
	['US-NH', 'New Hampshire'],
	['US-NJ', 'New Jersey'],
	['US-NM', 'New Mexico'],
	['US-NY', 'New York'],
	['US-OH', 'Ohio'],
	['US-OR', 'Oregon'],
	['US-SC', 'South Carolina'],
	['US-SD', 'South Dakota'],
	['US-TN', 'Tennessee'],
	['US-UT', 'Utah'],
	['US-VA', 'Virginia'],
	['US-VT', 'Vermont'],
	['US-WI', 'Wisconsin'],
	['US-WV', 'West Virginia'],
	['US-WY', 'Wyoming'],
	['US-AS', 'American Samoa'],
	['US-GU', 'Guam'],
	['US-MP', 'Northern Mariana Islands'],
	['US-PR', 'Puerto Rico'],
	['US-VI', 'U.S. Virgin Islands'],
];

const CRTC_SOURCE =
	'CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules): weekdays 09:00-21:30, weekends 10:00-18:00, called person\u2019s local time';

/** Canada: the CRTC's national rule; no stricter provincial hours known. */
const CANADA: [string, string][] = [
	['CA-AB', 'Alberta'],
	['CA-BC', 'British Columbia'],
	['CA-MB', 'Manitoba'],
	['CA-NB', 'New Brunswick'],
	['CA-NL', 'Newfoundland and Labrador'],
	['CA-NS', 'Nova Scotia'],
	['CA-NT', 'Northwest Territories'],
	['CA-NU', 'Nunavut'],
	['CA-ON', 'Ontario'],
	['CA-PE', 'Prince Edward Island'],
	['CA-QC', 'Quebec'],
	['CA-SK', 'Saskatchewan'],
	['CA-YT', 'Yukon'],
];

const crtc = ([place, name]: [string, string]): CallingRule => ({
	place,
	name,
	weekdays: '09:00-21:30',
	saturday: '10:00-18:00',
	sunday: '10:00-18:00',
	source: CRTC_SOURCE,
	asOf: COMPILED,
	note: 'no stricter provincial hours known; the CRTC rule',
});

const COUNTRIES: CallingRule[] = [
	{
		place: 'AU',
		name: 'Australia',
		weekdays: '09:00-20:00',
		saturday: '09:00-17:00',
		sunday: 'closed',
		holidays: {
			hours: 'closed',
			which: 'national public holidays',
			dates: AUSTRALIA_HOLIDAYS,
			knownThrough: HOLIDAYS_KNOWN_THROUGH,
		},
		source:
			'Telecommunications (Telemarketing and Research Calls) Industry Standard 2017 (ACMA), calling times',
		asOf: COMPILED,
	},
	{
		place: 'FR',
		name: 'France',
		weekdays: '10:00-13:00, 14:00-20:00',
		saturday: 'closed',
		sunday: 'closed',
		holidays: {
			hours: 'closed',
			which: 'jours fériés',
			dates: FRANCE_HOLIDAYS,
			knownThrough: HOLIDAYS_KNOWN_THROUGH,
		},
		source: 'Code de la consommation art. L223-1; Décret n° 2022-1313 du 13 octobre 2022',
		asOf: COMPILED,
		note: 'also at most 4 calls per person per 30 days',
	},
	{
		place: 'GB',
		name: 'United Kingdom',
		...everyDay('00:00-24:00'),
		source: 'Privacy and Electronic Communications Regulations 2003, regs. 19, 21 and 21A (ICO)',
		asOf: COMPILED,
		note: 'no calling hours in law: automated marketing calls need the person\u2019s prior consent, live ones TPS/CTPS screening; the user\u2019s window alone sets the hours',
	},
];

/** Every row. A place may have several rows with adjoining `from`/`until` dates. */
export const CALLING_RULES: readonly CallingRule[] = [
	...US_STRICTER,
	...US_FEDERAL_ONLY.map(([place, name]) => federal(place, name)),
	...CANADA.map(crtc),
	...COUNTRIES,
];
