import type { Resource } from '../../shared/operation';
import { get } from './get.operation';

export const message: Resource = {
	option: { name: 'Message', value: 'message', description: 'Messages of conversation threads' },
	defaultOperation: 'get',
	operations: [get],
};
