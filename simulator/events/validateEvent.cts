/**
 * Validation of one event object of `POST /v1/events`. Every rule of the reference's event table
 * and limits is checked; each violation becomes one message that says what to fix, and the event
 * is then answered `invalid` on its own.
 */
import { normalizeEventName } from './eventName.cts';

export const ID_MAX_LENGTH = 200;
export const PARAMS_MAX_LENGTH = 32_000;
export const PHONE_MIN_DIGITS = 7;
export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;
const EARLIEST_OCCURRED_AT = Date.UTC(2000, 0, 1);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The identifying and profile data of `event.contact`. */
export interface ContactData {
	contactId?: string;
	externalId?: string;
	phone?: string;
	email?: string;
	name?: string;
	country?: string;
}

export interface GroupData {
	id: string;
	name?: string;
	properties?: Record<string, unknown>;
}

export interface ParsedEvent {
	eventId: string | null;
	eventName: string;
	occurredAt: string;
	contact: ContactData;
	createContact: boolean;
	sessionId: string | null;
	params: Record<string, unknown>;
	value: number | null;
	currency: string | null;
	group: GroupData | null;
}

export interface EventValidation {
	eventId: string | null;
	/** Absent only when the name was unreadable (not a string). */
	eventName?: string;
	/** Present only when normalization changed the name. */
	originalEventName?: string;
	errors: string[];
	/** Set when `errors` is empty. */
	event?: ParsedEvent;
}

type Json = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decision (reference silent): `null` in an optional field means the same as leaving it out. */
function given(value: unknown): boolean {
	return value !== undefined && value !== null;
}

/** Whether the event carries any of the four identifiers that resolve a contact. */
export function hasContactIdentifier(contact: unknown): boolean {
	return (
		isPlainObject(contact) &&
		['contact_id', 'external_id', 'phone', 'email'].some((field) => given(contact[field]))
	);
}

export function digitsOf(phone: string): string {
	return phone.replace(/\D/g, '');
}

export function validateEvent(raw: unknown, now: number): EventValidation {
	if (!isPlainObject(raw)) {
		return { eventId: null, errors: ['each event must be a JSON object'] };
	}
	const errors: string[] = [];
	const validation: EventValidation = { eventId: readEventId(raw.event_id, errors), errors };
	const eventName = readEventName(raw.event_name, validation);
	const occurredAt = readOccurredAt(raw.occurred_at, now, errors);
	const contact = readContact(raw.contact, errors);
	const sessionId = readSessionId(raw.session_id, errors);
	const params = readParams(raw.params, errors);
	const event: ParsedEvent = {
		eventId: validation.eventId,
		eventName: eventName ?? '',
		occurredAt,
		contact,
		createContact: readCreateContact(raw.create_contact, errors),
		sessionId,
		params: params ?? {},
		value: readValue(raw.value, params?.value, errors),
		currency: readCurrency(raw.currency, params?.currency, errors),
		group: readGroup(raw.group, errors),
	};
	if (errors.length === 0) validation.event = event;
	return validation;
}

function readEventId(raw: unknown, errors: string[]): string | null {
	if (!given(raw)) return null;
	if (typeof raw !== 'string') {
		errors.push('event_id must be a string');
		return null;
	}
	const id = raw.trim();
	if (id.length === 0) errors.push('event_id must not be empty (leave it out instead)');
	if (id.length > ID_MAX_LENGTH)
		errors.push(`event_id must be at most ${ID_MAX_LENGTH} characters (got ${id.length})`);
	if (/\s/.test(id)) errors.push('event_id must not contain spaces');
	return id;
}

function readEventName(raw: unknown, validation: EventValidation): string | undefined {
	if (typeof raw !== 'string') {
		validation.errors.push('event_name is required and must be a string');
		return undefined;
	}
	const normalized = normalizeEventName(raw);
	validation.eventName = normalized.name;
	if (normalized.name !== raw) validation.originalEventName = raw;
	validation.errors.push(...normalized.errors);
	return normalized.name;
}

function readOccurredAt(raw: unknown, now: number, errors: string[]): string {
	const arrival = new Date(now).toISOString();
	if (!given(raw)) return arrival;
	const at = typeof raw === 'string' && ISO_WITH_ZONE.test(raw) ? Date.parse(raw) : NaN;
	if (Number.isNaN(at)) {
		errors.push(
			'occurred_at must be an ISO 8601 date-time with a time zone, e.g. 2024-05-01T10:00:00Z',
		);
		return arrival;
	}
	if (at < EARLIEST_OCCURRED_AT) errors.push('occurred_at must be in the year 2000 or later');
	if (at > now + MAX_FUTURE_MS) errors.push('occurred_at must be at most 24 hours in the future');
	return new Date(at).toISOString();
}

