import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { validateItem } from '../../shared/validation';
import { apiList } from '../../transport/paging';

const filtersSchema = z.object({
	sort: z.enum(['asc', 'desc'], {
		message: 'must be asc (oldest first) or desc (newest first)',
	}),
	status: z.enum(['active', 'inactive'], { message: 'must be active or inactive' }).optional(),
	type: z.string().trim().optional(),
	name: z.string().trim().optional(),
	answer_method: z
		.enum(['manual', 'auto'], {
			message: 'must be manual (human agents) or auto (AI agent)',
		})
		.optional(),
});

const LABELS = {
	sort: 'Sort by Creation Date',
	status: 'Status',
	type: 'Type',
	name: 'Name',
	answer_method: 'Answer Method',
};

interface ChannelFilters {
	answerMethod?: string;
	name?: string;
	status?: string;
	type?: string;
}

export const getManyChannels: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many channels',
		description: 'List the messaging channels of the organization (WhatsApp Business and others)',
	},
	kind: 'list',
	endpoint: 'listChannels',
	example: { returnAll: false, limit: 5, filters: {} },
	fields: [
		...returnAllFields,
		{
			displayName: 'Sort by Creation Date',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Newest First', value: 'desc' },
				{ name: 'Oldest First', value: 'asc' },
			],
			default: 'desc',
			description: 'Order of the channels by when they were created',
		},
		filtersField([
			{
				displayName: 'Answer Method',
				name: 'answerMethod',
				type: 'options',
				options: [
					{ name: 'Auto (AI Agent)', value: 'auto' },
					{ name: 'Manual (Human Agents)', value: 'manual' },
				],
				default: 'manual',
				description: 'Only channels answered this way',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Sales',
				description: 'Only channels whose name contains this text',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Active', value: 'active' },
					{ name: 'Inactive', value: 'inactive' },
				],
				default: 'active',
				description: 'Only channels with this status',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'string',
				default: '',
				placeholder: 'e.g. WABA',
				description: 'Only channels of this type, e.g. WABA for WhatsApp Business',
			},
		]),
	],
	execute: perItem(async function (itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as ChannelFilters;
		const input = {
			sort: this.getNodeParameter('sort', itemIndex, 'desc'),
			status: filters.status || undefined,
			type: filters.type || undefined,
			name: filters.name || undefined,
			answer_method: filters.answerMethod || undefined,
		};
		const query = validateItem(this, filtersSchema, input, itemIndex, LABELS);
		const { returnAll, limit } = listOptionsOf(this, itemIndex);
		const records = await apiList.call(this, 'listChannels', {
			query: withoutEmpty(query),
			returnAll,
			limit,
			itemIndex,
		});
		return records as IDataObject[];
	}),
};

function withoutEmpty(query: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
	);
}
