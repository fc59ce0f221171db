import { listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiList } from '../../transport/paging';

export const getManyTags: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many tags',
		description: 'List the tags of the organization',
	},
	kind: 'list',
	endpoint: 'listTags',
	example: { returnAll: false, limit: 5 },
	fields: returnAllFields,
	execute: perItem(async function (itemIndex) {
		return await apiList.call(this, 'listTags', { ...listOptionsOf(this, itemIndex), itemIndex });
	}),
};
