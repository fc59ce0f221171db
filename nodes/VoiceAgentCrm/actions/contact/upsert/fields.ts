import type { INodeProperties } from 'n8n-workflow';

import { defaultCountryField } from '../../../shared/fields';
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
			'Each row updates the contact with the same phone number (or email), or creates one; blank cells keep the stored values. The API takes about 120 writes a minute: 5,000 new or changed rows take about 42 minutes.',
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
	// items and files alike: a file's phone column is read with it too
	defaultCountryField,
	{ ...contactField('email'), displayOptions: fromItems },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Fields written on creation, and on update when they differ; a blank value changes nothing (Options → Clear Fields With Blank Cells), and custom fields merge into the stored ones by field name',
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
		displayName: 'Custom Field Columns',
		name: 'customColumns',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Custom Field Column',
		default: {},
		description:
			"Columns written to the contact's custom fields (Additional Data), merged into the stored ones by field name",
		displayOptions: fromFile,
		options: [
			{
				displayName: 'Custom Field',
				name: 'entries',
				values: [
					{
						displayName: 'Column',
						name: 'column',
						type: 'string',
						default: '',
						placeholder: 'e.g. plan',
						description: 'Name of the column that holds the value',
					},
					{
						displayName: 'Field',
						name: 'field',
						type: 'string',
						default: '',
						placeholder: 'e.g. plan',
						description: 'Name of the custom field. Leave empty to use the column name.',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						placeholder: 'e.g. text',
						description:
							'Kind of value, e.g. text, date, number or location. Leave empty for text.',
					},
				],
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Clear Fields With Blank Cells',
				name: 'clearBlankFields',
				type: 'multiOptions',
				options: [
					{ name: 'Country', value: 'country' },
					{ name: 'Custom Fields (Additional Data)', value: 'additionalData' },
					{ name: 'Description', value: 'description' },
					{ name: 'Full Name', value: 'fullName' },
				],
				default: [],
				description:
					'The fields a blank cell (empty, spaces only or missing) empties. Any other blank cell leaves the stored value as it is.',
			},
			{
				displayName: 'Custom Fields',
				name: 'customFields',
				type: 'options',
				options: [
					{
						name: 'Merge Into the Stored Ones',
						value: 'merge',
						description: 'Only the custom fields mapped change; the others stay',
					},
					{
						name: 'Replace the Stored Ones',
						value: 'replace',
						description: 'The contact keeps only the custom fields mapped',
					},
				],
				default: 'merge',
			},
			{ ...encodingOption, displayOptions: { show: { '/contactSource': ['file'] } } },
			{
				displayName: 'Repeated Keys',
				name: 'repeatedKeys',
				type: 'options',
				options: [
					{
						name: 'Merge Into One Contact',
						value: 'merge',
						description:
							"Rows with the same phone (or email) are one person: written once, later rows' non-blank values winning",
					},
					{
						name: 'Refuse the Later Rows',
						value: 'refuse',
						description:
							'The first row is written; each later row with its key is refused as its duplicate',
					},
				],
				default: 'merge',
			},
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
