import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: { name: 'Message', value: 'message', description: 'Messages of conversation threads' },
	defaultOperation: 'get',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { getMessage } from './get.operation';
