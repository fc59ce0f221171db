import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const listVoices: Operation = {
	option: {
		name: 'List Voices',
		value: 'listVoices',
		action: 'List available voices',
		description: 'List the voices an agent can speak with',
	},
	kind: 'read',
	endpoint: 'listVoices',
	example: {},
	fields: [],
	execute: perItem(async function (itemIndex) {
		const { payload } = await apiRequest.call(this, 'listVoices', { itemIndex });
		return payload as IDataObject[];
	}),
};
