import type { IDataObject } from 'n8n-workflow';

import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import { idParameter } from '../../shared/ids';

export const getContactTags: Operation = {
	option: {
		name: 'Get Tags',
		value: 'getTags',
		action: 'Get tags of contact',
		description: 'List the tags attached to a contact',
	},
	kind: 'read',
	endpoint: 'listContactTags',
	example: { contactId: sampleById('contact') },
	fields: [contactLocator()],
	execute: perItem(async function (itemIndex) {
		const contactId = idParameter(this, itemIndex, 'contactId', 'Contact');
		const { payload } = await apiRequest.call(this, 'listContactTags', {
			params: { contactId },
			itemIndex,
		});
		return payload as IDataObject[];
	}),
};