function readContact(raw: unknown, errors: string[]): ContactData {
	if (!given(raw)) return {};
	if (!isPlainObject(raw)) {
		errors.push('contact must be an object');
		return {};
	}
	const contact: ContactData = {
		contactId: optionalString(raw, 'contact_id', 'contact.contact_id', errors),
		externalId: optionalString(raw, 'external_id', 'contact.external_id', errors),
		phone: optionalString(raw, 'phone', 'contact.phone', errors),
		email: optionalString(raw, 'email', 'contact.email', errors),
		name: optionalString(raw, 'name', 'contact.name', errors),
		country: optionalString(raw, 'country', 'contact.country', errors),
	};
	if (contact.contactId !== undefined && !UUID.test(contact.contactId)) {
		errors.push('contact.contact_id must be a UUID');
	}
	if (contact.externalId !== undefined) checkId(contact.externalId, 'contact.external_id', errors);
	if (contact.phone !== undefined) checkPhone(contact.phone, errors);
	// Decision (reference silent): an email must at least look like `name@domain`.
	if (contact.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(contact.email.trim())) {
		errors.push('contact.email must be an email address such as name@example.com');
	}
	return contact;
}

function checkPhone(phone: string, errors: string[]): void {
	// Decision (reference silent): besides digits only the usual formatting characters are allowed.
	if (!/^\+?[\d\s\-().]+$/.test(phone.trim())) {
		errors.push(
			'contact.phone must contain only digits, an optional leading +, spaces, hyphens, dots or parentheses',
		);
	} else if (digitsOf(phone).length < PHONE_MIN_DIGITS) {
		errors.push(
			`contact.phone must have at least ${PHONE_MIN_DIGITS} digits, preferably in international format (+14155550123)`,
		);
	}
}

function checkId(value: string, field: string, errors: string[]): void {
	if (value.length === 0) errors.push(`${field} must not be empty`);
	if (value.length > ID_MAX_LENGTH)
		errors.push(`${field} must be at most ${ID_MAX_LENGTH} characters (got ${value.length})`);
}

function readSessionId(raw: unknown, errors: string[]): string | null {
	if (!given(raw)) return null;
	if (typeof raw !== 'string') {
		errors.push('session_id must be a string');
		return null;
	}
	checkId(raw, 'session_id', errors);
	if (/\s/.test(raw)) errors.push('session_id must not contain spaces');
	return raw;
}

function readCreateContact(raw: unknown, errors: string[]): boolean {
	if (!given(raw)) return true;
	if (typeof raw !== 'boolean') errors.push('create_contact must be a boolean');
	return raw !== false;
}

function readParams(raw: unknown, errors: string[]): Json | undefined {
	if (!given(raw)) return undefined;
	if (!isPlainObject(raw)) {
		errors.push('params must be an object');
		return undefined;
	}
	const length = JSON.stringify(raw).length;
	if (length > PARAMS_MAX_LENGTH) {
		errors.push(`params must be at most ${PARAMS_MAX_LENGTH} characters as JSON (got ${length})`);
	}
	return raw;
}

function toNumber(raw: unknown): number | undefined {
	if (typeof raw === 'number') return raw;
	if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)))
		return Number(raw);
	return undefined;
}

/** The outer `value` wins; `params.value` is only a default and, being free-form, never an error. */
function readValue(raw: unknown, fromParams: unknown, errors: string[]): number | null {
	if (!given(raw)) return toNumber(fromParams) ?? null;
	const value = toNumber(raw);
	if (value === undefined)
		errors.push('value must be a number or a numeric string such as "19.90"');
	return value ?? null;
}

function isCurrencyCode(raw: unknown): raw is string {
	return typeof raw === 'string' && /^[A-Z]{3}$/.test(raw);
}

/** The outer `currency` wins; `params.currency` is only a default when it is a valid code. */
function readCurrency(raw: unknown, fromParams: unknown, errors: string[]): string | null {
	if (!given(raw)) return isCurrencyCode(fromParams) ? fromParams : null;
	if (!isCurrencyCode(raw)) {
		errors.push('currency must be an ISO 4217 code of three capital letters, such as EUR or USD');
		return null;
	}
	return raw;
}

function readGroup(raw: unknown, errors: string[]): GroupData | null {
	if (!given(raw)) return null;
	if (!isPlainObject(raw)) {
		errors.push('group must be an object with an id');
		return null;
	}
	if (typeof raw.id !== 'string') {
		errors.push('group.id is required and must be a string (the company id in your system)');
	} else {
		checkId(raw.id, 'group.id', errors);
	}
	const name = optionalString(raw, 'name', 'group.name', errors);
	if (given(raw.properties) && !isPlainObject(raw.properties))
		errors.push('group.properties must be an object');
	const properties = isPlainObject(raw.properties) ? raw.properties : undefined;
	return { id: String(raw.id), name, properties };
}

function optionalString(
	source: Json,
	key: string,
	field: string,
	errors: string[],
): string | undefined {
	const value = source[key];
	if (!given(value)) return undefined;
	if (typeof value !== 'string') {
		errors.push(`${field} must be a string`);
		return undefined;
	}
	return value;
}
