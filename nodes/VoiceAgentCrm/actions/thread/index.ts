import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Thread',
		value: 'thread',
		description: 'Conversation threads between a channel and a contact',
	},
	defaultOperation: 'getAll',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { getManyThreads } from './getMany.operation';
export { updateThread } from './update.operation';
