import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { readPhoneNumber } from '../../shared/phoneNumbers';
import type { DefaultCountryReading } from '../../shared/validation';
import { UUID_REGEX } from '../../shared/text';
import { shortened } from '../../transport/text';

/**
 * The rules of `POST /v1/events` that the API reference fixes, as the node reads them. The node
 * checks them before sending, so that a row the service would answer `invalid` (or `rejected`
 * for `no_identity`) is answered the same way without spending a request. This is the node's own
 * reading of the reference: the simulator has its own, and a test feeds both the same events.
 *
 * Where the reference is silent, these rules stay lenient: a row the node lets through is still
 * answered by the service, while a row the node wrongly refused would be lost.
 */
export const EVENT_LIMITS = {
	eventsPerRequest: 100,
	nameMaxLength: 40,
	idMaxLength: 200,
	paramsMaxLength: 32_000,
	phoneMinDigits: 7,
	earliestOccurredAt: Date.UTC(2000, 0, 1),
	futureMs: 24 * 60 * 60 * 1000,
	/** The service's clock and this machine's differ: near the future bound, let the service decide. */
	clockSkewMs: 5 * 60 * 1000,
};

export const RESERVED_NAME_PREFIX = 'cs_';

export type EventStatus =
	| 'created'
	| 'pending'
	| 'unresolved'
	| 'duplicate'
	| 'rejected'
	| 'invalid'
	/** Validate Only: the row passed the node's checks and would have been sent. */
	| 'valid';

/** One event's answer, as the service gives it in `results` (without its batch `index`). */
export interface EventResult extends IDataObject {
	event_id: string | null;
	event_name?: string;
	original_event_name?: string;
	status: EventStatus;
	reason?: string;
	errors?: string[];
}

/** What the node decided about one event before sending anything. */
export type Verdict =
	| {
			send: true;
			event: IDataObject;
			anonymous: boolean;
			eventName: string;
			occurredAtUtc?: string;
	  }
	| { send: false; result: EventResult };

const ZONE_DESIGNATOR = /(Z|[+-]\d{2}(:?\d{2})?)$/i;
const IDENTIFIERS = ['contact_id', 'external_id', 'phone', 'email'];

/**
 * Accents dropped; words split on capitals, spaces, hyphens and dots; lowercase joined by
 * underscores. Underscores also separate words, so a name already in snake_case is unchanged.
 * Reference silent on other characters: they are dropped (`Sign-up!` → `sign_up`).
 */
export function normalizeEventName(raw: string): string {
	// a long name (a file's runaway cell) is normalized but not kept: the memory holds short names only
	if (raw.length > NAME_REMEMBERED_MAX_LENGTH) return normalized(raw);
	let name = normalizedNames.get(raw);
	if (name === undefined) {
		// a file or a batch repeats a few names many times: each is normalized once
		if (normalizedNames.size >= NAMES_REMEMBERED) normalizedNames.clear();
		normalizedNames.set(raw, (name = normalized(raw)));
	}
	return name;
}

const NAMES_REMEMBERED = 1_000;
const NAME_REMEMBERED_MAX_LENGTH = 200;
const normalizedNames = new Map<string, string>();

function normalized(raw: string): string {
	return raw
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.replace(/(\p{Ll}|\d)(\p{Lu})/gu, '$1 $2')
		.replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
		.split(/[\s\-._]+/)
		.map((word) => word.toLowerCase().replace(/[^a-z0-9]/g, ''))
		.filter((word) => word !== '')
		.join('_');
}

/** What is wrong with a normalized name; empty when the service accepts it. */
export function eventNameErrors(name: string): string[] {
	if (!/^[a-z]/.test(name))
		return [
			`event_name must start with a letter once normalized to snake_case (got "${shortened(name, 80)}")`,
		];
	const errors: string[] = [];
	if (name.length > EVENT_LIMITS.nameMaxLength) {
		errors.push(
			`event_name must be at most ${EVENT_LIMITS.nameMaxLength} characters once normalized (got ${name.length}: "${shortened(name, 80)}")`,
		);
	}
	if (name.startsWith(RESERVED_NAME_PREFIX)) {
		errors.push(
			`event_name must not start with "${RESERVED_NAME_PREFIX}": the service keeps that prefix for the events it records itself`,
		);
	}
	return errors;
}

