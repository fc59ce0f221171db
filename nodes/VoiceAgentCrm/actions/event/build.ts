import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { shortened } from '../../transport/text';
import { failItem } from '../../shared/validation';
import { parameterReader, type ParameterReader } from './parameters';
import { isObject, namesZone } from './rules';

/**
 * Reads the event of one input item; only what the user gave is put in the event. `mayFail`: the
 * reader can refuse an item (a JSON parameter that does not parse, an expression that fails), so
 * every item must be read before anything is sent.
 */
export interface EventReader {
	read: (itemIndex: number) => IDataObject;
	mayFail: boolean;
	/** Map Automatically: the fields of the items read that no part of the event reads. */
	notSent?: () => string[];
}

export type EventInput = 'autoMapInputData' | 'fields' | 'json' | 'file';

/**
 * The reader of the chosen mode, with everything fixed for the execution read once here. The
 * reference's rules are checked afterwards by `checkEvent`; a value the node cannot read at all
 * (JSON that does not parse) fails the item here, naming the field.
 */
export function eventReader(context: IExecuteFunctions, items: INodeExecutionData[]): EventReader {
	const input = context.getNodeParameter('eventInput', 0, 'fields') as EventInput;
	if (input === 'autoMapInputData') return automaticReader(context, items);
	const parameter = parameterReader(context, items);
	if (input === 'json') {
		return {
			read: (itemIndex) =>
				jsonObject(
					context,
					itemIndex,
					'Event (JSON)',
					parameter('eventJson', itemIndex, '{}'),
					'an event object like {"event_name": "purchase", "contact": {"email": "ana@example.com"}}',
				),
			mayFail: true,
		};
	}
	const zone = context.getTimezone();
	const paramsAsJson = parameter('paramsInput', 0, 'keyValue') === 'json';
	return {
		read: (itemIndex) => eventFromFields(context, parameter, itemIndex, zone, paramsAsJson),
		mayFail: true,
	};
}

/** The item's own JSON field that holds each part of the event, unless the user names another. */
export const DEFAULT_COLUMNS = {
	eventName: 'event_name',
	eventId: 'event_id',
	occurredAt: 'occurred_at',
	contact: 'contact',
	contactId: 'contact_id',
	externalId: 'external_id',
	phone: 'phone',
	email: 'email',
	contactName: 'name',
	contactCountry: 'country',
	createContact: 'create_contact',
	sessionId: 'session_id',
	params: 'params',
	value: 'value',
	currency: 'currency',
	group: 'group',
};

export type Columns = typeof DEFAULT_COLUMNS;

const CONTACT_FIELDS: Array<[keyof Columns, string]> = [
	['contactId', 'contact_id'],
	['externalId', 'external_id'],
	['phone', 'phone'],
	['email', 'email'],
	['contactName', 'name'],
	['contactCountry', 'country'],
];

/**
 * "Map Automatically": each event read from the item's JSON by field name, no expression per
 * field. The column names are read once per execution.
 */
function automaticReader(context: IExecuteFunctions, items: INodeExecutionData[]): EventReader {
	const columns = automaticColumns(context);
	const read = readFieldNames(columns);
	const zone = context.getTimezone();
	const others = otherFieldsMode(context, 'options');
	const notSent = new Set<string>();
	return {
		read: (itemIndex) => {
			const row = items[itemIndex].json;
			if (others === 'ignore' && notSent.size < NOT_SENT_NAMED)
				for (const key of Object.keys(row)) if (!read.has(key)) notSent.add(key);
			return eventFromRow(row, columns, zone, others, read);
		},
		mayFail: false,
		notSent: () => [...notSent],
	};
}

/** How many names of fields not sent a run collects for its hint. */
const NOT_SENT_NAMED = 100;

/** Fields (or columns) Map Automatically does not read: left out, or sent as the event's params. */
export type OtherFields = 'ignore' | 'params';

function otherFieldsMode(context: IExecuteFunctions, collection: string): OtherFields {
	const options = context.getNodeParameter(collection, 0, {}) as { otherFields?: OtherFields };
	return options.otherFields ?? 'ignore';
}

/** The contact's name when no Contact Name Field is named: `name`, else `full_name` (the API's own word), else first and last name. */
const NAME_ALIASES = ['full_name', 'first_name', 'last_name'];

/** Every field name Map Automatically reads with these columns; the others are "other fields". */
export function readFieldNames(columns: Columns): Set<string> {
	const names = new Set(Object.values(columns).filter((name) => name !== ''));
	if (namesByDefault(columns)) for (const alias of NAME_ALIASES) names.add(alias);
	return names;
}

