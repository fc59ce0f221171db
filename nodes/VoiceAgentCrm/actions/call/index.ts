import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Call',
		value: 'call',
		description: 'Outbound AI phone calls: place, follow, stop and cancel them',
	},
	defaultOperation: 'placePhoneCall',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { cancel } from './cancel.operation';
export { get } from './get.operation';
export { getMany } from './getMany.operation';
export { getStatus } from './getStatus.operation';
export { placeContactCall } from './placeContactCall.operation';
export { placePhoneCall } from './placePhoneCall.operation';
export { stop } from './stop.operation';
