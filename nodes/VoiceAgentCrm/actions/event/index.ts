import type { Resource } from '../../shared/operation';
import { send } from './send.operation';

export const event: Resource = {
	option: {
		name: 'Event',
		value: 'event',
		description:
			'Business events from other systems (purchases, forms, visits), recorded on contacts',
	},
	defaultOperation: 'send',
	operations: [send],
};
