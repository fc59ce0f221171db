import type { IDataObject } from 'n8n-workflow';

import {
	CONTACT_FIELD_LABELS,
	contactBody,
	contactFieldsSchemaFor,
	contactInput,
	updateContactFields,
} from './fields';
import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { defaultCountryOf, failItem, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';
import { idParameter } from '../../shared/ids';

export const updateContact: Operation = {
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update contact',
		description: 'Change the fields you add of a contact; the others keep their values',
	},
	kind: 'write',
	endpoint: 'updateContact',
	example: { contactId: sampleById('contact'), updateFields: { description: 'Updated' } },
	fields: [contactLocator(), ...updateContactFields],
	execute: perItem(async function (itemIndex) {
		const contactId = idParameter(this, itemIndex, 'contactId', 'Contact');
		const input = contactInput(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
		const fields = validateItem(
			this,
			contactFieldsSchemaFor(defaultCountryOf(this, itemIndex)),
			input,
			itemIndex,
			CONTACT_FIELD_LABELS,
		);
		const body = contactBody(fields);
		if (!Object.keys(body).length) {
			failItem(this, itemIndex, ['Update Fields: add at least one field to change']);
		}
		const { payload } = await apiRequest.call(this, 'updateContact', {
			params: { contactId },
			body,
			itemIndex,
		});
		return payload as IDataObject;
	}),
};
