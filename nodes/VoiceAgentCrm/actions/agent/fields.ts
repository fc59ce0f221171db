import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { locatorValue, timeZoneLocator } from '../../shared/locators';
import {
	failItem,
	HTTP_URL,
	IANA_ZONE,
	NON_EMPTY,
	NUMBER,
	numberWithin,
	validateItem,
} from '../../shared/validation';
import { HIDDEN, holdsHiddenSecret } from './webhookUrl';

/**
 * The agent's settings, written once for Agent → Create and Agent → Update. Parameter names are
 * the API's field names, so a collection's values are the body, except for the two definition
 * lists, which come from a fixed collection or a JSON alternative.
 */

export const MAX_PROMPT_LENGTH = 28_000;

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Appointment reminder',
	description:
		'Internal name of the agent, shown in the dashboard and in agent lists (the person called never hears it)',
};

const voiceField: INodeProperties = {
	displayName: 'Voice Name or ID',
	name: 'voice_id',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getVoices' },
	default: '',
	description:
		'The voice the agent speaks with, from the voice catalog (Agent → List Voices). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const TIMEZONE_HELP =
	'IANA time zone the agent works in, used for dates and times it mentions, e.g. Europe/Madrid or America/New_York';

/** One definition list (analysis fields, tools) as a fixed collection of name, type and description. */
function definitionList(spec: {
	displayName: string;
	name: string;
	entry: string;
	description: string;
	/** Help of the entry's Description and Name, in the words of this list. */
	entryHelp: { description: string; name: string; example: string };
	/** The entry's Type field: its options differ per list. */
	typeField: INodeProperties;
	/** Entry fields only this list has. */
	extraFields?: INodeProperties[];
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${spec.entry}`,
		default: {},
		description: spec.description,
		options: [
			{
				displayName: spec.entry,
				name: 'entries',
				values: [
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: spec.entryHelp.description,
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: `e.g. ${spec.entryHelp.example}`,
						description: spec.entryHelp.name,
					},
					...(spec.extraFields ?? []),
					spec.typeField,
				],
			},
		],
	};
}

function definitionJson(displayName: string, name: string, description: string): INodeProperties {
	return { displayName, name, type: 'json', default: '[]', description };
}

/** Every setting besides name, voice and time zone, sorted as the editor shows them. */
const AGENT_SETTINGS: INodeProperties[] = [
	{
		displayName: 'Ambient Sound',
		name: 'ambient_sound',
		type: 'options',
		options: [
			{ name: 'Call Center', value: 'call-center' },
			{ name: 'Coffee Shop', value: 'coffee-shop' },
			{ name: 'Convention Hall', value: 'convention-hall' },
			{ name: 'Mountain Outdoor', value: 'mountain-outdoor' },
			{ name: 'None', value: 'none', description: 'No background sound (clears it on update)' },
			{ name: 'Static Noise', value: 'static-noise' },
			{ name: 'Summer Outdoor', value: 'summer-outdoor' },
		],
		default: 'none',
		description: 'Background sound played during the call, to make it sound natural',
	},
	{
		displayName: 'Ambient Sound Volume',
		name: 'ambient_sound_volume',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 1,
		description: 'Loudness of the ambient sound, e.g. 1',
	},
	{
		displayName: 'Begin Message',
		name: 'begin_message',
		type: 'string',
		default: '',
		placeholder: 'e.g. Hi, this is Ava from Acme. Do you have a minute?',
		description: 'The first sentence the agent says when the call is answered',
	},
	{
		displayName: 'Begin Message Delay (Ms)',
		name: 'begin_message_delay_ms',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'Milliseconds the agent waits after the call is answered before its first sentence, e.g. 1000 for one second',
	},
	{
		displayName: 'Boosted Keywords',
		name: 'boosted_keywords',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Keyword' },
		default: [],
		placeholder: 'e.g. Acme',
		description:
			'Words the speech recognition should favour, such as brand or product names. On update the list replaces the old one.',
	},
	{
		displayName: 'Conversation Purpose',
		name: 'conversation_purpose',
		type: 'string',
		default: '',
		placeholder: "e.g. Confirm tomorrow's appointment",
		description:
			'Objective of the conversation, in one sentence. Leave empty to clear it on update.',
	},
	{
		displayName: 'Interruption Sensitivity',
		name: 'interruption_sensitivity',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
		description:
			'How easily the person can interrupt the agent, from 0 (hard to interrupt) to 1 (stops at any sound)',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'options',
		options: [
			{ name: 'English (US)', value: 'en-US' },
			{ name: 'Multilingual (Spanish and English)', value: 'multi' },
			{ name: 'Spanish (Latin America)', value: 'es-419' },
			{ name: 'Spanish (Spain)', value: 'es-ES' },
		],
		default: 'en-US',
		description:
			'Language the agent speaks. For another language code, use an expression, e.g. {{ "fr-FR" }}.',
	},
	{
		displayName: 'Max Call Duration (Ms)',
		name: 'max_call_duration_ms',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 600000,
		description: 'Longest a call may last, in milliseconds, e.g. 600000 for ten minutes',
	},
	{
		displayName: 'Person Name',
		name: 'person_name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ava',
		description: 'The name the agent gives itself during the call',
	},
	definitionList({
		displayName: 'Post-Call Analysis Fields',
		name: 'post_call_analysis_data',
		entry: 'Field',
		entryHelp: {
			description:
				'What to extract, in words the AI understands, e.g. "Whether the person wants a follow-up call"',
			name: 'Name of the extracted value in the analysis, without spaces',
			example: 'wants_follow_up',
		},
		description:
			'Data the AI extracts from each finished call into its analysis, e.g. a boolean "interested"; on update the list replaces the old one',
		typeField: {
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [
				{ name: 'Boolean', value: 'boolean', description: 'Yes or no' },
				{ name: 'Number', value: 'number' },
				{ name: 'String', value: 'string', description: 'Free text' },
			],
			default: 'string',
			description:
				'Type of the extracted value. For other types (e.g. a choice among values), use the JSON alternative.',
		},
	}),
	definitionJson(
		'Post-Call Analysis Fields (JSON)',
		'post_call_analysis_data_json',
		'The same list as a JSON array, for fields with more keys, e.g. [{"name": "interested", "type": "boolean", "description": "Whether the person is interested"}]; use either this or the list',
	),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description: `Instructions for the agent: who it is, what it knows and how it behaves (up to ${MAX_PROMPT_LENGTH.toLocaleString('en-US')} characters)`,
	},
	{
		displayName: 'Responsiveness',
		name: 'responsiveness',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 1,
		description: 'How quickly the agent answers once the person stops speaking, e.g. 1',
	},
	definitionList({
		displayName: 'Tools',
		name: 'tools',
		entry: 'Tool',
		entryHelp: {
			description:
				'When the agent should call the function and what it does, e.g. "Books a meeting in the calendar"',
			name: 'Name of the function the agent calls, without spaces',
			example: 'book_meeting',
		},
		extraFields: [
			{
				displayName: 'Parameters (JSON Schema)',
				name: 'parameters',
				type: 'json',
				default: '',
				placeholder:
					'{"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"]}',
				description:
					'The arguments the agent passes to the function, as a JSON Schema object; leave empty for none',
			},
		],
		description:
			'Functions the agent may call during the conversation; on update the list replaces the old one',
		typeField: {
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [{ name: 'Function', value: 'function' }],
			default: 'function',
			description: 'Type of the tool; the service supports function tools',
		},
	}),
	definitionJson(
		'Tools (JSON)',
		'tools_json',
		'Complete function tools as a JSON array, e.g. [{"name": "book_meeting", "type": "function", "description": "Books a meeting", "parameters": {"type": "object", "properties": {"date": {"type": "string"}}}}]; use either this or the list',
	),
	{
		displayName: 'Voice Speed',
		name: 'voice_speed',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 1,
		description: 'Speaking speed of the voice, e.g. 1 for normal',
	},
	{
		displayName: 'Voice Temperature',
		name: 'voice_temperature',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 1,
		description: 'How much the voice varies its tone, e.g. 1',
	},
	{
		displayName: 'Volume',
		name: 'volume',
		type: 'number',
		typeOptions: { minValue: 0.5, maxValue: 2, numberPrecision: 2 },
		default: 1,
		description: "Loudness of the agent's voice, from 0.5 to 2 (1 is normal)",
	},
	{
		displayName: 'Webhook URL',
		name: 'webhook_url',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/call-events',
		description:
			'URL that receives the events of every call of this agent (call started, call ended, transcript ready)',
	},
];

/** Agent → Create: name, voice and time zone required, the rest optional. */
export const agentCreateFields: INodeProperties[] = [
	{ ...nameField, required: true },
	{ ...voiceField, required: true },
	timeZoneLocator(TIMEZONE_HELP, true),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: AGENT_SETTINGS,
	},
];

const byDisplayName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

/** Agent → Update: every setting optional, under "Update Fields". */
export const agentUpdateCollection: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description:
		'The settings to change; the others keep their values. Saving publishes a new version of the agent.',
	options: [nameField, timeZoneLocator(TIMEZONE_HELP, false), voiceField, ...AGENT_SETTINGS].sort(
		byDisplayName,
	),
};

/** What the user sees for each body field, for error messages. */
const LABELS: Record<string, string> = Object.fromEntries(
	[nameField, voiceField, timeZoneLocator(TIMEZONE_HELP, false), ...AGENT_SETTINGS].map((field) => [
		field.name,
		field.displayName,
	]),
);

const AMBIENT_SOUNDS = [
	'coffee-shop',
	'convention-hall',
	'summer-outdoor',
	'mountain-outdoor',
	'static-noise',
	'call-center',
] as const;

const definition = z
	.object({ name: NON_EMPTY, type: NON_EMPTY, description: z.string().optional() })
	.passthrough();

const toolDefinition = definition.extend({
	parameters: z
		.record(z.unknown(), {
			message: 'must be a JSON Schema object, like {"type": "object", "properties": {…}}',
		})
		.optional(),
});

const nonNegative = numberWithin(0, undefined, 'must be a number of milliseconds, 0 or more');

/** The agent body of the reference; the create body adds what it requires. */
const AGENT_BODY = z
	.object({
		name: NON_EMPTY,
		voice_id: NON_EMPTY,
		timezone: IANA_ZONE,
		person_name: z.string(),
		language: z
			.string()
			.trim()
			.regex(
				/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$|^multi$/,
				'must be a language code like en-US, es-ES, es-419 or multi',
			),
		webhook_url: HTTP_URL.refine(
			(url) => !holdsHiddenSecret(url),
			`holds ${HIDDEN} where the output of an agent hides a secret: copy the URL with its secret from where it was made (the trigger's URL, the dashboard)`,
		).nullable(),
		conversation_purpose: z.string().nullable(),
		prompt: z
			.string()
			.max(
				MAX_PROMPT_LENGTH,
				`must be at most ${MAX_PROMPT_LENGTH.toLocaleString('en-US')} characters`,
			)
			.nullable(),
		ambient_sound: z
			.enum(AMBIENT_SOUNDS, {
				message: `must be one of ${AMBIENT_SOUNDS.join(', ')}, or none`,
			})
			.nullable(),
		volume: numberWithin(0.5, 2, 'must be a number from 0.5 to 2'),
		interruption_sensitivity: numberWithin(0, 1, 'must be a number from 0 to 1'),
		voice_speed: NUMBER,
		voice_temperature: NUMBER,
		ambient_sound_volume: NUMBER,
		responsiveness: NUMBER,
		begin_message: z.string(),
		begin_message_delay_ms: nonNegative,
		max_call_duration_ms: nonNegative,
		boosted_keywords: z.array(NON_EMPTY, { message: 'must be a list of words' }),
		post_call_analysis_data: z.array(definition, {
			message: 'must be a list of {name, type, description}',
		}),
		tools: z.array(toolDefinition, {
			message: 'must be a list of {name, type, description, parameters}',
		}),
	})
	.partial()
	.strict();

const CREATE_BODY = AGENT_BODY.required({ name: true, voice_id: true, timezone: true });

/** A definition list from its fixed collection or its JSON alternative (never both). */
function definitions(
	values: IDataObject,
	key: 'post_call_analysis_data' | 'tools',
	problems: string[],
): unknown {
	const listed = (values[key] as { entries?: IDataObject[] } | undefined)?.entries;
	const json = values[`${key}_json`];
	const fromJson = parseJsonList(json, `${LABELS[`${key}_json`]}`, problems);
	if (listed?.length && fromJson !== undefined) {
		problems.push(`${LABELS[key]}: give the list or its JSON alternative, not both`);
		return undefined;
	}
	if (fromJson !== undefined) return fromJson;
	return listed?.map(({ description, parameters, ...rest }) => ({
		...rest,
		...(description ? { description } : {}),
		...(parameters === undefined || parameters === ''
			? {}
			: {
					parameters: jsonObject(parameters, `${LABELS[key]} → Parameters (JSON Schema)`, problems),
				}),
	}));
}

/** A JSON object typed in a JSON field (a string) or given by an expression (an object). */
function jsonObject(value: unknown, label: string, problems: string[]): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		problems.push(
			`${label}: must be a JSON Schema object, like {"type": "object", "properties": {"date": {"type": "string"}}} (got text that is not JSON)`,
		);
		return undefined;
	}
}

