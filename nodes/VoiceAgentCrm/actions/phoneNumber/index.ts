import type { Resource } from '../../shared/operation';
import { getAll } from './getAll.operation';

export const phoneNumber: Resource = {
	option: {
		name: 'Phone Number',
		value: 'phoneNumber',
		description: 'The phone numbers of the organization that calls are placed from',
	},
	defaultOperation: 'getAll',
	operations: [getAll],
};
