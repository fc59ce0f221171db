import type { Resource } from '../../shared/operation';
import { create } from './create.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { listVoices } from './listVoices.operation';
import { update } from './update.operation';

export const agent: Resource = {
	option: {
		name: 'Agent',
		value: 'agent',
		description: 'Voice AI agents and the voices they speak with',
	},
	defaultOperation: 'create',
	operations: [create, get, getMany, listVoices, update],
};
