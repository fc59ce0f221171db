import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { shortened } from '../transport/text';
import { E164_EXPECTED, planOfCountry, readPhoneNumber } from './phoneNumbers';
import { UUID_REGEX } from './text';

/**
 * Rules the API reference fixes, checked before any request is sent. These are the node's own
 * reading of the reference; the simulator has its own, so a test feeding both catches a misreading.
 */

/** A text rule whose message is the same whether the value is wrong text or not text at all (a number from an expression). */
function text(expected: string) {
	return z.string({ message: expected }).trim();
}

const UUID_EXPECTED = 'must be a UUID, like 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d';
export const UUID = text(UUID_EXPECTED).regex(UUID_REGEX, UUID_EXPECTED);

/**
 * A phone number as people paste it ("+1 (415) 555-0123", "+44 020 7946 0958", "0044 …"), sent
 * in E.164; with a Default Country (ISO alpha-2), national numbers of that country too. The rules
 * are `phoneNumbers.ts`'s: anything that is not one number is refused with the reason, never guessed.
 */
export function phoneNumber(defaultCountry?: string) {
	const key = defaultCountry ?? '';
	let schema = PHONE_SCHEMAS.get(key);
	if (!schema) PHONE_SCHEMAS.set(key, (schema = phoneSchema(defaultCountry)));
	return schema;
}

function phoneSchema(defaultCountry: string | undefined) {
	return text(E164_EXPECTED).transform((phone, context) => {
		const reading = readPhoneNumber(phone, defaultCountry);
		if ('e164' in reading) return reading.e164;
		context.addIssue({ code: 'custom', message: reading.problem });
		return z.NEVER;
	});
}

/** One schema per Default Country: a file of 100,000 rows builds it once. */
const PHONE_SCHEMAS = new Map<string, ReturnType<typeof phoneSchema>>();

/** A number given in international form: From Number, and any phone read without a Default Country. */
export const E164 = phoneNumber();

const COUNTRY_EXPECTED =
	"must be a country of the node's numbering table, as its ISO 3166 code like GB or US (docs/forms.md lists them)";
/** The Default Country of national phone numbers: a table's country in upper case, or undefined (none). */
const DEFAULT_COUNTRY = z.preprocess(
	(value) => (value === undefined || value === null ? '' : value),
	text(COUNTRY_EXPECTED)
		.transform((country) => country.toUpperCase())
		.refine((country) => country === '' || planOfCountry(country) !== undefined, COUNTRY_EXPECTED)
		.transform((country) => country || undefined),
);

/** A Default Country as read: a country of the table, none, or what is wrong with it. */
export type DefaultCountryReading = { country?: string } | { problem: string };

/**
 * The Default Country parameter of an item, checked: the country, or the problem worded as the
 * forms word it (the field named, what is expected, what was given), for the caller to refuse the
 * item or the row with.
 */
export function readDefaultCountry(value: unknown): DefaultCountryReading {
	const parsed = DEFAULT_COUNTRY.safeParse(value);
	if (parsed.success) return { country: parsed.data };
	return { problem: `Default Country: ${parsed.error.issues[0].message} (got ${shown(value)})` };
}

/** The item's Default Country; an item whose Default Country is no country of the table fails, naming the field. */
export function defaultCountryOf(
	context: IExecuteFunctions,
	itemIndex: number,
): string | undefined {
	const read = readDefaultCountry(context.getNodeParameter('defaultCountry', itemIndex, ''));
	return 'problem' in read ? failItem(context, itemIndex, [read.problem]) : read.country;
}

const ZONE_EXPECTED = 'must be an IANA time zone, like Europe/Madrid or America/New_York';
export const IANA_ZONE = text(ZONE_EXPECTED).refine(isTimeZone, ZONE_EXPECTED);

export const NON_EMPTY = text('must be text, not empty').min(1, 'must not be empty');

const URL_EXPECTED = 'must be a URL starting with http:// or https://';
export const HTTP_URL = text(URL_EXPECTED).regex(/^https?:\/\/\S+$/i, URL_EXPECTED);

/** A numeric string from an expression ("1.5") read as the number it spells; anything else as is. */
function numericStringAsNumber(value: unknown): unknown {
	return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
		? Number(value)
		: value;
}

/**
 * A number between optional bounds (inclusive), with one message that states the whole rule,
 * e.g. `numberWithin(0.5, 2, 'must be a number from 0.5 to 2')`.
 */
export function numberWithin(min: number | undefined, max: number | undefined, expected: string) {
	return z.preprocess(
		numericStringAsNumber,
		z
			.number({ message: expected })
			.finite(expected)
			.refine((n) => (min === undefined || n >= min) && (max === undefined || n <= max), expected),
	);
}

export const NUMBER = numberWithin(undefined, undefined, 'must be a number');

export function isTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** A readable account of what a value was, for error messages (short, never a secret). */
function shown(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
	return shortened(text);
}

function valueAt(input: unknown, path: Array<string | number>): unknown {
	return path.reduce<unknown>(
		(v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
		input,
	);
}

/**
 * Validate the parameters of one item. `labels` maps parameter names to the names the user sees,
 * so the error names the item, the field and what is expected.
 */
export function validateItem<T extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	schema: T,
	input: unknown,
	itemIndex: number,
	labels: Record<string, string> = {},
): z.infer<T> {
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	const problems = result.error.issues.map((issue) => {
		const [top, ...rest] = issue.path;
		const label = labels[String(top)] ?? String(top ?? 'value');
		const field = rest.length ? `${label} → ${rest.join(' → ')}` : label;
		return `${field}: ${issue.message} (got ${shown(valueAt(input, issue.path))})`;
	});
	return failItem(context, itemIndex, problems);
}

/** Problems listed in an error's description; a list of 20,000 bad entries must not make a 20,000-line error. */
const PROBLEMS_LISTED = 10;

export function failItem(context: IExecuteFunctions, itemIndex: number, problems: string[]): never {
	const listed = problems.slice(0, PROBLEMS_LISTED);
	const more = problems.length - listed.length;
	throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${problems[0]}`, {
		itemIndex,
		description:
			problems.length > 1
				? `All problems in item ${itemIndex}:\n- ${listed.join('\n- ')}${more ? `\n- and ${more} more of the same kind` : ''}`
				: undefined,
	});
}

const EMAIL_EXPECTED = 'must be an email address, like ana@example.com';
export const EMAIL = text(EMAIL_EXPECTED).regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, EMAIL_EXPECTED);
