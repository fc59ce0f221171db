import type { Resource } from '../../shared/operation';
import { getMany } from './getMany.operation';

export const channel: Resource = {
	option: {
		name: 'Channel',
		value: 'channel',
		description: 'Messaging channels, such as a WhatsApp Business number',
	},
	defaultOperation: 'getAll',
	operations: [getMany],
};
