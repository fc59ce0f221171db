import type { Resource } from '../../shared/operation';
import { listVoices } from './listVoices.operation';

export const agent: Resource = {
	option: { name: 'Agent', value: 'agent', description: 'Voice AI agents and the voices they speak with' },
	selector: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: [],
		default: 'listVoices',
	},
	operations: [listVoices],
};
