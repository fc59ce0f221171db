import type { INodeProperties } from 'n8n-workflow';

import { defaultCountryField } from '../../shared/fields';
import { validateOnlyOption } from './validateOnly';

const fromFields = { show: { eventInput: ['fields'] } };
const automatic = { show: { eventInput: ['autoMapInputData'] } };
const byColumnName = { show: { eventInput: ['autoMapInputData', 'file'] } };
const fromFile = { show: { eventInput: ['file'] } };
const fromItems = { hide: { eventInput: ['file'] } };

/** One optional column name per part of the event, for "Map Automatically". */
function columnName(
	displayName: string,
	name: string,
	field: string,
	description = '',
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: `e.g. ${displayName.replace(/ Field$/, '')}`,
		description: `Name of the input field that holds ${description || `the event's ${field}`}. Leave empty to read "${field}".`,
	};
}

/** The fields of Event → Send. Each input item is one event. */
export const sendFields: INodeProperties[] = [
	{
		displayName:
			'Each input item is one event. Items are sent 100 per request, and each output item holds the result of the event of the same input item.',
		name: 'batchNotice',
		type: 'notice',
		default: '',
		displayOptions: fromItems,
	},
	{
		displayName:
			'Running the workflow again stores an event again unless it has an Event ID, or an Occurred At for Options → Derive Missing Event IDs to make one from. Give every event one of them to make re-runs safe.',
		name: 'rerunNotice',
		type: 'notice',
		default: '',
		displayOptions: fromItems,
	},
	{
		displayName:
			'Each row of the file is one event, read by column name. The file is read as it is sent, 100 rows per request, and the output is one summary item per file: counts per status and the rows not accepted, with their row numbers.',
		name: 'fileNotice',
		type: 'notice',
		default: '',
		displayOptions: fromFile,
	},
	{
		displayName: 'Define Event Using',
		name: 'eventInput',
		type: 'options',
		noDataExpression: true,
		// "fields" stays the default: saved workflows that never set this parameter keep it, and
		// n8n's own bulk nodes (Postgres, Google Sheets) also start on manual mapping
		options: [
			{
				name: 'Map Automatically',
				value: 'autoMapInputData',
				description:
					"Read each event from the input item's fields by name (event_name, event_id, contact_id, external_id, session_id and the others listed below). The fastest way for many items.",
			},
			{
				name: 'Map Each Field Below',
				value: 'fields',
				description: 'Map each part of the event from the input item, with an expression per field',
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'Give the whole event as one JSON object, e.g. when the items already are events',
			},
			{
				name: 'Rows of a File (CSV or NDJSON)',
				value: 'file',
				description:
					'Read each event from a row of a file of the input item, by column name as Map Automatically reads fields. For exports of any size: the file is read as a stream and the output stays one summary per file.',
			},
		],
		default: 'fields',
	},
	{
		displayName:
			'Each item is read by field name: event_name (required), event_id, occurred_at, a contact object or its fields at the top level (email, phone, contact_id, external_id, name, country), create_contact, session_id, params, value, currency, group. Name your own fields under Field Names.',
		name: 'automaticNotice',
		type: 'notice',
		default: '',
		displayOptions: automatic,
	},
	{
		displayName: 'Field Names',
		name: 'columnNames',
		type: 'collection',
		placeholder: 'Add Field Name',
		default: {},
		description:
			'Where your items or columns name a part of the event differently. Read once per execution, not per item.',
		displayOptions: byColumnName,
		options: [
			columnName('Company Field', 'group', 'group', 'the company (its ID, name and properties)'),
			columnName('Contact Country Field', 'contactCountry', 'country', "the contact's country"),
			columnName('Contact Field', 'contact', 'contact', 'the contact object'),
			columnName('Contact ID Field', 'contactId', 'contact_id', "the contact's ID"),
			columnName('Contact Name Field', 'contactName', 'name', "the contact's full name"),
			columnName(
				'Create Contact Field',
				'createContact',
				'create_contact',
				'whether to create a missing contact (true or false)',
			),
			columnName('Currency Field', 'currency', 'currency'),
			columnName('Email Field', 'email', 'email', "the contact's email"),
			columnName('Event ID Field', 'eventId', 'event_id'),
			columnName('Event Name Field', 'eventName', 'event_name'),
			columnName(
				'External ID Field',
				'externalId',
				'external_id',
				"the contact's ID in your system",
			),
			columnName(
				'Occurred At Field',
				'occurredAt',
				'occurred_at',
				"when the event happened (a time without a zone is read in the workflow's time zone)",
			),
			columnName('Params Field', 'params', 'params', "the event's params (an object or JSON text)"),
			columnName('Phone Field', 'phone', 'phone', "the contact's phone"),
			columnName('Session ID Field', 'sessionId', 'session_id'),
			columnName('Value Field', 'value', 'value'),
		],
	},
	{
		displayName: 'Event (JSON)',
		name: 'eventJson',
		type: 'json',
		required: true,
		default: '',
		placeholder:
			'{\n  "event_name": "Purchase Completed",\n  "contact": { "email": "ana@example.com" }\n}',
		description:
			'The whole event. Items that already are events: map the whole item. Fields: event_name (required), event_id, occurred_at, contact, create_contact, session_id, params, value, currency, group.',
		displayOptions: { show: { eventInput: ['json'] } },
	},
	{
		displayName: 'Event Name',
		name: 'eventName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Purchase Completed',
		description:
			'What happened. The service stores it in lower case with underscores ("Purchase Completed" becomes purchase_completed), which must start with a letter, be at most 40 characters and not start with cs_.',
		displayOptions: fromFields,
	},
	{
		displayName:
			'Each event needs a contact ID, external ID, phone or email of the contact, or a session ID for a visitor not identified yet. Events without any of them are answered "rejected" (no_identity) and not sent.',
		name: 'identityNotice',
		type: 'notice',
		default: '',
		displayOptions: fromFields,
	},
	{
		displayName: 'Contact Email',
		name: 'contactEmail',
		type: 'string',
		placeholder: 'e.g. ana@example.com',
		default: '',
		description:
			'Email of the contact the event belongs to, e.g. ana@example.com. Compared without regard to case. Leave empty if not known.',
		displayOptions: fromFields,
	},
	{
		displayName: 'Contact Phone',
		name: 'contactPhone',
		type: 'string',
		placeholder: 'e.g. +14155550123',
		default: '',
		description:
			'Phone number of the contact, e.g. +14155550123: at least 7 digits, preferably in international format. Compared by its last 10 digits; a phone wins over an email that points to another contact. Leave empty if not known.',
		displayOptions: fromFields,
	},
	{
		...defaultCountryField,
		description:
			"Country of the contact's phone when written without + and country code. Chosen, every phone is read as Place AI Call reads one and sent in E.164 (one that cannot be read is answered invalid); with None phones are sent as written.",
	},
	{
		displayName: 'Params Input',
		name: 'paramsInput',
		type: 'options',
		options: [
			{ name: 'Key-Value Pairs', value: 'keyValue' },
			{ name: 'JSON', value: 'json' },
		],
		default: 'keyValue',
		description:
			"How to give the event's params: free data stored with the event (only top-level keys can filter and split reports)",
		displayOptions: fromFields,
	},
	{
		displayName: 'Params',
		name: 'params',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Param',
		default: {},
		description:
			'Free data stored with the event, e.g. plan = pro. At most 32,000 characters as JSON.',
		options: [
			{
				displayName: 'Param',
				name: 'param',
				values: [
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'e.g. plan',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. pro',
					},
				],
			},
		],
		displayOptions: { show: { eventInput: ['fields'], paramsInput: ['keyValue'] } },
	},
	{
		displayName: 'Params (JSON)',
		name: 'paramsJson',
		type: 'json',
		default: '{}',
		description:
			'Free data stored with the event as a JSON object, e.g. {"plan": "pro", "items": 3}. At most 32,000 characters.',
		displayOptions: { show: { eventInput: ['fields'], paramsInput: ['json'] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: fromFields,
		options: [
			{
				displayName: 'Company ID',
				name: 'groupId',
				type: 'string',
				default: '',
				description:
					"ID of the contact's company in your system (not its name), up to 200 characters. The first event with it creates the company and links the contact.",
			},
			{
				displayName: 'Company Name',
				name: 'groupName',
				type: 'string',
				default: '',
				description: 'Name of the company; needs a Company ID',
			},
			{
				displayName: 'Company Properties (JSON)',
				name: 'groupProperties',
				type: 'json',
				default: '{}',
				description: 'Properties added to the company, as a JSON object; needs a Company ID',
			},
			{
				displayName: 'Contact Country',
				name: 'contactCountry',
				type: 'string',
				default: '',
				description: 'Country of the contact; used only when the event creates the contact',
			},
			{
				displayName: 'Contact ID',
				name: 'contactId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d',
				description: 'ID of an existing contact. Tried first when finding the contact.',
			},
			{
				displayName: 'Contact Name',
				name: 'contactName',
				type: 'string',
				default: '',
				description: 'Full name of the contact; used only when the event creates the contact',
			},
			{
				displayName: 'Create Contact',
				name: 'createContact',
				type: 'boolean',
				default: true,
				description:
					'Whether to create a contact when no contact matches the phone or email. When off, such events are stored without a contact (unresolved, not_found).',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				placeholder: 'e.g. EUR',
				description:
					"ISO 4217 code of the value's currency (three letters, made capital). Default is params.currency.",
			},
			{
				displayName: 'Event ID',
				name: 'eventId',
				type: 'string',
				default: '',
				placeholder: 'e.g. order-10042',
				description:
					'Your unique ID for this event (up to 200 characters, no spaces), the same on every retry. An event whose ID was already stored is answered "duplicate" and not stored again. When empty, see Options → Derive Missing Event IDs.',
			},
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				placeholder: 'e.g. crm-58211',
				description:
					"The contact's ID in your system, up to 200 characters. Linked to the contact the first time it comes with a phone or email that finds the contact.",
			},
			{
				displayName: 'Occurred At',
				name: 'occurredAt',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-05-01T10:00:00Z',
				description:
					"When it happened, e.g. 2026-03-01T14:30:00Z, from the year 2000 up to 24 hours ahead. A time without a zone is read in the workflow's time zone. Default: when the service receives it.",
			},
			{
				displayName: 'Session ID',
				name: 'sessionId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 6c1f0a52-0d5e-4a7e-9b7b-1f6d2e3c4b5a',
				description:
					'Visit ID (kept by the browser, or a web-analytics client ID), never personal data; up to 200 characters, no spaces. Without contact data the event waits until the session is identified; with contact data it identifies it.',
			},
			{
				displayName: 'Value',
				name: 'value',
				type: 'string',
				default: '',
				placeholder: 'e.g. 19.90',
				description: 'Amount of the event, a number. Default is params.value.',
			},
		],
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the file to be read',
		displayOptions: fromFile,
	},
	{
		displayName: 'File Format',
		name: 'fileFormat',
		type: 'options',
		options: [
			{
				name: 'CSV',
				value: 'csv',
				description: 'Comma-separated values with a header row (RFC 4180)',
			},
			{
				name: 'NDJSON',
				value: 'ndjson',
				description: 'One JSON object per line (also called JSON Lines)',
			},
		],
		default: 'csv',
		displayOptions: fromFile,
	},
	{
		displayName: 'Delimiter',
		name: 'csvDelimiter',
		type: 'options',
		options: [
			{ name: 'Comma (,)', value: ',' },
			{ name: 'Semicolon (;)', value: ';' },
			{ name: 'Tab', value: '\t' },
			{ name: 'Pipe (|)', value: '|' },
		],
		default: ',',
		description: 'The character between the fields of a row',
		displayOptions: { show: { eventInput: ['file'], fileFormat: ['csv'] } },
	},
	{
		displayName: 'Options',
		name: 'fileOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: fromFile,
		options: [
			{
				displayName: 'Derive Event IDs',
				name: 'deriveEventIds',
				type: 'options',
				options: [
					{
						name: 'From Each Row',
						value: 'always',
						description:
							'A row without an Event ID gets one made from its content, not its place: a re-run, or a new export of the same rows in any order or with rows added, stores no row twice. Identical rows without an Occurred At count as that many events; identical rows with the same Occurred At, as one.',
					},
					{
						name: 'Never',
						value: 'never',
						description:
							'Rows without an Event ID are sent without one: a re-run stores them again, and a failed request is not repeated',
					},
				],
				default: 'always',
				description:
					'Whether to give a row that has no Event ID a stable one. An Event ID in the file always wins.',
			},
			{
				displayName: 'Encoding',
				name: 'encoding',
				type: 'options',
				options: [
					{
						name: 'Auto-Detect',
						value: 'auto',
						description:
							'A byte order mark says UTF-8 or UTF-16; without one the file must be UTF-8, and a file that is not is refused before anything is sent, naming the encoding it looks like',
					},
					{ name: 'ISO-8859-1 (Latin-1)', value: 'iso-8859-1' },
					{ name: 'UTF-16 BE', value: 'utf-16be' },
					{
						name: 'UTF-16 LE',
						value: 'utf-16le',
						description: 'What Excel saves as "Unicode Text"',
					},
					{ name: 'UTF-8', value: 'utf-8' },
					{
						name: 'Windows-1252',
						value: 'windows-1252',
						description: 'What Excel on Windows saves as "CSV (Comma delimited)"',
					},
				],
				default: 'auto',
				description:
					'The text encoding of the file. A byte order mark always wins. A row holding bytes not valid in the encoding is reported, never stored with a character guessed.',
			},
			{
				displayName: 'Other Columns',
				name: 'otherFields',
				type: 'options',
				options: [
					{
						name: 'Do Not Send',
						value: 'ignore',
						description: 'Only the columns named above are read; the output names the others',
					},
					{
						name: 'Send as Params',
						value: 'params',
						description:
							"Every other non-empty column goes into the event's params under its own name (a params column's keys win)",
					},
				],
				default: 'ignore',
				description: 'What to do with the columns the event has no field for (e.g. plan, amount)',
			},
			{
				displayName: 'Rows Not Accepted in Output',
				name: 'notAcceptedShown',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 100,
				description:
					'How many of the rows not accepted (invalid, rejected, failed) the output lists, with their row numbers and reasons. The summary counts them all.',
			},
			{
				displayName: 'Start at Row',
				name: 'startAtRow',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				description:
					'The first row to send, as a spreadsheet numbers it (the header is row 1; in NDJSON, the line number). After a run that stopped part-way, its error names the row to start at.',
			},
			validateOnlyOption,
			{
				displayName: 'Write Result File',
				name: 'resultFile',
				type: 'boolean',
				default: false,
				description:
					'Whether to add a CSV of every row not accepted (row, status, reason, event ID) to the output, in the binary field "data"',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: fromItems,
		options: [
			{
				displayName: 'Derive Missing Event IDs',
				name: 'deriveEventIds',
				type: 'options',
				options: [
					{
						name: 'When Occurred At Is Set',
						value: 'whenTimed',
						description:
							'Safe default: an event that says when it happened gets an ID made from its content, so re-running the workflow or repeating a request never stores it twice',
					},
					{
						name: 'Always',
						value: 'always',
						description:
							'Also events without a time. Only when identical rows are always repeats: two real identical events (say, the same purchase twice) would be stored once.',
					},
					{
						name: 'Never',
						value: 'never',
						description:
							'Events without an Event ID are sent without one; a re-run stores them again',
					},
				],
				default: 'whenTimed',
				description:
					'Whether to give an event that has no Event ID a stable one made from its name, time, contact and data. An Event ID you give always wins.',
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{ name: 'One Item per Event', value: 'events' },
					{
						name: 'One Item per Event Plus a Summary',
						value: 'eventsAndSummary',
						description: 'A last item counts the events per status',
					},
					{
						name: 'Summary Only',
						value: 'summary',
						description: 'A single item with the counts per status',
					},
				],
				default: 'events',
				description: 'What the node outputs',
			},
			{
				displayName: 'Other Fields',
				name: 'otherFields',
				type: 'options',
				options: [
					{
						name: 'Do Not Send',
						value: 'ignore',
						description: 'Only the fields named above are read; a hint names the others',
					},
					{
						name: 'Send as Params',
						value: 'params',
						description:
							"Every other non-empty field goes into the event's params under its own name (a params field's keys win)",
					},
				],
				default: 'ignore',
				description:
					'What to do with the fields of the item the event has no place for (e.g. plan, amount)',
				displayOptions: { show: { '/eventInput': ['autoMapInputData'] } },
			},
			validateOnlyOption,
		],
	},
];
