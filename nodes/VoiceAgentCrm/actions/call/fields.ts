import { DateTime } from 'luxon';
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { PHONE_INPUT_HINT } from '../../shared/fields';
import { callLocator, locatorValue, timeZoneLocator } from '../../shared/locators';
import { HTTP_URL, IANA_ZONE, NON_EMPTY, numberWithin } from '../../shared/validation';
import { doNotCallField, lawfulHoursField, maxCallsPerPersonField } from './placement/guards';
import { TRACE_PREFIX } from './placement/trace';

/**
 * Fields of the call operations that more than one of them shows, written once: the call ID,
 * and the placement options both Place operations share (schedule, per-call webhook, metadata,
 * additional data).
 */

export const callIdField: INodeProperties = callLocator();

/** The person called by Place AI Call and Run Campaign. */
export const toNumberField: INodeProperties = {
	displayName: 'To Number',
	name: 'toNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +14155550123',
	description:
		'Phone number to call, in international E.164 format: + and country code, e.g. +14155550123',
	hint: PHONE_INPUT_HINT,
};

export const fullNameField: INodeProperties = {
	displayName: 'Full Name',
	name: 'fullName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. John Smith',
	description: 'Name of the person called; the agent uses it in the conversation',
};

function keyValueList(
	displayName: string,
	name: string,
	description: string,
	example: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Entry',
		default: {},
		description,
		options: [
			{
				displayName: 'Entry',
				name: 'entries',
				values: [
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: `e.g. ${example}`,
						description: 'Name of the value',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'The value, as text',
					},
				],
			},
		],
	};
}

export const additionalDataField = keyValueList(
	'Additional Data',
	'additionalData',
	'Facts the agent can use during this call, as key and value, e.g. plan = Premium or appointment = Thursday 10:00',
	'appointment',
);

export const metadataField = keyValueList(
	'Metadata',
	'metadata',
	'Your own data attached to the call and returned with it (the agent does not use it), e.g. an order or ticket ID to match the call later',
	'order_id',
);

const webhookUrlField: INodeProperties = {
	displayName: 'Webhook URL',
	name: 'webhookUrl',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://example.com/call-events',
	description:
		"URL that receives the events of this call only (call started, call ended, transcript ready), besides the agent's own webhook",
};

function scheduleField(extra: string): INodeProperties {
	return {
		displayName: 'Schedule',
		name: 'schedule',
		type: 'fixedCollection',
		placeholder: 'Add Schedule',
		default: {},
		description: `Place the call at a future date and time instead of now.${extra}`,
		options: [
			{
				displayName: 'Schedule',
				name: 'at',
				values: [
					{
						displayName: 'Date and Time',
						name: 'dateTime',
						type: 'dateTime',
						default: '',
						description:
							'When to place the call, read in the time zone below, e.g. 2030-05-01T10:30:00',
					},
					timeZoneLocator(
						"IANA time zone of the date and time, e.g. Europe/Madrid. Leave empty for the workflow's time zone.",
						false,
					),
				],
			},
		],
	};
}

const delayField: INodeProperties = {
	displayName: 'Delay (Minutes)',
	name: 'delay',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Minutes to wait before placing the call, 0 for at once; use either a delay or a schedule',
};

/** The Additional Fields of a Place operation, sorted as the editor shows them. */
function placementOptions(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

const personCountryField: INodeProperties = {
	displayName: 'Country',
	name: 'country',
	type: 'string',
	default: '',
	placeholder: 'e.g. US',
	description: 'Country of the person called, as context for the agent, e.g. US or ES',
};

/** Place AI Call (to a phone number): its optional fields. */
export const phoneCallOptions = placementOptions([
	additionalDataField,
	personCountryField,
	delayField,
	doNotCallField,
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email of the person called, as context for the agent',
	},
	maxCallsPerPersonField,
	metadataField,
	lawfulHoursField,
	scheduleField(''),
	webhookUrlField,
]);

/** Place AI Call to Contact: its optional fields (this route has no delay). */
export const contactCallOptions = placementOptions([
	additionalDataField,
	doNotCallField,
	maxCallsPerPersonField,
	metadataField,
	lawfulHoursField,
	scheduleField(
		' Calls to a contact have no delay option: schedule them for a later time instead.',
	),
	webhookUrlField,
]);

