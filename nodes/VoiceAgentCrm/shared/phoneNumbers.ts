/**
 * Phone numbers as people and CRMs write them, read into the one E.164 number they mean, or
 * refused with the reason: never guessed. Every phone field of the node reads through here
 * (`validation.ts` wraps it for the forms), so Place AI Call, Run Campaign, contacts and events
 * agree on what a number is.
 *
 * - International forms: `+44 20 7946 0381`, `0044 20 7946 0381`. After the country code, the
 *   national trunk prefix some people keep (`+44 020 …`, `+44 (0) 20 …`) is dropped for the
 *   countries whose numbers never begin with it (the numbering-plan table below); where a leading 0
 *   is part of the number (Italy) it is kept.
 * - National forms (`020 7946 0381`, `(212) 555-0101`) only with a Default Country, read by that
 *   country's plan: the trunk prefix dropped, the length checked. A national number that could be
 *   a local number, or another country's, is refused.
 */

export interface NumberingPlan {
	/** ISO 3166-1 alpha-2. */
	country: string;
	name: string;
	/** The E.164 country calling code, without +. */
	code: string;
	/** The national (trunk) prefix dialled before a national number at home, never from abroad; undefined: none. */
	trunkPrefix?: string;
	/** The national significant number's length, in digits: min and max (equal in a closed plan). */
	digits: [number, number];
	/** Where the trunk prefix and the lengths come from (the keys of NUMBERING_PLAN_SOURCES). */
	source: Source;
}

/**
 * The sources of the table. Each country's plan is the one its regulator notified to the ITU;
 * `itu` is the ITU's list of them all, later changes are cited to the regulator that made them.
 */
export const NUMBERING_PLAN_SOURCES = {
	itu: 'ITU-T, "Dialling procedures (international prefix, national (trunk) prefix and national (significant) number) in accordance with ITU-T Recommendation E.164", Annex to ITU Operational Bulletin No. 994 (15.XII.2011), and the national numbering plans notified to the ITU (https://www.itu.int/oth/T0202)',
	nanpa:
		'NANPA, North American Numbering Plan: 1 + NPA (area code, first digit 2-9) + 7 digits (https://www.nationalnanpa.com)',
	ofcom:
		'Ofcom, The National Telephone Numbering Plan (UK): trunk prefix 0, national numbers of 7, 9 or 10 digits',
	ift: 'IFT (Mexico), Plan Técnico Fundamental de Numeración: 10-digit national numbers, trunk prefixes 01, 044 and 045 withdrawn in 2019',
	crc: 'CRC (Colombia): 10-digit national numbers without trunk prefix since 1 September 2021',
	subtel: 'SUBTEL (Chile): 9-digit national numbers without trunk prefix since 2016',
	artci:
		'ARTCI (Côte d’Ivoire): 10-digit national numbers since 31 January 2021, their leading 0 part of the number',
} as const;

type Source = keyof typeof NUMBERING_PLAN_SOURCES;

/** One row: country, name, calling code, trunk prefix (undefined: none), national number length min and max, source. */
function plan(
	country: string,
	name: string,
	code: string,
	trunkPrefix: string | undefined,
	min: number,
	max: number,
	source: Source = 'itu',
): NumberingPlan {
	return { country, name, code, trunkPrefix, digits: [min, max], source };
}

