import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import { channelLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { validateItem } from '../../shared/validation';
import { apiList } from '../../transport/paging';

const filtersSchema = z.object({
	status: z.enum(['open', 'closed'], { message: 'must be open or closed' }).optional(),
	channel_id: z.string().trim().optional(),
});

export const getManyThreads: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many threads',
		description: 'List conversation threads, most recently updated first',
	},
	kind: 'list',
	endpoint: 'listThreads',
	example: { returnAll: false, limit: 5, filters: {} },
	fields: [
		...returnAllFields,
		filtersField([
			{
				...channelLocator(false),
				description: 'Only threads of this messaging channel',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Closed', value: 'closed' },
					{ name: 'Open', value: 'open' },
				],
				default: 'open',
				description: 'Only threads with this status',
			},
		]),
	],
	execute: perItem(async function (itemIndex) {
		const input = {
			status: (this.getNodeParameter('filters.status', itemIndex, '') as string) || undefined,
			channel_id:
				(this.getNodeParameter('filters.channelId', itemIndex, '', {
					extractValue: true,
				}) as string) || undefined,
		};
		const filters = validateItem(this, filtersSchema, input, itemIndex, {
			status: 'Status',
			channel_id: 'Channel',
		});
		const query: IDataObject = Object.fromEntries(
			Object.entries(filters).filter(([, value]) => value),
		);
		const { returnAll, limit } = listOptionsOf(this, itemIndex);
		const records = await apiList.call(this, 'listThreads', { query, returnAll, limit, itemIndex });
		return records as IDataObject[];
	}),
};
