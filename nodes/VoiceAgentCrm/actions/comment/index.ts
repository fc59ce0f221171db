import type { Resource } from '../../shared/operation';
import { createComment } from './create.operation';

export const comment: Resource = {
	option: {
		name: 'Comment',
		value: 'comment',
		description: 'Notes on a contact, from a member, the system, an AI or an automation',
	},
	defaultOperation: 'create',
	operations: [createComment],
};
