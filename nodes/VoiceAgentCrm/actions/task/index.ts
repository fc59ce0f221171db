import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Task',
		value: 'task',
		description: 'To-dos of the organization, with status, priority and assignees',
	},
	defaultOperation: 'create',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { createTask } from './create.operation';
export { getTask } from './get.operation';
export { getManyTasks } from './getMany.operation';
