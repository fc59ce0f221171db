import { apiError, type SimRequest, type SimResponse } from '../server.cts';

/**
 * Field checks shared by the contact, CRM and messaging routes. A check that fails throws a
 * `RequestFailure`; `answering` turns it into the error answer, so handlers read as the rules
 * they enforce instead of as chains of early returns.
 */
export class RequestFailure extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export function invalid(message: string): RequestFailure {
	return new RequestFailure(400, message);
}

export function notFound(message: string): RequestFailure {
	return new RequestFailure(404, message);
}

export type ErrorBody = (status: number, message: string) => SimResponse;

/** Wrap a handler so that a thrown `RequestFailure` becomes its error answer. */
export function answering(
	handler: (req: SimRequest) => SimResponse,
	errorBody: ErrorBody = apiError,
): (req: SimRequest) => SimResponse {
	return (req) => {
		try {
			return handler(req);
		} catch (error) {
			if (error instanceof RequestFailure) return errorBody(error.status, error.message);
			throw error;
		}
	};
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

/** E.164: a plus sign, a country code that does not start with 0, 7 to 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(value: unknown): value is string {
	return typeof value === 'string' && E164.test(value);
}

export type Body = Record<string, unknown>;

export function objectBody(body: unknown): Body {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw invalid('The request body must be a JSON object');
	}
	return body as Body;
}

/** Unknown fields are rejected so that a misspelt field name does not pass silently. */
export function rejectUnknownFields(body: Body, allowed: readonly string[]): void {
	const unknown = Object.keys(body).filter((field) => !allowed.includes(field));
	if (unknown.length) {
		throw invalid(
			`Unknown field(s): ${unknown.join(', ')}; accepted fields are ${allowed.join(', ')}`,
		);
	}
}

export function optionalString(body: Body, field: string): string | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string') throw invalid(`${field} must be a string`);
	return value;
}

export function requiredString(body: Body, field: string): string {
	const value = body[field];
	if (value === undefined || value === null) throw invalid(`${field} is required`);
	if (typeof value !== 'string') throw invalid(`${field} must be a string`);
	if (!value.trim()) throw invalid(`${field} must not be empty`);
	return value;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'boolean') throw invalid(`${field} must be a boolean (true or false)`);
	return value;
}

export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
	if (typeof value !== 'string' || !allowed.includes(value as T)) {
		throw invalid(`${field} must be one of ${allowed.join(', ')}`);
	}
	return value as T;
}

export function requiredUuid(body: Body, field: string): string {
	const value = requiredString(body, field);
	if (!isUuid(value)) throw invalid(`${field} must be a UUID`);
	return value;
}

export interface Page {
	limit: number;
	offset: number;
}

/** `limit` and `offset` query parameters: whole numbers, `limit` from 1 to `maxLimit`. */
export function pageQuery(
	query: Record<string, string>,
	defaultLimit: number,
	maxLimit?: number,
): Page {
	const limit = wholeNumber(query, 'limit', defaultLimit);
	const offset = wholeNumber(query, 'offset', 0);
	if (limit < 1) throw invalid('limit must be at least 1');
	if (maxLimit !== undefined && limit > maxLimit)
		throw invalid(`limit must be at most ${maxLimit}`);
	return { limit, offset };
}

function wholeNumber(query: Record<string, string>, name: string, fallback: number): number {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	if (!/^\d+$/.test(raw)) throw invalid(`${name} must be a whole number of 0 or more`);
	return Number(raw);
}

export function page<T>(records: T[], { limit, offset }: Page): T[] {
	return records.slice(offset, offset + limit);
}