// ---------------------------------------------------------------------------------------------
// Reading and checking the shared placement options

const SCHEDULE_EXPECTED = 'must be a date and time like 2030-05-01T10:30:00 or 2030-05-01 10:30:00';

/** The instant a value names, read in `zone` when it carries no offset of its own. */
export function dateTimeIn(value: unknown, zone: string): DateTime | undefined {
	let parsed: DateTime | undefined;
	if (DateTime.isDateTime(value)) parsed = value.setZone(zone);
	else if (value instanceof Date) parsed = DateTime.fromJSDate(value, { zone });
	else if (typeof value === 'string' && value.trim()) {
		const text = value.trim();
		parsed = DateTime.fromISO(text, { zone });
		if (!parsed.isValid) parsed = DateTime.fromSQL(text, { zone });
	}
	return parsed?.isValid ? parsed : undefined;
}

const keyValueEntries = z.array(
	z.object({
		key: NON_EMPTY,
		// a value from an expression may be a number or a boolean: the API takes text
		value: z.preprocess(
			(value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
			z.string({ message: 'must be text' }),
		),
	}),
);

// the node's trace (placement/trace.ts) writes these keys: a user's own may not displace them
const userMetadataEntries = z.array(
	keyValueEntries.element.refine((entry) => !entry.key.startsWith(TRACE_PREFIX), {
		path: ['key'],
		message: `must not start with ${TRACE_PREFIX}, which the node keeps for its own trace of the call`,
	}),
);

/** The shared options as the user gave them, flattened so that each has its own label. */
export const PLACEMENT_OPTIONS = z.object({
	additionalData: keyValueEntries.optional(),
	metadata: userMetadataEntries.optional(),
	webhookUrl: HTTP_URL.optional(),
	// readable in any zone iff readable in UTC: the zone only places a time without offset
	scheduleTime: z
		.unknown()
		.refine((value) => dateTimeIn(value, 'UTC') !== undefined, SCHEDULE_EXPECTED)
		.optional(),
	scheduleZone: IANA_ZONE.optional(),
});

export const PLACEMENT_LABELS: Record<string, string> = {
	additionalData: 'Additional Data',
	metadata: 'Metadata',
	webhookUrl: 'Webhook URL',
	scheduleTime: 'Schedule → Date and Time',
	scheduleZone: 'Schedule → Time Zone',
	delay: 'Delay (Minutes)',
};

export const DELAY = numberWithin(0, undefined, 'must be a number of minutes, 0 or more');

/**
 * The shared options of the Additional Fields collection, flattened for checking. An empty
 * webhook URL counts as not given; an empty schedule time zone is the workflow's.
 */
export function placementInput(options: IDataObject, workflowZone: string): IDataObject {
	const entries = (name: string) =>
		(options[name] as { entries?: IDataObject[] } | undefined)?.entries;
	const schedule = (options.schedule as { at?: IDataObject } | undefined)?.at;
	const webhookUrl =
		typeof options.webhookUrl === 'string' && !options.webhookUrl.trim()
			? undefined
			: options.webhookUrl;
	return {
		additionalData: entries('additionalData'),
		metadata: entries('metadata'),
		webhookUrl,
		...(schedule
			? {
					scheduleTime: schedule.dateTime ?? '',
					scheduleZone: String(locatorValue(schedule.timezone) ?? '').trim() || workflowZone,
				}
			: {}),
	};
}

/** The API's fields for the checked shared options. */
export function placementBody(input: z.infer<typeof PLACEMENT_OPTIONS>): IDataObject {
	const body: IDataObject = {};
	if (input.additionalData?.length) body.additional_data = input.additionalData;
	if (input.metadata?.length)
		body.metadata = Object.fromEntries(input.metadata.map(({ key, value }) => [key, value]));
	if (input.webhookUrl) body.webhook_url = input.webhookUrl;
	if (input.scheduleZone !== undefined) {
		const at = dateTimeIn(input.scheduleTime, input.scheduleZone)!;
		body.schedule = {
			scheduled_call_time: at.toFormat('yyyy-MM-dd HH:mm:ss'),
			timezone: input.scheduleZone,
		};
	}
	return body;
}
