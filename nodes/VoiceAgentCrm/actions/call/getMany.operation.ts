import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import { agentLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { withCallId } from '../../shared/results';
import { UUID, validateItem } from '../../shared/validation';
import { apiList } from '../../transport/request';

/** The full record's status vocabulary: the one the listed calls show in call_status. */
const RECORD_STATUSES = [
	'answering-machine',
	'busy',
	'completed',
	'failed',
	'in-progress',
	'in-queue',
	'incomplete',
	'no-answer',
	'scheduled',
	'voice_mail',
] as const;

const callFilters = filtersField([
	{ ...agentLocator(), required: false, description: 'Only calls made by this agent' },
	{
		displayName: 'Record Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Answering Machine', value: 'answering-machine' },
			{ name: 'Busy', value: 'busy' },
			{ name: 'Completed', value: 'completed' },
			{ name: 'Failed', value: 'failed' },
			{ name: 'In Progress', value: 'in-progress' },
			{ name: 'In Queue', value: 'in-queue' },
			{ name: 'Incomplete', value: 'incomplete' },
			{ name: 'No Answer', value: 'no-answer' },
			{ name: 'Scheduled', value: 'scheduled' },
			{ name: 'Voice Mail', value: 'voice_mail' },
		],
		default: 'completed',
		description:
			"Only calls with this call_status in the call record's words (Get Status uses other words, e.g. ended)",
	},
]);

const FILTERS = z.object({
	agentId: UUID.optional(),
	status: z
		.enum(RECORD_STATUSES, {
			errorMap: () => ({ message: `must be one of ${RECORD_STATUSES.join(', ')}` }),
		})
		.optional(),
});

export const getMany: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many calls',
		description:
			'List calls, newest first, optionally only those of an agent or with a record status',
	},
	endpoint: 'listCalls',
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
