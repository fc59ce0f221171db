import type { Resource } from '../../shared/operation';
import { cancel } from './cancel.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { getStatus } from './getStatus.operation';
import { placeContactCall } from './placeContactCall.operation';
import { placePhoneCall } from './placePhoneCall.operation';
import { stop } from './stop.operation';

export const call: Resource = {
	option: {
		name: 'Call',
		value: 'call',
		description: 'Outbound AI phone calls: place, follow, stop and cancel them',
	},
	defaultOperation: 'placePhoneCall',
	operations: [cancel, get, getMany, getStatus, placePhoneCall, placeContactCall, stop],
};
