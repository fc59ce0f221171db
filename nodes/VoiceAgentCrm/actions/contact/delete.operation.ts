import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { booleanResult } from '../../shared/results';
import { apiRequest } from '../../transport/request';
import { idParameter } from '../../shared/ids';

export const deleteContact: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete contact',
		description: 'Delete a contact permanently, with its tags and comments',
	},
	kind: 'write',
	endpoint: 'deleteContact',
	example: { contactId: sampleById('contact') },
	fields: [contactLocator()],
	execute: perItem(async function (itemIndex) {
		const contactId = idParameter(this, itemIndex, 'contactId', 'Contact');
		const { payload } = await apiRequest.call(this, 'deleteContact', {
			params: { contactId },
			itemIndex,
		});
		return booleanResult(payload, contactId);
	}),
};