/** Sorted by country name (the editor's list follows this order). */
export const NUMBERING_PLANS: readonly NumberingPlan[] = [
	plan('AL', 'Albania', '355', '0', 8, 9),
	plan('DZ', 'Algeria', '213', '0', 8, 9),
	plan('AD', 'Andorra', '376', undefined, 6, 9),
	plan('AM', 'Armenia', '374', '0', 8, 8),
	plan('AU', 'Australia', '61', '0', 9, 9),
	plan('AT', 'Austria', '43', '0', 4, 13),
	plan('AZ', 'Azerbaijan', '994', '0', 9, 9),
	plan('BH', 'Bahrain', '973', undefined, 8, 8),
	plan('BE', 'Belgium', '32', '0', 8, 9),
	plan('BA', 'Bosnia and Herzegovina', '387', '0', 8, 9),
	plan('BG', 'Bulgaria', '359', '0', 7, 9),
	plan('CA', 'Canada', '1', '1', 10, 10, 'nanpa'),
	plan('CL', 'Chile', '56', undefined, 9, 9, 'subtel'),
	plan('CO', 'Colombia', '57', undefined, 10, 10, 'crc'),
	plan('CI', 'Côte d’Ivoire', '225', undefined, 10, 10, 'artci'),
	plan('HR', 'Croatia', '385', '0', 6, 9),
	plan('CY', 'Cyprus', '357', undefined, 8, 8),
	plan('CZ', 'Czechia', '420', undefined, 9, 9),
	plan('DK', 'Denmark', '45', undefined, 8, 8),
	plan('EG', 'Egypt', '20', '0', 9, 10),
	plan('EE', 'Estonia', '372', undefined, 7, 8),
	plan('FI', 'Finland', '358', '0', 5, 12),
	plan('FR', 'France', '33', '0', 9, 9),
	plan('GE', 'Georgia', '995', '0', 9, 9),
	plan('DE', 'Germany', '49', '0', 5, 13),
	plan('GH', 'Ghana', '233', '0', 9, 9),
	plan('GR', 'Greece', '30', undefined, 10, 10),
	plan('HK', 'Hong Kong', '852', undefined, 8, 8),
	plan('HU', 'Hungary', '36', '06', 8, 9),
	plan('IS', 'Iceland', '354', undefined, 7, 9),
	plan('IN', 'India', '91', '0', 10, 10),
	plan('ID', 'Indonesia', '62', '0', 8, 12),
	plan('IE', 'Ireland', '353', '0', 7, 9),
	plan('IL', 'Israel', '972', '0', 8, 9),
	plan('IT', 'Italy', '39', undefined, 6, 11),
	plan('JP', 'Japan', '81', '0', 9, 10),
	plan('JO', 'Jordan', '962', '0', 8, 9),
	plan('KE', 'Kenya', '254', '0', 9, 9),
	plan('KW', 'Kuwait', '965', undefined, 8, 8),
	plan('LV', 'Latvia', '371', undefined, 8, 8),
	plan('LB', 'Lebanon', '961', '0', 7, 8),
	plan('LI', 'Liechtenstein', '423', undefined, 7, 9),
	plan('LU', 'Luxembourg', '352', undefined, 4, 11),
	plan('MY', 'Malaysia', '60', '0', 8, 10),
	plan('MT', 'Malta', '356', undefined, 8, 8),
	plan('MX', 'Mexico', '52', undefined, 10, 10, 'ift'),
	plan('MD', 'Moldova', '373', '0', 8, 8),
	plan('MC', 'Monaco', '377', undefined, 8, 9),
	plan('ME', 'Montenegro', '382', '0', 8, 8),
	plan('MA', 'Morocco', '212', '0', 9, 9),
	plan('NL', 'Netherlands', '31', '0', 9, 9),
	plan('NZ', 'New Zealand', '64', '0', 8, 10),
	plan('NG', 'Nigeria', '234', '0', 8, 10),
	plan('MK', 'North Macedonia', '389', '0', 8, 8),
	plan('NO', 'Norway', '47', undefined, 8, 8),
	plan('OM', 'Oman', '968', undefined, 8, 8),
	plan('PE', 'Peru', '51', '0', 8, 9),
	plan('PH', 'Philippines', '63', '0', 8, 10),
	plan('PL', 'Poland', '48', undefined, 9, 9),
	plan('PT', 'Portugal', '351', undefined, 9, 9),
	plan('QA', 'Qatar', '974', undefined, 8, 8),
	plan('RO', 'Romania', '40', '0', 9, 9),
	plan('RU', 'Russia', '7', '8', 10, 10),
	plan('SM', 'San Marino', '378', undefined, 6, 10),
	plan('SA', 'Saudi Arabia', '966', '0', 8, 9),
	plan('SN', 'Senegal', '221', undefined, 9, 9),
	plan('RS', 'Serbia', '381', '0', 7, 10),
	plan('SG', 'Singapore', '65', undefined, 8, 8),
	plan('SK', 'Slovakia', '421', '0', 8, 9),
	plan('SI', 'Slovenia', '386', '0', 8, 8),
	plan('ZA', 'South Africa', '27', '0', 9, 9),
	plan('KR', 'South Korea', '82', '0', 8, 10),
	plan('ES', 'Spain', '34', undefined, 9, 9),
	plan('SE', 'Sweden', '46', '0', 6, 10),
	plan('CH', 'Switzerland', '41', '0', 9, 9),
	plan('TW', 'Taiwan', '886', '0', 8, 9),
	plan('TH', 'Thailand', '66', '0', 8, 9),
	plan('TN', 'Tunisia', '216', undefined, 8, 8),
	plan('TR', 'Türkiye', '90', '0', 10, 10),
	plan('UA', 'Ukraine', '380', '0', 9, 9),
	plan('AE', 'United Arab Emirates', '971', '0', 8, 9),
	plan('GB', 'United Kingdom', '44', '0', 7, 10, 'ofcom'),
	plan('US', 'United States', '1', '1', 10, 10, 'nanpa'),
	plan('VN', 'Vietnam', '84', '0', 9, 10),
];

