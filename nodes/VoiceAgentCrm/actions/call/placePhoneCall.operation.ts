import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import {
	DELAY,
	fullNameField,
	PLACEMENT_LABELS,
	PLACEMENT_OPTIONS,
	phoneCallOptions,
	placementBody,
	placementInput,
	toNumberField,
} from './fields';
import { defaultCountryField } from '../../shared/fields';
import { agentLocator, fromNumberLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { sampleById } from '../../shared/operation';
import { WAIT_FIELDS } from './placement/waitFields';
import {
	defaultCountryOf,
	E164,
	NON_EMPTY,
	phoneNumber,
	UUID,
	validateItem,
} from '../../shared/validation';
import { placementExecute, startsAtOf } from './placement/placeAndAwait';

/** The call's rules; To Number read with the item's Default Country. */
function phoneCallSchema(defaultCountry: string | undefined) {
	return PLACEMENT_OPTIONS.extend({
		agentId: UUID,
		fromNumber: E164,
		toNumber: phoneNumber(defaultCountry),
		fullName: NON_EMPTY,
		email: z.string().trim().optional(),
		country: z.string().trim().optional(),
		delay: DELAY.optional(),
	}).refine((input) => !(input.delay && input.scheduleZone !== undefined), {
		path: ['delay'],
		message: 'give either a delay or a schedule, not both',
	});
}

const LABELS = {
	...PLACEMENT_LABELS,
	agentId: 'Agent',
	fromNumber: 'From Number',
	toNumber: 'To Number',
	fullName: 'Full Name',
	email: 'Email',
	country: 'Country',
};

export const placePhoneCall: Operation = {
	option: {
		name: 'Place AI Call',
		value: 'placePhoneCall',
		action: 'Place AI call',
		description:
			'Have a voice AI agent call a phone number (E.164, e.g. +14155550123) now, after a delay or at a set time',
	},
	kind: 'write',
	endpoint: 'placePhoneCall',
	example: {
		agentId: sampleById('agent'),
		fromNumber: sampleById('phoneNumber'),
		toNumber: '+14155550199',
		fullName: 'Jane Doe',
	},
	fields: [
		agentLocator(),
		fromNumberLocator(),
		toNumberField,
		defaultCountryField,
		fullNameField,
		phoneCallOptions,
		...WAIT_FIELDS,
	],
	execute: placementExecute('placePhoneCall', function (itemIndex) {
		const options = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input = validateItem(
			this,
			phoneCallSchema(defaultCountryOf(this, itemIndex)),
			{
				agentId: this.getNodeParameter('agentId', itemIndex, '', { extractValue: true }),
				fromNumber: this.getNodeParameter('fromNumber', itemIndex, '', { extractValue: true }),
				toNumber: this.getNodeParameter('toNumber', itemIndex, ''),
				fullName: this.getNodeParameter('fullName', itemIndex, ''),
				email: options.email || undefined,
				country: options.country || undefined,
				delay: options.delay,
				...placementInput(options, this.getTimezone()),
			},
			itemIndex,
			LABELS,
		);
		const body: IDataObject = {
			agent_id: input.agentId,
			from_number: input.fromNumber,
			to_number: input.toNumber,
			full_name: input.fullName,
			...(input.email ? { email: input.email } : {}),
			...(input.country ? { country: input.country } : {}),
			...(input.delay ? { delay: input.delay } : {}),
			...placementBody(input),
		};
		return { body, startsAt: startsAtOf(input) };
	}),
};
