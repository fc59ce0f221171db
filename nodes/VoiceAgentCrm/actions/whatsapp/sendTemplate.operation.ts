import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import {
	assertWabaSender,
	wabaRecipientFields,
	wabaRecipientOf,
	wabaSendBody,
	wabaSendOptions,
} from './fields';
import type { Operation } from '../../shared/operation';
import { perItem, sample, sampleById } from '../../shared/operation';
import { failItem, NON_EMPTY, validateItem } from '../../shared/validation';
import { wabaSend } from './send';
import { approvedLanguageOf, parseTemplateChoice } from './template';

/**
 * A template parameter: `type` required (text, image, document, …); `text` and `parameter_name`
 * strings. Other keys (e.g. `image: {link}`) pass through, for the JSON mode.
 */
const parameterSchema = z
	.object(
		{
			type: z
				.string({ message: 'is required: text, image, document, …' })
				.trim()
				.min(1, 'is required: text, image, document, …'),
			text: z.string({ message: 'must be text' }).optional(),
			parameter_name: z.string({ message: 'must be text' }).optional(),
		},
		{ message: 'must be an object like {"type": "text", "text": "Ana"}' },
	)
	.passthrough()
	.refine((p) => p.type !== 'text' || (typeof p.text === 'string' && p.text !== ''), {
		message: 'a text parameter needs its text',
		path: ['text'],
	});

const componentSchema = z
	.object(
		{
			type: z.enum(['BODY', 'HEADER', 'BUTTON'], {
				message: 'must be BODY, HEADER or BUTTON',
			}),
			parameters: z.array(parameterSchema, { message: 'must be a list of parameters' }).optional(),
		},
		{ message: 'must be an object like {"type": "BODY", "parameters": [...]}' },
	)
	.passthrough();

const COMPONENTS_EXPECTED =
	'must be a JSON array of components, like [{"type": "BODY", "parameters": [{"type": "text", "text": "Ana"}]}]';

const templateSchema = z.object({
	templateName: NON_EMPTY,
	languageCode: z
		.string()
		.trim()
		.regex(
			/^(?:[a-z]{2,3}(?:_[A-Za-z0-9]{2,4})?)?$/,
			'must be a WhatsApp language code, like es, en_US or pt_BR',
		),
	components: z.array(componentSchema, { message: COMPONENTS_EXPECTED }),
});

const LABELS = {
	templateName: 'Template',
	languageCode: 'Language Code',
	components: 'Components',
};

interface ComponentFields {
	type?: string;
	parameters?: { parameter?: Array<{ type?: string; text?: string; parameterName?: string }> };
}

/** Components from the fields: empty texts and names are left out rather than sent empty. */
function componentsFromFields(context: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const components = context.getNodeParameter(
		'components.component',
		itemIndex,
		[],
	) as ComponentFields[];
	return components.map(({ type, parameters }) => ({
		type,
		parameters: (parameters?.parameter ?? []).map(
			({ type: parameterType, text, parameterName }) => ({
				type: parameterType,
				...(text !== undefined && text !== '' && { text }),
				...(parameterName && { parameter_name: parameterName }),
			}),
		),
	}));
}

/** Components from the JSON field: a JSON text, or an array already (from an expression). */
function componentsFromJson(context: IExecuteFunctions, itemIndex: number): unknown {
	const raw = context.getNodeParameter('componentsJson', itemIndex, '[]') as unknown;
	if (typeof raw !== 'string') return raw;
	if (!raw.trim()) return [];
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		return failItem(context, itemIndex, [
			`${LABELS.components}: ${COMPONENTS_EXPECTED}; it is not valid JSON (${(error as Error).message})`,
		]);
	}
}