/** `null` and a missing field mean the same: not given. */
function given(value: unknown): boolean {
	return value !== undefined && value !== null;
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The trimmed event_id; a blank one counts as none (a blank spreadsheet cell is not an id). */
export function eventIdOf(event: IDataObject): unknown {
	const raw = event.event_id;
	if (typeof raw !== 'string') return raw;
	const trimmed = raw.trim();
	return trimmed === '' ? undefined : trimmed;
}

/** An event with only a session_id is anonymous: it draws on the extra anonymous budget. */
export function isAnonymous(event: IDataObject): boolean {
	return given(event.session_id) && !hasContactIdentifier(event.contact);
}

function hasContactIdentifier(contact: unknown): boolean {
	return isObject(contact) && IDENTIFIERS.some((field) => given(contact[field]));
}

/**
 * Check one event against the reference. A valid event comes back ready to send (its event_id
 * trimmed, a blank one removed); any other is answered here, as the service would answer it.
 * With a Default Country the contact's phone is read as every phone field of the node reads it
 * (`shared/phoneNumbers.ts`) and sent in E.164, or the event is `invalid`; without one it is sent
 * as written, the service's own rule (7 digits, compared by the last 10).
 */
export function checkEvent(
	raw: IDataObject,
	now: number,
	phoneCountry?: DefaultCountryReading,
): Verdict {
	const eventId = eventIdOf(raw);
	const event: IDataObject = { ...raw };
	const phoneError = phoneCountry ? readContactPhone(event, phoneCountry) : [];
	if (eventId === undefined) delete event.event_id;
	else event.event_id = eventId as string;

	const errors: string[] = [];
	const result: EventResult = {
		event_id: typeof eventId === 'string' ? eventId : null,
		status: 'invalid',
	};
	if (typeof event.event_name === 'string') {
		const name = normalizeEventName(event.event_name);
		result.event_name = name;
		if (name !== event.event_name) result.original_event_name = event.event_name;
		errors.push(...eventNameErrors(name));
	} else {
		errors.push('event_name is required and must be a string');
	}
	// parsed once here; the derived event ID uses the same instant
	const occurredAt = instantOf(event.occurred_at);
	errors.push(
		...idErrors(event.event_id, 'event_id', true),
		...occurredAtErrors(event.occurred_at, occurredAt, now),
		...phoneError,
		...contactErrors(event.contact),
		...idErrors(event.session_id, 'session_id', true),
		...(given(event.create_contact) && typeof event.create_contact !== 'boolean'
			? ['create_contact must be true or false']
			: []),
		...paramsErrors(event.params),
		...valueErrors(event.value),
		...currencyErrors(event.currency),
		...groupErrors(event.group),
	);
	if (errors.length) return { send: false, result: { ...result, errors } };
	if (!hasContactIdentifier(event.contact) && !given(event.session_id)) {
		const hint = misplacedContactHint(event);
		return {
			send: false,
			result: { ...result, status: 'rejected', reason: 'no_identity', ...(hint ? { hint } : {}) },
		};
	}
	return {
		send: true,
		event,
		anonymous: isAnonymous(event),
		eventName: result.event_name as string,
		occurredAtUtc: occurredAt === undefined ? undefined : new Date(occurredAt).toISOString(),
	};
}

/**
 * A whole event given as JSON with the contact's fields at its top level (`{{ $json }}` on a flat
 * row): the API reads them only under `contact`, so the row has no identity. Said on the row.
 */
function misplacedContactHint(event: IDataObject): string | undefined {
	const flat = IDENTIFIERS.filter((field) => given(event[field]));
	if (!flat.length) return undefined;
	const fields = flat.map((field) => `"${field}"`).join(', ');
	return `${fields} must be inside "contact", e.g. {"event_name": "...", "contact": {"${flat[0]}": "..."}}: the API does not read them at the top level of an event. Map Automatically reads them at the top level of an item.`;
}

function idErrors(value: unknown, field: string, noSpaces: boolean): string[] {
	if (!given(value)) return [];
	if (typeof value !== 'string') return [`${field} must be a string`];
	const errors: string[] = [];
	if (value === '') errors.push(`${field} must not be empty`);
	if (value.length > EVENT_LIMITS.idMaxLength)
		errors.push(
			`${field} must be at most ${EVENT_LIMITS.idMaxLength} characters (got ${value.length})`,
		);
	if (noSpaces && /\s/.test(value)) errors.push(`${field} must not contain spaces`);
	return errors;
}

/** Whether a date-time text names its time zone (no parsing: the rules parse it once). */
export function namesZone(value: string): boolean {
	return ZONE_DESIGNATOR.test(value.trim());
}

/** The UTC form most exports write (`2024-05-01T10:00:00Z`): read without luxon, which costs per row. */
const PLAIN_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/;

/** The instant (epoch ms) of an ISO 8601 date-time that names its time zone, or undefined. */
function instantOf(value: unknown): number | undefined {
	if (typeof value !== 'string' || !namesZone(value)) return undefined;
	const text = value.trim();
	const plain = PLAIN_UTC.exec(text);
	if (plain) {
		const at = Date.parse(text);
		// Date.parse rolls 2024-02-30 over into March; luxon, like the service, calls it invalid
		return Number.isFinite(at) && new Date(at).toISOString().startsWith(plain[1]) ? at : undefined;
	}
	const at = DateTime.fromISO(text, { setZone: true });
	return at.isValid ? at.toMillis() : undefined;
}

function occurredAtErrors(value: unknown, at: number | undefined, now: number): string[] {
	if (!given(value)) return [];
	if (at === undefined)
		return [
			'occurred_at must be an ISO 8601 date-time with a time zone, like 2024-05-01T10:00:00Z',
		];
	if (at < EVENT_LIMITS.earliestOccurredAt)
		return ['occurred_at must be in the year 2000 or later'];
	if (at > now + EVENT_LIMITS.futureMs + EVENT_LIMITS.clockSkewMs) {
		return ['occurred_at must be at most 24 hours in the future'];
	}
	return [];
}

/** The contact's phone in E.164 (on a copy of the contact: the row's own object is not changed), or why it cannot be read. */
function readContactPhone(event: IDataObject, phoneCountry: DefaultCountryReading): string[] {
	const contact = event.contact;
	if (!isObject(contact) || typeof contact.phone !== 'string') return [];
	if ('problem' in phoneCountry) return [phoneCountry.problem];
	// None: the phone is sent as written
	if (phoneCountry.country === undefined) return [];
	const reading = readPhoneNumber(contact.phone, phoneCountry.country);
	if ('problem' in reading)
		return [`contact.phone ${reading.problem} (got "${shortened(contact.phone, 80)}")`];
	event.contact = { ...contact, phone: reading.e164 };
	return [];
}

function contactErrors(contact: unknown): string[] {
	if (!given(contact)) return [];
	if (!isObject(contact)) return ['contact must be an object'];
	const errors = ['contact_id', 'external_id', 'phone', 'email', 'name', 'country']
		.filter((field) => given(contact[field]) && typeof contact[field] !== 'string')
		.map((field) => `contact.${field} must be a string`);
	const { contact_id: contactId, external_id: externalId, phone } = contact;
	if (typeof contactId === 'string' && !UUID_REGEX.test(contactId.trim()))
		errors.push('contact.contact_id must be a UUID');
	if (typeof externalId === 'string')
		errors.push(...idErrors(externalId, 'contact.external_id', false));
	if (typeof phone === 'string' && phone.replace(/\D/g, '').length < EVENT_LIMITS.phoneMinDigits) {
		errors.push(
			`contact.phone must have at least ${EVENT_LIMITS.phoneMinDigits} digits, preferably in international format like +14155550123`,
		);
	}
	return errors;
}

function paramsErrors(params: unknown): string[] {
	if (!given(params)) return [];
	if (!isObject(params)) return ['params must be an object'];
	const length = JSON.stringify(params).length;
	return length > EVENT_LIMITS.paramsMaxLength
		? [`params must be at most ${EVENT_LIMITS.paramsMaxLength} characters as JSON (got ${length})`]
		: [];
}

function valueErrors(value: unknown): string[] {
	if (!given(value) || (typeof value === 'number' && Number.isFinite(value))) return [];
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return [];
	return ['value must be a number or a numeric string such as "19.90"'];
}

function currencyErrors(currency: unknown): string[] {
	if (!given(currency) || (typeof currency === 'string' && /^[A-Z]{3}$/.test(currency))) return [];
	return ['currency must be an ISO 4217 code of three capital letters, such as EUR or USD'];
}

function groupErrors(group: unknown): string[] {
	if (!given(group)) return [];
	if (!isObject(group)) return ['group must be an object with an id'];
	const errors =
		typeof group.id === 'string'
			? idErrors(group.id, 'group.id', false)
			: ['group.id is required and must be a string (the company ID in your system)'];
	if (given(group.name) && typeof group.name !== 'string')
		errors.push('group.name must be a string');
	if (given(group.properties) && !isObject(group.properties))
		errors.push('group.properties must be an object');
	return errors;
}
