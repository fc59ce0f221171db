import type { INodeProperties } from 'n8n-workflow';

import { sendFields } from '../../event/send.fields';
import { optionalContactFields, phoneNumberField } from '../fields';

/** One of Event → Send's file fields: the same reader (`shared/fileRows.ts`), the same choices. */
const eventFileField = (name: string): INodeProperties =>
	sendFields.find((field) => field.name === name)!;

/** Event → Send's Encoding option. */
const encodingOption = (eventFileField('fileOptions').options as INodeProperties[]).find(
	(option) => option.name === 'encoding',
)!;

/** One of the contact's own fields, as Create and Update show it. */
const contactField = (name: string): INodeProperties =>
	optionalContactFields.find((field) => field.name === name)!;

const fromItems = { show: { contactSource: ['items'] } };
const fromFile = { show: { contactSource: ['file'] } };

/** The file's column that holds each field, unless the user names another. */
export const DEFAULT_COLUMNS = {
	phoneNumber: 'phone_number',
	email: 'email',
	fullName: 'full_name',
	country: 'country',
	description: 'description',
};

export type Columns = typeof DEFAULT_COLUMNS;

function columnName(displayName: string, name: keyof Columns): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: `e.g. ${displayName.replace(/ Column$/, '')}`,
		description: `Name of the column that holds it. Leave empty to read "${DEFAULT_COLUMNS[name]}".`,
	};
}

/** The fields of Contact → Create or Update. */
export const upsertContactFields: INodeProperties[] = [
	{
		displayName:
			'Each row updates the contact with the same phone number (or email), or creates one. The API takes about 120 writes a minute: 5,000 new or changed rows take about 42 minutes.',
		name: 'budgetNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Rows From',
		name: 'contactSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Input Items',
				value: 'items',
				description: 'Each input item is one contact, its fields mapped below',
			},
			{
				name: 'Rows of a File (CSV or NDJSON)',
				value: 'file',
				description:
					'Each row of a file of the input item is one contact, read by column name as a stream; the output is one summary per file',
			},
		],
		default: 'items',
	},
	{
		displayName: 'Match On',
		name: 'matchOn',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Phone Number',
				value: 'phone',
				description:
					'The contact with the same phone number (E.164) is updated, else one is created. Phone numbers are unique per contact.',
			},
			{
				name: 'Email',
				value: 'email',
				description:
					'The contact with the same email (case aside) is updated, else one is created (it needs a phone number). A row whose email several contacts share is refused.',
			},
		],
		default: 'phone',
		description: 'Which field finds the contact to update; the other one is only written',
	},
	{
		...phoneNumberField,
		description: 'Phone number of the contact in E.164, e.g. +14155550123',
		displayOptions: fromItems,
	},
	{ ...contactField('email'), displayOptions: fromItems },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Fields written on creation, and on update when they differ; a field left empty is not changed',
		displayOptions: fromItems,
		options: optionalContactFields.filter((field) => field.name !== 'email'),
	},
	// the file's fields are Event → Send's, for the same reader
	{ ...eventFileField('binaryPropertyName'), displayOptions: fromFile },
	{ ...eventFileField('fileFormat'), displayOptions: fromFile },
	{
		...eventFileField('csvDelimiter'),
		displayOptions: { show: { contactSource: ['file'], fileFormat: ['csv'] } },
	},
	{
		displayName: 'Column Names',
		name: 'columnNames',
		type: 'collection',
		placeholder: 'Add Column Name',
		default: {},
		description: 'Where your file names a field differently; blank cells change nothing',
		displayOptions: fromFile,
		options: [
			columnName('Country Column', 'country'),
			columnName('Description Column', 'description'),
			columnName('Email Column', 'email'),
			columnName('Full Name Column', 'fullName'),
			columnName('Phone Number Column', 'phoneNumber'),
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{ ...encodingOption, displayOptions: { show: { '/contactSource': ['file'] } } },
			{
				displayName: 'Validate Only',
				name: 'validateOnly',
				type: 'boolean',
				default: false,
				description:
					'Whether to check every row and say what would be done (would_create, would_update, unchanged, refused) without writing anything. It reads the contacts (listing budget) to know which exist; it writes nothing.',
			},
		],
	},
];
