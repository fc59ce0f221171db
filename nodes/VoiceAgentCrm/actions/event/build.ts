import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { shortened } from '../../shared/text';
import { failItem } from '../../shared/validation';
import { instantOf, isObject } from './rules';

/**
 * The event of one input item, read from the node's parameters. Only what the user gave is
 * put in the event; the reference's rules are checked afterwards by `checkEvent`. A value the
 * node cannot read at all (JSON that does not parse) fails the item here, naming the field.
 */
export function eventOfItem(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const input = context.getNodeParameter('eventInput', itemIndex, 'fields') as string;
	if (input === 'json') {
		return jsonObject(context, itemIndex, 'Event (JSON)', context.getNodeParameter('eventJson', itemIndex), 'an event object like {"event_name": "purchase", "contact": {"email": "ana@example.com"}}');
	}
	return eventFromFields(context, itemIndex);
}

function eventFromFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const extra = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const event: IDataObject = { event_name: text(context.getNodeParameter('eventName', itemIndex, '')) ?? '' };
	setIf(event, 'event_id', text(extra.eventId));
	setIf(event, 'occurred_at', occurredAt(extra.occurredAt, context.getTimezone()));
	const contact: IDataObject = {};
	setIf(contact, 'contact_id', text(extra.contactId));
	setIf(contact, 'external_id', text(extra.externalId));
	setIf(contact, 'phone', text(context.getNodeParameter('contactPhone', itemIndex, '')));
	setIf(contact, 'email', text(context.getNodeParameter('contactEmail', itemIndex, '')));
	setIf(contact, 'name', text(extra.contactName));
	setIf(contact, 'country', text(extra.contactCountry));
	if (Object.keys(contact).length) event.contact = contact;
	// true is the service's default; only a refusal needs saying
	if (extra.createContact === false) event.create_contact = false;
	setIf(event, 'session_id', text(extra.sessionId));
	setIf(event, 'params', params(context, itemIndex));
	setIf(event, 'value', numeric(extra.value));
	setIf(event, 'currency', text(extra.currency)?.toUpperCase());
	setIf(event, 'group', group(context, itemIndex, extra));
	return event;
}

function setIf(target: IDataObject, key: string, value: unknown): void {
	if (value !== undefined) target[key] = value as IDataObject[string];
}

/** A mapped text: numbers from spreadsheets (a phone, an ID) become text; blank is not given. */
function text(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const result = (typeof value === 'string' ? value : String(value)).trim();
	return result === '' ? undefined : result;
}

/** A numeric text becomes a number; anything else is kept for the rules to answer. */
function numeric(value: unknown): unknown {
	const given = typeof value === 'number' ? value : text(value);
	if (given === undefined || typeof given === 'number') return given;
	return Number.isFinite(Number(given)) ? Number(given) : given;
}

/**
 * A date-time as the API wants it: with its zone. A time written without a zone (a date picker,
 * a spreadsheet cell) is read in the workflow's time zone; text that is no date is kept as is,
 * so that the rules answer it `invalid` like the service would.
 */
function occurredAt(value: unknown, zone: string): string | undefined {
	if (value instanceof Date) return DateTime.fromJSDate(value).toUTC().toISO() ?? undefined;
	if (DateTime.isDateTime(value)) return value.toISO() ?? undefined;
	const raw = text(value);
	if (raw === undefined || instantOf(raw)) return raw;
	const local = DateTime.fromISO(raw, { zone }).isValid ? DateTime.fromISO(raw, { zone }) : DateTime.fromSQL(raw, { zone });
	return local.isValid ? (local.toISO() ?? raw) : raw;
}

function params(context: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	if (context.getNodeParameter('paramsInput', itemIndex, 'keyValue') === 'json') {
		const parsed = jsonObject(context, itemIndex, 'Params (JSON)', context.getNodeParameter('paramsJson', itemIndex, '{}'), 'a JSON object like {"plan": "pro"}');
		return Object.keys(parsed).length ? parsed : undefined;
	}
	const pairs = (context.getNodeParameter('params.param', itemIndex, []) as Array<{ key?: unknown; value?: unknown }>) ?? [];
	const result: IDataObject = {};
	for (const [position, pair] of pairs.entries()) {
		const key = text(pair.key);
		if (key === undefined) failItem(context, itemIndex, [`Params → Param ${position + 1} → Key: must not be empty (got nothing)`]);
		result[key] = (pair.value ?? '') as IDataObject[string];
	}
	return Object.keys(result).length ? result : undefined;
}

function group(context: IExecuteFunctions, itemIndex: number, extra: IDataObject): IDataObject | undefined {
	const id = text(extra.groupId);
	const name = text(extra.groupName);
	const properties =
		extra.groupProperties === undefined
			? {}
			: jsonObject(context, itemIndex, 'Company Properties (JSON)', extra.groupProperties, 'a JSON object like {"industry": "retail"}');
	if (id === undefined) {
		if (name !== undefined || Object.keys(properties).length) {
			failItem(context, itemIndex, ['Company ID: is required when a Company Name or Company Properties are given (got nothing)']);
		}
		return undefined;
	}
	const result: IDataObject = { id };
	setIf(result, 'name', name);
	if (Object.keys(properties).length) result.properties = properties;
	return result;
}

/** A JSON parameter as an object: n8n gives it parsed or as text, depending on how it was set. */
function jsonObject(context: IExecuteFunctions, itemIndex: number, label: string, value: unknown, expected: string): IDataObject {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = value.trim() === '' ? {} : JSON.parse(value);
		} catch (error) {
			failItem(context, itemIndex, [`${label}: must be ${expected}, but it is not valid JSON: ${(error as Error).message} (got ${shortened(value)})`]);
		}
	}
	if (!isObject(parsed)) failItem(context, itemIndex, [`${label}: must be ${expected} (got ${shortened(JSON.stringify(parsed) ?? String(parsed))})`]);
	return parsed;
}
