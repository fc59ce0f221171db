import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Contact',
		value: 'contact',
		description:
			'People of the organization, with their phone number, details, custom fields, tags and comments',
	},
	defaultOperation: 'create',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { createContact } from './create.operation';
export { deleteContact } from './delete.operation';
export { getContactComments } from './getComments.operation';
export { getManyContacts } from './getMany.operation';
export { getContactTags } from './getTags.operation';
export { markContactDoNotCall } from './markDoNotCall.operation';
export { updateContact } from './update.operation';
export { upsertContact } from './upsert.operation';
