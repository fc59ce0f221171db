import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import { agentLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { RECORD_STATUS_OPTIONS, RECORD_STATUSES } from '../../shared/callVocabulary';
import { withCallId } from '../../shared/results';
import { UUID, validateItem } from '../../shared/validation';
import { apiList } from '../../transport/paging';

const callFilters = filtersField([
	{ ...agentLocator(), required: false, description: 'Only calls made by this agent' },
	{
		displayName: 'Record Status',
		name: 'status',
		type: 'options',
		options: RECORD_STATUS_OPTIONS,
		default: 'completed',
		description:
			"Only calls with this call_status in the call record's words (Get Status uses other words, e.g. ended)",
	},
]);

const FILTERS = z.object({
	agentId: UUID.optional(),
	status: z
		.enum(RECORD_STATUSES, {
			message: `must be one of ${RECORD_STATUSES.join(', ')}`,
		})
		.optional(),
});

export const getManyCalls: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many calls',
		description:
			'List calls, newest first, optionally only those of an agent or with a record status',
	},
	kind: 'list',
	endpoint: 'listCalls',
	example: { returnAll: false, limit: 5 },
	fields: [...returnAllFields, callFilters],
	execute: perItem(async function (itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const given = validateItem(
			this,
			FILTERS,
			{
				agentId: filters.agentId
					? this.getNodeParameter('filters.agentId', itemIndex, '', { extractValue: true }) ||
						undefined
					: undefined,
				status: filters.status,
			},
			itemIndex,
			{ agentId: 'Filters → Agent', status: 'Filters → Record Status' },
		);
		const query: IDataObject = {};
		if (given.agentId) query.agent_id = given.agentId;
		if (given.status) query.call_status = given.status;
		const calls = (await apiList.call(this, 'listCalls', {
			...listOptionsOf(this, itemIndex),
			query,
			itemIndex,
		})) as IDataObject[];
		return calls.map((call) => withCallId(call));
	}),
};