function namesByDefault(columns: Columns): boolean {
	return columns.contactName === DEFAULT_COLUMNS.contactName || columns.contactName === '';
}

/** The field (or file column) that holds each part of the event: its own name, or the one the user gave. */
export function automaticColumns(context: IExecuteFunctions): Columns {
	const renamed = context.getNodeParameter('columnNames', 0, {}) as Partial<
		Record<keyof Columns, string>
	>;
	const columns: Columns = { ...DEFAULT_COLUMNS };
	const named = new Set<string>();
	for (const key of Object.keys(columns) as Array<keyof Columns>) {
		const name = text(renamed[key]);
		if (name !== undefined) {
			columns[key] = name;
			named.add(key);
		}
	}
	// a field the user named for one part is not also read for another by its default name
	// (Event Name Field "name" must not make "name" the contact's name too)
	for (const key of Object.keys(columns) as Array<keyof Columns>) {
		if (
			!named.has(key) &&
			[...named].some((other) => columns[other as keyof Columns] === columns[key])
		)
			columns[key] = '';
	}
	return columns;
}

/** A field of the row only if the row has it: `constructor` or `toString` are not inherited functions. */
function own(row: IDataObject | undefined, key: string): unknown {
	return row !== undefined && key !== '' && Object.prototype.hasOwnProperty.call(row, key)
		? row[key]
		: undefined;
}

/** Never fails: what the node cannot read is kept for the rules to answer on the row's own item. */
export function eventFromRow(
	row: IDataObject,
	columns: Columns,
	zone: string,
	others: OtherFields = 'ignore',
	read?: Set<string>,
): IDataObject {
	const event: IDataObject = {};
	setIf(event, 'event_name', text(own(row, columns.eventName)));
	setIf(event, 'event_id', text(own(row, columns.eventId)));
	setIf(event, 'occurred_at', occurredAt(own(row, columns.occurredAt), zone));
	setIf(event, 'contact', contactOfRow(row, columns));
	// a spreadsheet writes FALSE
	const createContact = own(row, columns.createContact);
	if (createContact === false || text(createContact)?.toLowerCase() === 'false')
		event.create_contact = false;
	setIf(event, 'session_id', text(own(row, columns.sessionId)));
	const params = objectCell(own(row, columns.params));
	setIf(
		event,
		'params',
		others === 'params' ? withOtherFields(row, params, read ?? readFieldNames(columns)) : params,
	);
	setIf(event, 'value', numeric(own(row, columns.value)));
	setIf(event, 'currency', text(own(row, columns.currency))?.toUpperCase());
	setIf(event, 'group', objectCell(own(row, columns.group)));
	return event;
}

/** The row's fields no column reads, as params; the params column's own keys win. */
function withOtherFields(row: IDataObject, params: unknown, read: Set<string>): unknown {
	if (params !== undefined && !isObject(params)) return params;
	const merged: IDataObject = {};
	for (const key of Object.keys(row)) {
		const value = row[key];
		if (read.has(key) || value === undefined || value === null || value === '') continue;
		merged[key] = value;
	}
	if (params) for (const key of Object.keys(params)) merged[key] = params[key];
	return Object.keys(merged).length ? merged : undefined;
}

/** An object, or JSON text of one (a file's cell); a blank cell is not given; anything else is kept for the rules. */
function objectCell(value: unknown): unknown {
	if (value === undefined || value === null || value === '') return undefined;
	return typeof value === 'string' ? parsedOrText(value) : value;
}

/** The contact from a `contact` object, its fields at the top level of the row filling the gaps. */
function contactOfRow(row: IDataObject, columns: Columns): unknown {
	const nested = objectCell(own(row, columns.contact)) as IDataObject | undefined;
	// not an object: kept for the rules to answer `invalid` like the service would
	if (nested !== undefined && nested !== null && !isObject(nested)) return nested;
	const contact: IDataObject = {};
	for (const [column, field] of CONTACT_FIELDS) {
		setIf(contact, field, text(own(nested, field) ?? own(row, columns[column])));
	}
	if (contact.name === undefined && namesByDefault(columns)) setIf(contact, 'name', aliasName(row));
	return Object.keys(contact).length ? contact : undefined;
}

/** `full_name`, or `first_name` and `last_name` joined, as CRM exports name the person. */
function aliasName(row: IDataObject): string | undefined {
	return (
		text(own(row, 'full_name')) ??
		text([text(own(row, 'first_name')), text(own(row, 'last_name'))].filter(Boolean).join(' '))
	);
}

