import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { phoneNumberField } from './fields';
import { ContactDirectory, contactsWithIds, RequestCount } from '../../shared/contactDirectory';
import { markedOn, withMark } from '../../shared/doNotCall';
import { defaultCountryField } from '../../shared/fields';
import { idParameter } from '../../shared/ids';
import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { ItemResults, sampleById } from '../../shared/operation';
import { defaultCountryOf, phoneNumber, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

/**
 * Contact → Mark Do Not Call: puts a person on the organization's do-not-call list, which every
 * Place operation honours (`shared/doNotCall.ts`): the field `do_not_call` in the contact's
 * Additional Data, merged into the entries it has, the contact created when the number is new.
 */

type Target = { itemIndex: number; phone: string } | { itemIndex: number; contactId: string };

/** The item's person, checked before any request: a phone number (E.164) or a contact ID. */
function targetOf(context: IExecuteFunctions, itemIndex: number): Target {
	const { markBy } = validateItem(
		context,
		z.object({
			markBy: z.enum(['phone', 'contact'], { message: 'must be Phone Number or Contact' }),
		}),
		{ markBy: context.getNodeParameter('markBy', itemIndex, 'phone') },
		itemIndex,
		{ markBy: 'Mark By' },
	);
	if (markBy === 'contact')
		return { itemIndex, contactId: idParameter(context, itemIndex, 'contactId', 'Contact') };
	const { phone } = validateItem(
		context,
		z.object({ phone: phoneNumber(defaultCountryOf(context, itemIndex)) }),
		{ phone: context.getNodeParameter('phoneNumber', itemIndex, '') },
		itemIndex,
		{ phone: 'Phone Number' },
	);
	return { itemIndex, phone };
}

function noSuchContact(context: IExecuteFunctions, target: Target): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Item ${target.itemIndex}: Contact: no contact of the organization has the ID ${'contactId' in target ? target.contactId : ''}`,
		{
			itemIndex: target.itemIndex,
			description:
				'Mark the person by phone number instead: a number not stored yet becomes a contact on the list.',
		},
	);
}

/** The contact marked: created with the mark, given the mark, or as it was when already marked. */
async function mark(
	context: IExecuteFunctions,
	contact: IDataObject | undefined,
	phone: string | undefined,
	itemIndex: number,
): Promise<IDataObject> {
	const date = DateTime.now().setZone(context.getTimezone()).toISODate()!;
	const already = markedOn(contact);
	if (contact && already !== undefined)
		return { ...contact, do_not_call: already, already_marked: true };
	const additional_data = withMark(contact, date);
	const { payload } = contact
		? await apiRequest.call(context, 'updateContact', {
				params: { contactId: String(contact.id) },
				body: { additional_data },
				itemIndex,
			})
		: await apiRequest.call(context, 'createContact', {
				body: { phone_number: phone, additional_data },
				itemIndex,
			});
	return { ...(payload as IDataObject), do_not_call: date, already_marked: false };
}

const isConflict = (error: unknown) => error instanceof NodeApiError && error.httpCode === '409';

/**
 * The number's contact marked. A 409 on creating it means another run (an execution at the same
 * time) stored the number since it was looked up: that contact is marked instead.
 */
async function markNumber(
	context: IExecuteFunctions,
	directory: ContactDirectory,
	phone: string,
	itemIndex: number,
): Promise<IDataObject> {
	const [contact] = await directory.find('phone', phone);
	let marked: IDataObject;
	try {
		marked = await mark(context, contact, phone, itemIndex);
	} catch (error) {
		const holder = !contact && isConflict(error) && (await directory.holderOfPhone(phone));
		// the transport's errors are the node's already; anything else is wrapped with its item
		if (!holder)
			throw error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		marked = await mark(context, holder, phone, itemIndex);
	}
	directory.remember(marked);
	return marked;
}

export const markContactDoNotCall: Operation = {
	option: {
		name: 'Mark Do Not Call',
		value: 'markDoNotCall',
		action: 'Mark contact do not call',
		description:
			"Put a person on the organization's do-not-call list, which the Place operations skip; a new number becomes a contact",
	},
	kind: 'write',
	endpoint: 'updateContact',
	example: { markBy: 'contact', contactId: sampleById('contact') },
	fields: [
		{
			displayName: 'Mark By',
			name: 'markBy',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Phone Number',
					value: 'phone',
					description: 'The number called; a number not stored yet becomes a contact',
				},
				{ name: 'Contact', value: 'contact', description: 'A stored contact, by its ID' },
			],
			default: 'phone',
			description: 'How the person is named',
		},
		{
			...phoneNumberField,
			required: true,
			displayOptions: { show: { markBy: ['phone'] } },
		},
		{ ...defaultCountryField, displayOptions: { show: { markBy: ['phone'] } } },
		{ ...contactLocator(), displayOptions: { show: { markBy: ['contact'] } } },
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const results = new ItemResults(this, items.length);
		const targets: Target[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				targets.push(targetOf(this, itemIndex));
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
		const byPhone = targets.filter((target) => 'phone' in target);
		const byId = targets.filter((target) => 'contactId' in target);
		let withIds = new Map<string, IDataObject>();
		if (byId.length) {
			try {
				withIds = await contactsWithIds(
					this,
					byId.map((target) => target.contactId),
					byId[0].itemIndex,
				);
			} catch (error) {
				for (const target of byId) results.fail(target.itemIndex, error);
			}
		}
		// one directory for the run: a number given twice finds the contact its first item made
		let directory: ContactDirectory | undefined;
		if (byPhone.length) {
			try {
				directory = await ContactDirectory.open(
					this,
					new RequestCount(),
					byPhone[0].itemIndex,
					byPhone.length,
				);
			} catch (error) {
				for (const target of byPhone) results.fail(target.itemIndex, error);
			}
		}
		for (const target of targets) {
			const { itemIndex } = target;
			if (results.has(itemIndex)) continue;
			try {
				if ('contactId' in target) {
					const contact = withIds.get(target.contactId);
					if (!contact) throw noSuchContact(this, target);
					results.succeed(itemIndex, await mark(this, contact, undefined, itemIndex));
				} else {
					results.succeed(itemIndex, await markNumber(this, directory!, target.phone, itemIndex));
				}
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
		return results.items();
	},
};
