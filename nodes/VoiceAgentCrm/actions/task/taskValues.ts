import type { INodePropertyOptions } from 'n8n-workflow';
import { z } from 'zod';

/** The value sets of a task (API reference, "Task"), as zod rules and as n8n options. */
export const TASK_STATUSES = [
	'backlog',
	'todo',
	'in_progress',
	'done',
	'blocked',
	'canceled',
] as const;
export const TASK_PRIORITIES = ['low', 'medium', 'high'] as const;
export const TASK_TYPES = ['custom', 'AI', 'system', 'automatization'] as const;

export function oneOf<T extends readonly [string, ...string[]]>(values: T) {
	return z.enum(values, { message: `must be one of ${values.join(', ')}` });
}

/** Sorted by name, as n8n's lint wants. */
export const STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Backlog', value: 'backlog' },
	{ name: 'Blocked', value: 'blocked' },
	{ name: 'Canceled', value: 'canceled' },
	{ name: 'Done', value: 'done' },
	{ name: 'In Progress', value: 'in_progress' },
	{ name: 'To Do', value: 'todo' },
];
