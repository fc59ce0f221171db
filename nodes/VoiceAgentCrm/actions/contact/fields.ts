import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { defaultCountryField, PHONE_INPUT_HINT } from '../../shared/fields';
import { EMAIL, NON_EMPTY, phoneNumber } from '../../shared/validation';

/**
 * The writable fields of a contact, shared by Create and Update: the same set for both (the
 * create endpoint is inferred to take the update's body), so they are written once here.
 */

/** Parameter name → the API's field name. */
const API_NAMES = {
	phoneNumber: 'phone_number',
	fullName: 'full_name',
	email: 'email',
	country: 'country',
	description: 'description',
	additionalData: 'additional_data',
} as const;

type ContactParameter = keyof typeof API_NAMES;

/** Parameter name → the label users see, for error messages. */
export const CONTACT_FIELD_LABELS: Record<ContactParameter, string> = {
	phoneNumber: 'Phone Number',
	fullName: 'Full Name',
	email: 'Email',
	country: 'Country',
	description: 'Description',
	additionalData: 'Additional Data',
};

const PHONE_NUMBER_DESCRIPTION =
	'Phone number in international E.164 format: + then country code and number, e.g. +14155550123. Unique per contact.';

export const phoneNumberField: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. +14155550123',
	description: PHONE_NUMBER_DESCRIPTION,
	hint: PHONE_INPUT_HINT,
};

const additionalDataField: INodeProperties = {
	displayName: 'Additional Data',
	name: 'additionalData',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Entry',
	default: {},
	description:
		'Custom fields of the contact, each a type, a field name and a value; on update this replaces the whole list',
	options: [
		{
			displayName: 'Entry',
			name: 'entries',
			values: [
				{
					displayName: 'Type',
					name: 'type',
					type: 'string',
					default: 'text',
					placeholder: 'e.g. text',
					description: 'Kind of value, e.g. text, date, number or location',
				},
				{
					displayName: 'Field',
					name: 'field',
					type: 'string',
					default: '',
					placeholder: 'e.g. plan',
					description: 'Name of the custom field, e.g. plan or birthday',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. premium',
					description:
						'Value of the custom field, as text (dates and numbers too, e.g. 2024-05-01 or 42)',
				},
			],
		},
	],
};

/** The optional contact fields, sorted by name as n8n's lint wants collection options. */
export const optionalContactFields: INodeProperties[] = [
	additionalDataField,
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: '',
		placeholder: 'e.g. US',
		description: 'Country of the contact, as a country code such as US or ES',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Free-text notes about the contact',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		placeholder: 'name@email.com',
		description: 'Email address of the contact, e.g. ana@example.com',
	},
	{
		displayName: 'Full Name',
		name: 'fullName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ana García',
		description: 'Full name of the contact',
	},
];

/** Create: the phone number is its own required field; the rest are Additional Fields. */
export const createContactFields: INodeProperties[] = [
	{ ...phoneNumberField, required: true },
	defaultCountryField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: optionalContactFields,
	},
];

/** Update: every field is optional and only those added are sent. */
export const updateContactFields: INodeProperties[] = [
	{
		displayName:
			"Additional Data replaces the contact's whole list of custom fields: include every entry you want to keep. Leave it out to keep the list as it is.",
		name: 'additionalDataNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The fields to change; fields not added here keep their current value',
		options: [
			...optionalContactFields,
			{ ...phoneNumberField, description: `New ${PHONE_NUMBER_DESCRIPTION}` },
		],
	},
	defaultCountryField,
];

const additionalDataEntry = z.object({
	type: NON_EMPTY,
	field: NON_EMPTY,
	value: z.string({ message: 'must be text' }),
});

/** The contact's rules, its phone read with a Default Country (one schema per country, built once). */
export function contactFieldsSchemaFor(defaultCountry: string | undefined) {
	const key = defaultCountry ?? '';
	let schema = SCHEMAS.get(key);
	if (!schema) SCHEMAS.set(key, (schema = contactSchema(defaultCountry)));
	return schema;
}

function contactSchema(defaultCountry: string | undefined) {
	return z
		.object({
			phoneNumber: phoneNumber(defaultCountry),
			fullName: z.string(),
			email: EMAIL,
			country: z.string(),
			description: z.string(),
			additionalData: z.array(additionalDataEntry),
		})
		.partial();
}

const SCHEMAS = new Map<string, ReturnType<typeof contactSchema>>();

export type ContactInput = Partial<Record<ContactParameter, unknown>>;

/** The parameters as validation sees them: the fixed collection's rows as a plain list. */
export function contactInput(parameters: IDataObject): ContactInput {
	const input: ContactInput = { ...parameters };
	if (parameters.additionalData !== undefined) {
		input.additionalData = (parameters.additionalData as IDataObject).entries ?? [];
	}
	return input;
}

/** The API body of the given (validated) fields: only the fields present, under the API's names. */
export function contactBody(fields: z.infer<ReturnType<typeof contactSchema>>): IDataObject {
	const body: IDataObject = {};
	for (const [parameter, value] of Object.entries(fields)) {
		if (value !== undefined)
			body[API_NAMES[parameter as ContactParameter]] = value as IDataObject[keyof IDataObject];
	}
	return body;
}
