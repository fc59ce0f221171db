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
export { cancelCall } from './cancel.operation';
export { cancelCampaign } from './cancelCampaign.operation';
export { getCall } from './get.operation';
export { getCampaign } from './getCampaign.operation';
export { getManyCalls } from './getMany.operation';
export { getCallStatus } from './getStatus.operation';
export { placeContactCall } from './placeContactCall.operation';
export { placePhoneCall } from './placePhoneCall.operation';
export { runCampaign } from './runCampaign.operation';
export { stopCall } from './stop.operation';
