import type { Resource } from '../../shared/operation';
import { getMany } from './getMany.operation';
import { update } from './update.operation';

export const thread: Resource = {
	option: {
		name: 'Thread',
		value: 'thread',
		description: 'Conversation threads between a channel and a contact',
	},
	defaultOperation: 'getAll',
	operations: [getMany, update],
};
