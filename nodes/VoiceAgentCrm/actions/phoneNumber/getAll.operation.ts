import type { IDataObject } from 'n8n-workflow';

import { listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const getAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many phone numbers',
		description: 'List the phone numbers calls can be placed from, one item per number',
	},
	kind: 'list',
	endpoint: 'listPhoneNumbers',
	example: { returnAll: false, limit: 5 },
	fields: returnAllFields,
	execute: perItem(async function (itemIndex) {
		const { limit } = listOptionsOf(this, itemIndex);
		// the list comes whole (one request, no paging, as the editor's number pickers read it)
		const { payload } = await apiRequest.call(this, 'listPhoneNumbers', { itemIndex });
		return ((Array.isArray(payload) ? payload : []) as IDataObject[]).slice(0, limit);
	}),
};
