import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { NUMBERING_PLANS } from './phoneNumbers';
import { validateItem } from './validation';

/** The hint under every phone field that is checked as E.164 (`validation.ts`): the forms it accepts. */
export const PHONE_INPUT_HINT =
	'+ and country code, e.g. +14155550123, or national with a Default Country. Spaces, brackets, a trunk 0 are dropped.';

/**
 * The country of phone numbers written without + and country code, beside every phone field that
 * is read as E.164: the countries of the numbering-plan table (`phoneNumbers.ts`), or none.
 */
export const defaultCountryField: INodeProperties = {
	displayName: 'Default Country',
	name: 'defaultCountry',
	type: 'options',
	default: '',
	options: [
		{ name: 'None (Numbers Have + and Country Code)', value: '' },
		...NUMBERING_PLANS.map((plan) => ({ name: plan.name, value: plan.country })),
	],
	description:
		'Country of phone numbers written without + and country code: with United Kingdom, 020 7946 0381 is called as +442079460381. With None such numbers are refused. An expression gives an ISO code such as GB.',
};

/** Return All / Limit, the pair every list operation offers. */
export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

const LIMIT = z.object({
	limit: z
		.number({ message: 'must be a whole number of 1 or more' })
		.int('must be a whole number of 1 or more')
		.min(1, 'must be a whole number of 1 or more'),
});

/** The Options collection of an operation: settings of how it runs, not data it sends. */
export function optionsField(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** The Filters collection of a list operation; `description` where the filters need explaining. */
export function filtersField(options: INodeProperties[], description?: string): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		...(description && { description }),
		options,
	};
}

/** Return All / Limit of an item; a Limit below 1 (e.g. from an expression) fails the item before any request. */
export function listOptionsOf(
	context: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll, limit: Infinity };
	const { limit } = validateItem(
		context,
		LIMIT,
		{ limit: context.getNodeParameter('limit', itemIndex, 50) },
		itemIndex,
		{ limit: 'Limit' },
	);
	return { returnAll, limit };
}
