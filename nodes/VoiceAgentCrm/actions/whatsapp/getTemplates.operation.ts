import { listOptionsOf, returnAllFields } from '../../shared/fields';
import { idParameter } from '../../shared/ids';
import { channelLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { NON_EMPTY } from '../../shared/validation';
import { apiList } from '../../transport/paging';

export const getTemplates: Operation = {
	option: {
		name: 'Get Templates',
		value: 'getTemplates',
		action: 'Get message templates of channel',
		description: 'List the message templates of a WhatsApp Business channel, one item per template',
	},
	kind: 'read',
	endpoint: 'listTemplates',
	example: { channelId: sampleById('channel'), returnAll: false, limit: 5 },
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
		// every template, approved or not: a workflow may check what is still pending review
		return await apiList.call(this, 'listTemplates', {
			...listOptionsOf(this, itemIndex),
			query: { channel_id: channelId },
			itemIndex,
		});
	}),
};
