import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Channel',
		value: 'channel',
		description: 'Messaging channels, such as a WhatsApp Business number',
	},
	defaultOperation: 'getAll',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { getManyChannels } from './getMany.operation';
