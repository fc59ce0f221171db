import { listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiList } from '../../transport/paging';

export const getManyPhoneNumbers: Operation = {
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
		return await apiList.call(this, 'listPhoneNumbers', {
			...listOptionsOf(this, itemIndex),
			itemIndex,
		});
	}),
};