function eventFromFields(
	context: IExecuteFunctions,
	parameter: ParameterReader,
	itemIndex: number,
	zone: string,
	paramsAsJson: boolean,
): IDataObject {
	const extra = parameter('additionalFields', itemIndex, {}) as IDataObject;
	const event: IDataObject = { event_name: text(parameter('eventName', itemIndex, '')) ?? '' };
	setIf(event, 'event_id', text(extra.eventId));
	setIf(event, 'occurred_at', occurredAt(extra.occurredAt, zone));
	const contact: IDataObject = {};
	setIf(contact, 'contact_id', text(extra.contactId));
	setIf(contact, 'external_id', text(extra.externalId));
	setIf(contact, 'phone', text(parameter('contactPhone', itemIndex, '')));
	setIf(contact, 'email', text(parameter('contactEmail', itemIndex, '')));
	setIf(contact, 'name', text(extra.contactName));
	setIf(contact, 'country', text(extra.contactCountry));
	if (Object.keys(contact).length) event.contact = contact;
	// true is the service's default; only a refusal needs saying
	if (extra.createContact === false) event.create_contact = false;
	setIf(event, 'session_id', text(extra.sessionId));
	setIf(event, 'params', params(context, parameter, itemIndex, paramsAsJson));
	setIf(event, 'value', numeric(extra.value));
	setIf(event, 'currency', text(extra.currency)?.toUpperCase());
	setIf(event, 'group', group(context, itemIndex, extra));
	return event;
}

/** JSON text as what it holds; text that is no JSON stays text (the rules answer `params must be an object`). */
function parsedOrText(value: string): unknown {
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
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
	if (raw === undefined || namesZone(raw)) return raw;
	const local = DateTime.fromISO(raw, { zone }).isValid
		? DateTime.fromISO(raw, { zone })
		: DateTime.fromSQL(raw, { zone });
	return local.isValid ? (local.toISO() ?? raw) : raw;
}

function params(
	context: IExecuteFunctions,
	parameter: ParameterReader,
	itemIndex: number,
	asJson: boolean,
): IDataObject | undefined {
	if (asJson) {
		const parsed = jsonObject(
			context,
			itemIndex,
			'Params (JSON)',
			parameter('paramsJson', itemIndex, '{}'),
			'a JSON object like {"plan": "pro"}',
		);
		return Object.keys(parsed).length ? parsed : undefined;
	}
	const pairs =
		(parameter('params.param', itemIndex, []) as Array<{ key?: unknown; value?: unknown }>) ?? [];
	const result: IDataObject = {};
	for (const [position, pair] of pairs.entries()) {
		const key = text(pair.key);
		if (key === undefined)
			failItem(context, itemIndex, [
				`Params → Param ${position + 1} → Key: must not be empty (got nothing)`,
			]);
		result[key] = (pair.value ?? '') as IDataObject[string];
	}
	return Object.keys(result).length ? result : undefined;
}

function group(
	context: IExecuteFunctions,
	itemIndex: number,
	extra: IDataObject,
): IDataObject | undefined {
	const id = text(extra.groupId);
	const name = text(extra.groupName);
	const properties =
		extra.groupProperties === undefined
			? {}
			: jsonObject(
					context,
					itemIndex,
					'Company Properties (JSON)',
					extra.groupProperties,
					'a JSON object like {"industry": "retail"}',
				);
	if (id === undefined) {
		if (name !== undefined || Object.keys(properties).length) {
			failItem(context, itemIndex, [
				'Company ID: is required when a Company Name or Company Properties are given (got nothing)',
			]);
		}
		return undefined;
	}
	const result: IDataObject = { id };
	setIf(result, 'name', name);
	if (Object.keys(properties).length) result.properties = properties;
	return result;
}

/** A JSON parameter as an object: n8n gives it parsed or as text, depending on how it was set. */
function jsonObject(
	context: IExecuteFunctions,
	itemIndex: number,
	label: string,
	value: unknown,
	expected: string,
): IDataObject {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = value.trim() === '' ? {} : JSON.parse(value);
		} catch (error) {
			failItem(context, itemIndex, [
				`${label}: must be ${expected}, but it is not valid JSON: ${(error as Error).message} (got ${shortened(value)})`,
			]);
		}
	}
	if (!isObject(parsed))
		failItem(context, itemIndex, [
			`${label}: must be ${expected} (got ${shortened(JSON.stringify(parsed) ?? String(parsed))})`,
		]);
	return parsed;
}
