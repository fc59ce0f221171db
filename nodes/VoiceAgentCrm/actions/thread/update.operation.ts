import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { threadLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { failItem, NON_EMPTY, UUID, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

const updateSchema = z.object({
	threadId: NON_EMPTY,
	status: z.enum(['unchanged', 'open', 'closed'], {
		message: 'must be open, closed or unchanged',
	}),
	assignment: z.enum(['unchanged', 'assign', 'unassign'], {
		message: 'must be assign, unassign or unchanged',
	}),
});

const assigneeSchema = z.object({
	assignee: UUID,
	assigneeType: z.enum(['user', 'agent'], {
		message: 'is required when an assignee is set: user or agent',
	}),
});

const LABELS = {
	threadId: 'Thread',
	status: 'Status',
	assignment: 'Assignment',
	assignee: 'Assignee ID',
	assigneeType: 'Assignee Type',
};

export const updateThread: Operation = {
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update thread',
		description: 'Open or close a conversation thread, or change who it is assigned to',
	},
	kind: 'write',
	endpoint: 'updateThread',
	example: { threadId: sampleById('thread'), status: 'closed', assignment: 'unchanged' },
	fields: [
		threadLocator(),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Closed', value: 'closed' },
				{ name: 'Leave Unchanged', value: 'unchanged' },
				{ name: 'Open', value: 'open' },
			],
			// closing is what an update of a thread most often does, and a default must run
			default: 'closed',
			description: 'Close the conversation, reopen it, or leave its status as it is',
		},
		{
			displayName: 'Assignment',
			name: 'assignment',
			type: 'options',
			options: [
				{
					name: 'Assign',
					value: 'assign',
					description: 'Assign the thread to a user or an AI agent',
				},
				{ name: 'Leave Unchanged', value: 'unchanged' },
				{
					name: 'Unassign',
					value: 'unassign',
					description: 'Remove whoever the thread is assigned to',
				},
			],
			default: 'unchanged',
			description: 'Who handles the conversation',
		},
		{
			displayName: 'Assignee ID',
			name: 'assignee',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d',
			description: 'ID of the user or the AI agent who takes the conversation',
			displayOptions: { show: { assignment: ['assign'] } },
		},
		{
			displayName: 'Assignee Type',
			name: 'assigneeType',
			type: 'options',
			required: true,
			options: [
				{ name: 'AI Agent', value: 'agent' },
				{ name: 'User', value: 'user', description: 'A member of the organization' },
			],
			default: 'user',
			description: 'Whether the assignee is a user (a person) or an AI agent',
			displayOptions: { show: { assignment: ['assign'] } },
		},
	],
	execute: perItem(async function (itemIndex) {
		const input = {
			threadId: this.getNodeParameter('threadId', itemIndex, '', { extractValue: true }),
			status: this.getNodeParameter('status', itemIndex, 'unchanged'),
			assignment: this.getNodeParameter('assignment', itemIndex, 'unchanged'),
		};
		const { threadId, status, assignment } = validateItem(
			this,
			updateSchema,
			input,
			itemIndex,
			LABELS,
		);
		if (status === 'unchanged' && assignment === 'unchanged') {
			failItem(this, itemIndex, [
				'Status and Assignment: nothing to update; choose a status, assign or unassign',
			]);
		}
		const body: IDataObject = {
			...(status !== 'unchanged' && { status }),
			...(assignment === 'assign' && assigneeOf.call(this, itemIndex)),
			// the API unassigns on an explicit null, so it is sent, not left out
			...(assignment === 'unassign' && { assignee: null }),
		};
		const { payload } = await apiRequest.call(this, 'updateThread', {
			params: { threadId },
			body,
			itemIndex,
		});
		return payload as IDataObject;
	}),
};

function assigneeOf(this: Parameters<typeof validateItem>[0], itemIndex: number): IDataObject {
	const input = {
		assignee: this.getNodeParameter('assignee', itemIndex, ''),
		assigneeType: this.getNodeParameter('assigneeType', itemIndex, ''),
	};
	const { assignee, assigneeType } = validateItem(this, assigneeSchema, input, itemIndex, LABELS);
	return { assignee, assignee_type: assigneeType };
}
