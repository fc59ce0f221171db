import type { IDataObject } from 'n8n-workflow';

import { listOptionsOf, returnAllFields } from '../../shared/fields';
import { idParameter } from '../../shared/ids';
import { channelLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { NON_EMPTY } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

export const getTemplates: Operation = {
	option: {
		name: 'Get Templates',
		value: 'getTemplates',
		action: 'Get message templates of channel',
		description: 'List the message templates of a WhatsApp Business channel, one item per template',
	},
	endpoint: 'listTemplates',
	fields: [
		{
			...channelLocator(),
			description: 'The WhatsApp Business (WABA) channel whose templates to list',
		},
		...returnAllFields,
	],
	execute: perItem(async function (itemIndex) {
		// channel IDs are opaque text (e.g. chn_…), not UUIDs
		const channelId = idParameter(this, itemIndex, 'channelId', 'Channel', NON_EMPTY);
		const { limit } = listOptionsOf(this, itemIndex);
		// every template, approved or not: a workflow may check what is still pending review
		const { payload } = await apiRequest.call(this, 'listTemplates', {
			query: { channel_id: channelId },
			itemIndex,
		});
		return ((Array.isArray(payload) ? payload : []) as IDataObject[]).slice(0, limit);
	}),
};
