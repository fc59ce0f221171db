import type { Resource } from '../../shared/operation';
import { createTask } from './create.operation';
import { getTask } from './get.operation';
import { getManyTasks } from './getMany.operation';

export const task: Resource = {
	option: {
		name: 'Task',
		value: 'task',
		description: 'To-dos of the organization, with status, priority and assignees',
	},
	defaultOperation: 'create',
	operations: [createTask, getTask, getManyTasks],
};
