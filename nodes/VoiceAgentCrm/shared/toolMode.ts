import type { INodeProperties } from 'n8n-workflow';
import { FROM_AI_AUTO_GENERATED_MARKER } from 'n8n-workflow';

import type { Operation } from './operation';

/**
 * The node as an AI Agent's tool (n8n's `@tool` display option is true in the tool form). The
 * fields whose value comes from the conversation (the number to call, the contact, the text to
 * send) start as "Defined automatically by the model", each with a description the model reads in
 * the tool's schema; the fields that set the workflow up (agent, numbers, channels, options) stay
 * the user's choice. n8n's own "let the model define this" writes an empty description. Beyond the
 * rule below, an operation names the optional fields a conversation supplies (`modelFills`).
 */

/** Locators of the record an operation acts on: the conversation names it, so the model gives its ID. */
const RECORD_LOCATORS = new Set(['callId', 'contactId', 'taskId', 'tagId', 'threadId']);

const VALUE_TYPES = new Set<INodeProperties['type']>(['string', 'number', 'dateTime', 'json']);

function filledByModel(field: INodeProperties): boolean {
	if (field.displayOptions || field.noDataExpression) return false;
	if (field.type === 'resourceLocator') return RECORD_LOCATORS.has(field.name);
	return VALUE_TYPES.has(field.type) && field.required === true;
}

/** What the model reads about a field: what it is and its format, with an example. */
function modelDescriptionOf(field: INodeProperties): string {
	if (field.type === 'resourceLocator') {
		const example = field.modes?.find((mode) => mode.name === 'id')?.placeholder;
		return [`ID of the ${field.displayName.toLowerCase()}`, example].filter(Boolean).join(', ');
	}
	const says = (field.description ?? field.displayName).replace(/\.$/, '');
	return /e\.g\./.test(says) || !field.placeholder ? says : `${says}, ${field.placeholder}`;
}

/** The key n8n's editor gives a field the model defines: its display name, as a tool argument name. */
function argumentKey(field: INodeProperties): string {
	return field.displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
}

/**
 * The expression n8n's editor writes for "Defined automatically by the model", with a description.
 * A field that is not required gets the default '' (n8n's fourth argument), which makes the
 * argument optional in the tool's schema: the model leaves out what the conversation did not say.
 */
function fromAiExpression(field: INodeProperties): string {
	const type = field.type === 'number' || field.type === 'json' ? field.type : 'string';
	const quote = modelDescriptionOf(field).includes('`') ? "'" : '`';
	const description = modelDescriptionOf(field)
		.replaceAll('\\', '\\\\')
		.replaceAll(quote, `\\${quote}`);
	const optional = field.type === 'string' && field.required !== true ? ", ''" : '';
	return `={{ ${FROM_AI_AUTO_GENERATED_MARKER} $fromAI('${argumentKey(field)}', ${quote}${description}${quote}, '${type}'${optional}) }}`;
}

function inForm(field: INodeProperties, tool: boolean): INodeProperties {
	return {
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { ...field.displayOptions?.show, '@tool': [tool] },
		},
	};
}

/** The field as the tool form has it: the model's value by default. */
function modelFilled(field: INodeProperties): INodeProperties {
	const value = fromAiExpression(field);
	return {
		...inForm(field, true),
		default: field.type === 'resourceLocator' ? { __rl: true, mode: 'id', value } : value,
	};
}

/** What an AI Agent is told the operation does: its tool sentence, or its own sentence; its fields describe themselves. */
export function toolDescriptionOf(op: Operation): string {
	return op.toolDescription ?? `${op.option.description}.`;
}

/** Shown only in the tool form, per operation; n8n then adds no automatic description of its own. */
function toolDescriptionField(op: Operation): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 2 },
		default: toolDescriptionOf(op),
		description: 'What the AI Agent is told this tool does',
		displayOptions: { show: { '@tool': [true] } },
	};
}

/** A collection in the tool form: the options the operation names start added, as the model's values. */
function withModelOptions(field: INodeProperties, names: ReadonlySet<string>): INodeProperties {
	const chosen = (field.options as INodeProperties[]).filter((option) =>
		names.has(`${field.name}.${option.name}`),
	);
	const values = Object.fromEntries(
		chosen.map((option) => [option.name, fromAiExpression(option)]),
	);
	return { ...inForm(field, true), default: { ...(field.default as object), ...values } };
}

function hasModelOptions(field: INodeProperties, names: ReadonlySet<string>): boolean {
	return (
		field.type === 'collection' &&
		(field.options as INodeProperties[]).some((option) => names.has(`${field.name}.${option.name}`))
	);
}

/** An operation's fields in both forms: each field the model fills twice, once per form. */
export function fieldsOfBothForms(op: Operation): INodeProperties[] {
	const named = new Set(op.modelFills);
	return [
		...op.fields.flatMap((field) => {
			if (filledByModel(field) || named.has(field.name))
				return [inForm(field, false), modelFilled(field)];
			if (hasModelOptions(field, named))
				return [inForm(field, false), withModelOptions(field, named)];
			return [field];
		}),
		toolDescriptionField(op),
	];
}
