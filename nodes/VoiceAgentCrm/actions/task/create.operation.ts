import type { IDataObject } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';
import { z } from 'zod';

import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { EMAIL, NON_EMPTY, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';
import { oneOf, STATUS_OPTIONS, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES } from './taskValues';

/** "a@x.com, b@x.com" from the form, or a list from an expression, as a list of emails. */
function emailList(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return value
		.split(',')
		.map((email) => email.trim())
		.filter(Boolean);
}

/** A JSON text from the form, or an object from an expression, as an object. */
function jsonObject(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return jsonParse(value, { fallbackValue: value });
}

const JSON_OBJECT_EXPECTED = 'must be a JSON object, like {"source": "web form"}';

const TASK = z.object({
	brief: NON_EMPTY,
	type: oneOf(TASK_TYPES).optional(),
	details: z.string().optional(),
	status: oneOf(TASK_STATUSES).optional(),
	priority: oneOf(TASK_PRIORITIES).optional(),
	assignedTo: z
		.preprocess(emailList, z.array(EMAIL, { message: 'must be emails separated by commas' }))
		.optional(),
	additionalData: z
		.preprocess(jsonObject, z.record(z.string(), z.unknown(), { message: JSON_OBJECT_EXPECTED }))
		.optional(),
});

const LABELS = {
	brief: 'Brief',
	type: 'Type',
	details: 'Details',
	status: 'Status',
	priority: 'Priority',
	assignedTo: 'Assigned To',
	additionalData: 'Additional Data',
};

export const createTask: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create task',
		description: 'Create a task with a short brief and optional details',
	},
	kind: 'write',
	endpoint: 'createTask',
	example: { brief: 'Call back', additionalFields: {} },
	fields: [
		{
			displayName: 'Brief',
			name: 'brief',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Call back about the renewal',
			description: 'Short description of the task',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Additional Data',
					name: 'additionalData',
					type: 'json',
					default: '{}',
					description:
						'Custom data as a JSON object, e.g. {"source": "web form", "order_id": "A-1001"}',
				},
				{
					displayName: 'Assigned To',
					name: 'assignedTo',
					type: 'string',
					default: '',
					placeholder: 'e.g. ana@example.com, bruno@example.com',
					description: 'Emails of the organization members to assign, separated by commas',
				},
				{
					displayName: 'Details',
					name: 'details',
					type: 'string',
					typeOptions: { rows: 4 },
					default: '',
					description: 'Detailed text of the task',
				},
				{
					displayName: 'Priority',
					name: 'priority',
					type: 'options',
					default: 'medium',
					description: 'How urgent the task is',
					options: [
						{ name: 'High', value: 'high' },
						{ name: 'Low', value: 'low' },
						{ name: 'Medium', value: 'medium' },
					],
				},
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					default: 'todo',
					description: 'Where the task stands',
					options: STATUS_OPTIONS,
				},
				{
					displayName: 'Type',
					name: 'type',
					type: 'options',
					default: 'custom',
					description: 'What kind of task it is',
					options: [
						{ name: 'AI', value: 'AI', description: 'Created for or by an AI' },
						{
							name: 'Automation',
							value: 'automatization',
							description: 'Created by an automation such as this workflow',
						},
						{ name: 'Custom', value: 'custom', description: 'A task written by a person' },
						{ name: 'System', value: 'system', description: 'Created by the system' },
					],
				},
			],
		},
	],
	execute: perItem(async function (itemIndex) {
		const input = {
			brief: this.getNodeParameter('brief', itemIndex),
			...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		};
		const task = validateItem(this, TASK, input, itemIndex, LABELS);
		const body: IDataObject = {
			brief: task.brief,
			type: task.type,
			details: task.details,
			status: task.status,
			priority: task.priority,
			assigned_to: task.assignedTo,
			additional_data: task.additionalData as IDataObject | undefined,
		};
		for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
		const { payload } = await apiRequest.call(this, 'createTask', { body, itemIndex });
		return payload as IDataObject;
	}),
};