const PLAN_OF_COUNTRY = new Map(NUMBERING_PLANS.map((plan) => [plan.country, plan]));
/** Shared codes (+1, +7) have one trunk rule for all their countries: any of their rows will do. */
const PLAN_OF_CODE = new Map(NUMBERING_PLANS.map((plan) => [plan.code, plan]));

export function planOfCountry(country: string): NumberingPlan | undefined {
	return PLAN_OF_COUNTRY.get(country.trim().toUpperCase());
}

export type PhoneReading = { e164: string } | { problem: string };

/** What a phone number is, said first in every refusal (the README's troubleshooting row quotes it). */
export const E164_EXPECTED =
	'must be a phone number in international E.164 format: + then 8 to 15 digits, like +14155550123';

const FORMATTING = /[\s().-]/g;
/** Digits, one leading +, and the marks people format numbers with; anything else is not one number. */
const WRITTEN_AS_ONE_NUMBER = /^\+?[\d\s().-]+$/;
const E164_SHAPE = /^\+[1-9]\d{7,14}$/;

/**
 * The E.164 number `written` stands for, or why it cannot be told. `defaultCountry` (ISO alpha-2,
 * a row of the table, checked by the caller) reads a number written without + and country code.
 */
export function readPhoneNumber(written: string, defaultCountry?: string): PhoneReading {
	const text = written.trim();
	if (!WRITTEN_AS_ONE_NUMBER.test(text)) return refused();
	const digits = text.replace(FORMATTING, '');
	if (digits.startsWith('+')) return international(text.slice(1), digits.slice(1));
	// 00 is the international prefix of most countries; no national number begins with it
	if (/^00[1-9]/.test(digits)) return international(text.replace(/^\D*00/, ''), digits.slice(2));
	if (defaultCountry === undefined)
		return refused(
			'a number without + and country code is read only with a Default Country (e.g. GB reads 020 7946 0381)',
		);
	const plan = planOfCountry(defaultCountry);
	return plan ? national(digits, plan) : refused(`no numbering plan for "${defaultCountry}"`);
}

