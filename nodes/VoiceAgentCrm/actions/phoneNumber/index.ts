import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Phone Number',
		value: 'phoneNumber',
		description: 'The phone numbers of the organization that calls are placed from',
	},
	defaultOperation: 'getAll',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { getManyPhoneNumbers } from './getAll.operation';
