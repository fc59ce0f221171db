import type { IDataObject } from 'n8n-workflow';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiList } from '../../transport/paging';

/** Filter parameter → the API's query parameter; each is a partial, case-insensitive match. */
const FILTER_QUERY = {
	fullName: 'full_name',
	email: 'email',
	phoneNumber: 'phone_number',
} as const;

export const getManyContacts: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many contacts',
		description:
			'List contacts, optionally only those whose name, email or phone number contains a text',
	},
	kind: 'list',
	endpoint: 'listContacts',
	example: { returnAll: false, limit: 5, filters: {} },
	// an agent looks a caller up by what the conversation gives: a name, an email or a number
	modelFills: ['filters.fullName', 'filters.email', 'filters.phoneNumber'],
	fields: [
		...returnAllFields,
		filtersField(
			[
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					default: '',
					placeholder: 'e.g. @example.com',
					description:
						'Only contacts whose email address contains this text, e.g. @example.com for everyone at that domain',
				},
				{
					displayName: 'Full Name',
					name: 'fullName',
					type: 'string',
					default: '',
					placeholder: 'e.g. García',
					description: 'Only contacts whose full name contains this text, e.g. García',
				},
				{
					displayName: 'Phone Number',
					name: 'phoneNumber',
					type: 'string',
					default: '',
					placeholder: 'e.g. +3460',
					description:
						'Only contacts whose phone number (as stored, E.164) contains this text, e.g. +3460 for Spanish mobiles',
				},
			],
			'Only return contacts whose fields contain these texts (partial match)',
		),
	],
	execute: perItem(async function (itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const query: IDataObject = {};
		for (const [parameter, name] of Object.entries(FILTER_QUERY)) {
			const value = String(filters[parameter] ?? '').trim();
			if (value) query[name] = value;
		}
		const records = await apiList.call(this, 'listContacts', {
			query,
			...listOptionsOf(this, itemIndex),
			itemIndex,
		});
		return records as IDataObject[];
	}),
};
