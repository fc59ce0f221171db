import { DateTime } from 'luxon';
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
import { dateTimeIn } from './fields';
import { carries, scanCalls, type TraceKeys } from './placement/trace';

/** A text filter left empty (or only spaces) is not given; an execution ID may come as a number. */
function optionalText(value: unknown): string | undefined {
	const text = value === undefined || value === null ? '' : String(value).trim();
	return text || undefined;
}

const callFilters = filtersField([
	{ ...agentLocator(), required: false, description: 'Only calls made by this agent' },
	{
		displayName: 'Created After',
		name: 'createdAfter',
		type: 'dateTime',
		default: '',
		description:
			"Only calls created after this date and time (in the workflow's time zone unless it carries an offset); the list is read newest first and stops at the first older call",
	},
	{
		displayName: 'Placed by Execution',
		name: 'placedByExecution',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1042',
		description:
			"Only calls placed by this n8n execution (its ID), read from the trace Place AI Call writes into each call's metadata: in an Error Workflow, the Error Trigger's execution ID finds the calls of the execution that failed",
	},
	{
		displayName: 'Placed by Workflow',
		name: 'placedByWorkflow',
		type: 'string',
		default: '',
		placeholder: 'e.g. 8Xq2LmZk4RtY7wPa',
		description:
			"Only calls placed by this n8n workflow (its ID), read from the trace in each call's metadata",
	},
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
	createdAfter: z
		.custom<DateTime>((value) => DateTime.isDateTime(value), {
			message: 'must be a date and time like 2030-05-01T10:30:00',
		})
		.optional(),
	placedByExecution: z.string().trim().min(1).optional(),
	placedByWorkflow: z.string().trim().min(1).optional(),
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
			'List calls, newest first, optionally by agent, record status, creation time, or the n8n execution that placed them',
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
				createdAfter: filters.createdAfter
					? (dateTimeIn(filters.createdAfter, this.getTimezone()) ?? filters.createdAfter)
					: undefined,
				placedByExecution: optionalText(filters.placedByExecution),
				placedByWorkflow: optionalText(filters.placedByWorkflow),
			},
			itemIndex,
			{
				agentId: 'Filters → Agent',
				status: 'Filters → Record Status',
				createdAfter: 'Filters → Created After',
				placedByExecution: 'Filters → Placed by Execution',
				placedByWorkflow: 'Filters → Placed by Workflow',
			},
		);
		const query: IDataObject = {};
		if (given.agentId) query.agent_id = given.agentId;
		if (given.status) query.call_status = given.status;
		const { returnAll, limit } = listOptionsOf(this, itemIndex);
		const trace: TraceKeys = {
			...(given.placedByExecution && { n8n_execution_id: given.placedByExecution }),
			...(given.placedByWorkflow && { n8n_workflow_id: given.placedByWorkflow }),
		};
		if (!given.createdAfter && !Object.keys(trace).length) {
			const calls = await apiList.call(this, 'listCalls', { returnAll, limit, query, itemIndex });
			return calls.map((call) => withCallId(call));
		}
		// the service filters neither on metadata nor on time: read newest first, stop at the Limit
		const calls: IDataObject[] = [];
		await scanCalls(this, { query, itemIndex, since: given.createdAfter?.toMillis() }, (call) => {
			if (carries(call, trace)) calls.push(withCallId(call));
			return calls.length >= limit;
		});
		return calls;
	}),
};
