import type { IDataObject } from 'n8n-workflow';

import { listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

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
		const { limit } = listOptionsOf(this, itemIndex);
		// the tags list takes no limit/offset (inferred endpoint): one request, cut to the limit here
		const { payload } = await apiRequest.call(this, 'listTags', { itemIndex });
		return ((Array.isArray(payload) ? payload : []) as IDataObject[]).slice(0, limit);
	}),
};