/** An empty JSON list counts as not given (it is the field's default). */
function parseJsonList(json: unknown, label: string, problems: string[]): unknown {
	if (json === undefined || json === '' || (Array.isArray(json) && json.length === 0))
		return undefined;
	if (typeof json !== 'string') return json;
	try {
		const parsed: unknown = JSON.parse(json);
		return Array.isArray(parsed) && parsed.length === 0 ? undefined : parsed;
	} catch {
		problems.push(
			`${label}: must be a JSON array of objects, like [{"name": "interested", "type": "boolean"}] (got text that is not JSON)`,
		);
		return undefined;
	}
}

/**
 * The body to send from the entered settings. Clearable text fields left empty become null (on
 * update that clears them; on create it is the API's own default); "None" ambient sound likewise.
 */
function agentBodyOf(values: IDataObject, problems: string[]): IDataObject {
	const body: IDataObject = { ...values };
	for (const key of ['post_call_analysis_data', 'tools'] as const) {
		delete body[`${key}_json`];
		const list = definitions(values, key, problems);
		if (list === undefined) delete body[key];
		else body[key] = list as IDataObject[];
	}
	for (const key of ['webhook_url', 'conversation_purpose', 'prompt']) {
		if (typeof body[key] === 'string' && (body[key] as string).trim() === '') body[key] = null;
	}
	if (body.ambient_sound === 'none' || body.ambient_sound === '') body.ambient_sound = null;
	return body;
}

function checked(
	context: IExecuteFunctions,
	schema: z.ZodTypeAny,
	values: IDataObject,
	itemIndex: number,
): IDataObject {
	const problems: string[] = [];
	const body = agentBodyOf(values, problems);
	if (problems.length) failItem(context, itemIndex, problems);
	return validateItem(context, schema, body, itemIndex, LABELS) as IDataObject;
}

export function agentCreateBody(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const values: IDataObject = {
		name: context.getNodeParameter('name', itemIndex),
		voice_id: context.getNodeParameter('voice_id', itemIndex),
		timezone: context.getNodeParameter('timezone', itemIndex, '', { extractValue: true }),
		...(context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	return checked(context, CREATE_BODY, values, itemIndex);
}

export function agentUpdateBody(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const values = context.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	if (values.timezone !== undefined) values.timezone = locatorValue(values.timezone) as string;
	// checked on the body, not the form: settings that reduce to nothing (an empty JSON list) count as none
	const body = checked(context, AGENT_BODY, values, itemIndex);
	if (Object.keys(body).length === 0) {
		failItem(context, itemIndex, [
			'Update Fields: add at least one setting to change (saving publishes a new version of the agent)',
		]);
	}
	return body;
}
