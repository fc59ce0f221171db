import type { IDataObject } from 'n8n-workflow';

import {
	CONTACT_FIELD_LABELS,
	contactBody,
	contactFieldsSchemaFor,
	contactInput,
	createContactFields,
} from './fields';
import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import { defaultCountryOf, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

export const createContact: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create contact',
		description:
			'Create a contact from its phone number (E.164) and optional name, email and details',
	},
	kind: 'write',
	endpoint: 'createContact',
	example: { phoneNumber: sample('newPhoneNumber'), additionalFields: {} },
	fields: createContactFields,
	execute: perItem(async function (itemIndex) {
		const input = contactInput({
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		});
		const fields = validateItem(
			this,
			contactFieldsSchemaFor(defaultCountryOf(this, itemIndex)).required({ phoneNumber: true }),
			input,
			itemIndex,
			CONTACT_FIELD_LABELS,
		);
		const { payload } = await apiRequest.call(this, 'createContact', {
			body: contactBody(fields),
			itemIndex,
		});
		return payload as IDataObject;
	}),
};
