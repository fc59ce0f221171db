import type { IDataObject } from 'n8n-workflow';

import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import { idParameter } from '../../shared/ids';

export const getContactComments: Operation = {
	option: {
		name: 'Get Comments',
		value: 'getComments',
		action: 'Get comments of contact',
		description: 'List the comments on a contact, newest first',
	},
	kind: 'read',
	endpoint: 'listContactComments',
	example: { contactId: sampleById('contact') },
	fields: [contactLocator()],
	execute: perItem(async function (itemIndex) {
		const contactId = idParameter(this, itemIndex, 'contactId', 'Contact');
		const { payload } = await apiRequest.call(this, 'listContactComments', {
			params: { contactId },
			itemIndex,
		});
		return payload as IDataObject[];
	}),
};
