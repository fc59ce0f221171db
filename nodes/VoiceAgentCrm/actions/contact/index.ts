import type { Resource } from '../../shared/operation';
import { createContact } from './create.operation';
import { deleteContact } from './delete.operation';
import { getContactComments } from './getComments.operation';
import { getManyContacts } from './getMany.operation';
import { getContactTags } from './getTags.operation';
import { updateContact } from './update.operation';

export const contact: Resource = {
	option: {
		name: 'Contact',
		value: 'contact',
		description:
			'People of the organization, with their phone number, details, custom fields, tags and comments',
	},
	defaultOperation: 'create',
	operations: [
		createContact,
		deleteContact,
		getContactComments,
		getManyContacts,
		getContactTags,
		updateContact,
	],
};
