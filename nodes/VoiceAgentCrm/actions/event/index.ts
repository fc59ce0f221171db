import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Event',
		value: 'event',
		description:
			'Business events from other systems (purchases, forms, visits), recorded on contacts',
	},
	defaultOperation: 'send',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { sendEvents } from './send.operation';