export const sendTemplate: Operation = {
	option: {
		name: 'Send Template',
		value: 'sendTemplate',
		action: 'Send WhatsApp template message',
		description: 'Send an approved message template to a contact on WhatsApp, at any time',
	},
	kind: 'send',
	endpoint: 'sendTemplate',
	example: {
		channelId: sampleById('channel'),
		contactId: sampleById('contact'),
		templateName: sample('template'),
		languageCode: 'en_US',
		componentsInput: 'json',
		componentsJson: '[]',
		options: {},
	},
	fields: [
		...wabaRecipientFields,
		{
			displayName: 'Template Name or ID',
			name: 'templateName',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['channelId.value'] },
			required: true,
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
		{
			displayName: 'Language Code',
			name: 'languageCode',
			type: 'string',
			default: '',
			placeholder: 'e.g. en_US',
			description:
				'Language to send, exactly as approved (e.g. es, en_US). Leave empty to send the language the template is approved in.',
		},
		{
			displayName: 'Components Input',
			name: 'componentsInput',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Using Fields Below', value: 'fields' },
				{ name: 'Using JSON', value: 'json' },
			],
			default: 'fields',
			description: "How to give the values that fill the template's placeholders",
		},
		{
			displayName: 'Components',
			name: 'components',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Component',
			default: {},
			description:
				"Values for the template's placeholders, by part of the template. Leave empty for a template without placeholders.",
			displayOptions: { show: { componentsInput: ['fields'] } },
			options: [
				{
					displayName: 'Component',
					name: 'component',
					values: [
						{
							displayName: 'Type',
							name: 'type',
							type: 'options',
							options: [
								{ name: 'Body', value: 'BODY' },
								{ name: 'Button', value: 'BUTTON' },
								{ name: 'Header', value: 'HEADER' },
							],
							default: 'BODY',
							description: 'The part of the template the parameters fill',
						},
						{
							displayName: 'Parameters',
							name: 'parameters',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true },
							placeholder: 'Add Parameter',
							default: {},
							description:
								'The values, in the order of the placeholders ({{1}}, {{2}}, …) or by name',
							options: [
								{
									displayName: 'Parameter',
									name: 'parameter',
									values: [
										{
											displayName: 'Type',
											name: 'type',
											type: 'string',
											default: 'text',
											description:
												'Kind of value: text for a text placeholder; image, document and others need extra keys, so use the JSON input for them',
										},
										{
											displayName: 'Text',
											name: 'text',
											type: 'string',
											default: '',
											placeholder: 'e.g. María',
											description: 'The text that replaces the placeholder',
										},
										{
											displayName: 'Parameter Name',
											name: 'parameterName',
											type: 'string',
											default: '',
											placeholder: 'e.g. first_name',
											description:
												'Name of a named placeholder. Leave empty for numbered placeholders.',
										},
									],
								},
							],
						},
					],
				},
			],
		},
		{
			displayName: 'Components (JSON)',
			name: 'componentsJson',
			type: 'json',
			default: '[]',
			description:
				'The components of the template as a JSON array, e.g. [{"type": "BODY", "parameters": [{"type": "text", "text": "María"}]}]',
			displayOptions: { show: { componentsInput: ['json'] } },
		},
		wabaSendOptions,
	],
	execute: perItem(async function (itemIndex) {
		const recipient = wabaRecipientOf(this, itemIndex);
		const fromJson = this.getNodeParameter('componentsInput', itemIndex, 'fields') === 'json';
		const choice = parseTemplateChoice(
			String(this.getNodeParameter('templateName', itemIndex, '') ?? ''),
		);
		const input = {
			templateName: choice.name,
			languageCode:
				String(this.getNodeParameter('languageCode', itemIndex, '') ?? '').trim() ||
				choice.language ||
				'',
			components: fromJson
				? componentsFromJson(this, itemIndex)
				: componentsFromFields(this, itemIndex),
		};
		const { templateName, languageCode, components } = validateItem(
			this,
			templateSchema,
			input,
			itemIndex,
			LABELS,
		);
		await assertWabaSender(this, recipient.channel_id, itemIndex);
		const message: IDataObject = {
			template_name: templateName,
			language_code:
				languageCode ||
				(await approvedLanguageOf(this, recipient.channel_id, templateName, itemIndex)),
			...(components.length && { components: components as IDataObject[] }),
		};
		return await wabaSend.call(this, 'sendTemplate', wabaSendBody(recipient, message), itemIndex);
	}),
};
