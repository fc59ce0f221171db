import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Agent',
		value: 'agent',
		description: 'Voice AI agents and the voices they speak with',
	},
	defaultOperation: 'create',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { createAgent } from './create.operation';
export { getAgent } from './get.operation';
export { getManyAgents } from './getMany.operation';
export { listVoices } from './listVoices.operation';
export { updateAgent } from './update.operation';