/** `written`: the number after its + or 00, as typed; `digits`: the same without formatting. */
function international(written: string, digits: string): PhoneReading {
	const plan = planOfDigits(digits);
	if (!plan) return unlistedCode(written, digits);
	// a bracket may hold the trunk prefix right after the code ("+44 (0) 20", "+44 (020)"); a
	// (0…) group further on is no trunk prefix, and its 0 would be dialled
	const bracketsAfterCode = new RegExp(`^${plan.code}[\\s.-]*\\(\\s*0`).test(written) ? 1 : 0;
	if ((written.match(/\(\s*0/g) ?? []).length > bracketsAfterCode)
		return refused('a (0…) group that does not follow the country code would be dialled');
	let national = digits.slice(plan.code.length);
	// a trunk prefix of 0 never begins a national number in the plans that use one
	if (plan.trunkPrefix?.startsWith('0') && national.startsWith(plan.trunkPrefix))
		national = national.slice(plan.trunkPrefix.length);
	return e164(`+${plan.code}${national}`);
}

/**
 * What every stored form of an E.164 number contains, to search a partial-match filter with: the
 * national number after the code of a table's country ("+4402079460381", kept with its trunk 0 by
 * an older rule or another tool, contains 2079460381 too), else the digits without +.
 */
export function searchDigits(e164: string): string {
	const digits = e164.replace(/^\+/, '');
	const plan = planOfDigits(digits);
	return plan ? digits.slice(plan.code.length) : digits;
}

/** The plan whose country code begins the digits: codes are prefix-free, so at most one. */
function planOfDigits(digits: string): NumberingPlan | undefined {
	for (const length of [1, 2, 3]) {
		const plan = PLAN_OF_CODE.get(digits.slice(0, length));
		if (plan) return plan;
	}
	return undefined;
}

/**
 * A country code the table does not list: its digits as written. `(0)` right after the code is
 * the written convention for a trunk prefix, and is dropped; any other 0 the user set apart after
 * the code may be a trunk prefix or part of the number, and is not guessed.
 */
function unlistedCode(written: string, digits: string): PhoneReading {
	const trunkInBrackets = /^(\d{1,3})\s*\(0\)/.exec(written);
	const rest = trunkInBrackets
		? `${trunkInBrackets[1]} ${written.slice(trunkInBrackets[0].length)}`
		: written;
	if (/\(\s*0/.test(rest) || /^\d{1,3}[\s.-]+0/.test(rest))
		return refused(
			"its country code is not in the node's numbering table, so whether the 0 after the code is dialled cannot be told: write it as dialled from abroad",
		);
	return e164(`+${trunkInBrackets ? rest.replace(FORMATTING, '') : digits}`);
}

function national(digits: string, plan: NumberingPlan): PhoneReading {
	const [min, max] = plan.digits;
	const { trunkPrefix } = plan;
	let number = digits;
	if (trunkPrefix !== undefined && digits.startsWith(trunkPrefix)) {
		number = digits.slice(trunkPrefix.length);
	} else if (trunkPrefix !== undefined && min !== max) {
		// without its trunk prefix, a number of an open plan may be a local number (no area code)
		return refused(
			`read as a national number of ${plan.name} (${plan.country}) it must begin with the trunk prefix ${trunkPrefix}; without it, it may be a local number or another country's: write it with + and the country code`,
		);
	}
	const areaCode = plan.code !== '1' || /^[2-9]/.test(number);
	if (number.length < min || number.length > max || !areaCode) {
		const length = min === max ? `${min}` : `${min} to ${max}`;
		const after =
			trunkPrefix === undefined
				? ''
				: ` after the trunk prefix ${trunkPrefix}${min === max ? ', if written' : ''}`;
		return refused(
			`read as a national number of ${plan.name} (${plan.country}) it must have ${length} digits${after}${areaCode ? '' : ', the first 2 to 9'}: write it with + and the country code`,
		);
	}
	return e164(`+${plan.code}${number}`);
}

function e164(candidate: string): PhoneReading {
	return E164_SHAPE.test(candidate) ? { e164: candidate } : refused();
}

function refused(why?: string): PhoneReading {
	return { problem: why ? `${E164_EXPECTED}; ${why}` : E164_EXPECTED };
}
