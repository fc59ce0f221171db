/**
 * Field checks shared by the agent and call routes. Each check returns an error message naming the
 * field and what is expected, or `undefined` when the value is acceptable; routes answer the first
 * message as a 400.
 */
export type Check = (field: string, value: unknown) => string | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** E.164: a plus sign, then 8 to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{7,14}$/;

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

export function isE164(value: unknown): value is string {
	return typeof value === 'string' && E164.test(value);
}

export function isIanaZone(value: unknown): value is string {
	if (typeof value !== 'string' || !value.trim()) return false;
	try {
		new Intl.DateTimeFormat(undefined, { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const requiredString: Check = (field, value) =>
	typeof value === 'string' && value.trim()
		? undefined
		: `${field} is required and must be a non-empty string`;

export const optionalString: Check = (field, value) =>
	typeof value === 'string' ? undefined : `${field} must be a string`;

export const uuid: Check = (field, value) =>
	isUuid(value) ? undefined : `${field} must be a UUID`;

export const e164: Check = (field, value) =>
	isE164(value)
		? undefined
		: `${field} must be a phone number in E.164 format (+ then 8 to 15 digits)`;

export const ianaZone: Check = (field, value) =>
	isIanaZone(value) ? undefined : `${field} must be a valid IANA time zone such as Europe/Madrid`;

export const httpUrl: Check = (field, value) => {
	if (typeof value !== 'string') return `${field} must be an http or https URL`;
	try {
		const { protocol } = new URL(value);
		return protocol === 'http:' || protocol === 'https:'
			? undefined
			: `${field} must be an http or https URL`;
	} catch {
		return `${field} must be an http or https URL`;
	}
};

export const finiteNumber: Check = (field, value) =>
	typeof value === 'number' && Number.isFinite(value) ? undefined : `${field} must be a number`;

export function numberInRange(min: number, max: number): Check {
	return (field, value) =>
		typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
			? undefined
			: `${field} must be a number from ${min} to ${max}`;
}

export const nonNegativeNumber: Check = (field, value) =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0
		? undefined
		: `${field} must be a number >= 0`;

export const plainObject: Check = (field, value) =>
	isPlainObject(value) ? undefined : `${field} must be an object`;

export const stringArray: Check = (field, value) =>
	Array.isArray(value) && value.every((item) => typeof item === 'string')
		? undefined
		: `${field} must be an array of strings`;

export const objectArray: Check = (field, value) =>
	Array.isArray(value) && value.every(isPlainObject)
		? undefined
		: `${field} must be an array of objects`;

export function oneOf(values: readonly string[]): Check {
	return (field, value) =>
		typeof value === 'string' && values.includes(value)
			? undefined
			: `${field} must be one of ${values.join(', ')}`;
}

/** Accepts `null` besides what `check` accepts (the reference's "string or null" fields). */
export function nullable(check: Check): Check {
	return (field, value) => (value === null ? undefined : check(field, value));
}

export interface FieldRule {
	check: Check;
	required?: boolean;
}

/**
 * Checks a JSON body against a table of fields. Unknown fields are refused, as a whitelisting
 * service does, so that a client sending a misspelled field learns it instead of being ignored.
 */
export function checkBody(
	body: unknown,
	rules: Record<string, FieldRule>,
	options: { partial?: boolean } = {},
): string | undefined {
	if (!isPlainObject(body)) return 'the body must be a JSON object';
	for (const key of Object.keys(body)) {
		if (!(key in rules)) return `${key} is not an accepted field`;
	}
	for (const [field, rule] of Object.entries(rules)) {
		const value = body[field];
		if (value === undefined) {
			if (rule.required && !options.partial) return `${field} is required`;
			continue;
		}
		const problem = rule.check(field, value);
		if (problem) return problem;
	}
	return undefined;
}

/** `limit` and `offset` of listing endpoints: whole numbers, `limit` from 1 to `maxLimit`. */
export function pageQuery(
	query: Record<string, string>,
	defaults: { limit: number; maxLimit: number },
): { limit: number; offset: number } | string {
	const limit = query.limit === undefined ? defaults.limit : Number(query.limit);
	const offset = query.offset === undefined ? 0 : Number(query.offset);
	if (!Number.isInteger(limit) || limit < 1 || limit > defaults.maxLimit) {
		return `limit must be a whole number from 1 to ${defaults.maxLimit}`;
	}
	if (!Number.isInteger(offset) || offset < 0) return 'offset must be a whole number >= 0';
	return { limit, offset };
}
