import type { IDataObject } from 'n8n-workflow';

import {
	contactCallOptions,
	PLACEMENT_LABELS,
	PLACEMENT_OPTIONS,
	placementBody,
	placementInput,
} from './fields';
import { agentLocator, contactLocator, fromNumberIdLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { sampleById } from '../../shared/operation';
import { WAIT_FIELDS } from './placement/waitFields';
import { UUID, validateItem } from '../../shared/validation';
import { placementExecute, startsAtOf } from './placement/placeAndAwait';

const CONTACT_CALL = PLACEMENT_OPTIONS.extend({
	agentId: UUID,
	contactId: UUID,
	fromNumberId: UUID,
});

const LABELS = {
	...PLACEMENT_LABELS,
	agentId: 'Agent',
	contactId: 'Contact',
	fromNumberId: 'From Number',
};

export const placeContactCall: Operation = {
	option: {
		name: 'Place AI Call to Contact',
		value: 'placeContactCall',
		action: 'Place AI call to contact',
		description: 'Have a voice AI agent call a stored contact now or at a set time',
	},
	kind: 'write',
	endpoint: 'placeContactCall',
	example: {
		agentId: sampleById('agent'),
		contactId: sampleById('contact'),
		fromNumberId: sampleById('phoneNumberId'),
	},
	fields: [
		agentLocator(),
		contactLocator(),
		fromNumberIdLocator(),
		contactCallOptions,
		...WAIT_FIELDS,
	],
	execute: placementExecute('placeContactCall', function (itemIndex) {
		const options = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input = validateItem(
			this,
			CONTACT_CALL,
			{
				agentId: this.getNodeParameter('agentId', itemIndex, '', { extractValue: true }),
				contactId: this.getNodeParameter('contactId', itemIndex, '', { extractValue: true }),
				fromNumberId: this.getNodeParameter('fromNumberId', itemIndex, '', { extractValue: true }),
				...placementInput(options, this.getTimezone()),
			},
			itemIndex,
			LABELS,
		);
		const body: IDataObject = {
			agent_id: input.agentId,
			contact_id: input.contactId,
			from_number_id: input.fromNumberId,
			...placementBody(input),
		};
		return { body, startsAt: startsAtOf(input) };
	}),
};
