import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Comment',
		value: 'comment',
		description: 'Notes on a contact, from a member, the system, an AI or an automation',
	},
	defaultOperation: 'create',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { createComment } from './create.operation';
