import { z } from 'zod';

import { wabaRecipientFields, wabaRecipientOf, wabaSendBody, wabaSendOptions } from './fields';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { validateItem } from '../../shared/validation';
import { wabaSend } from './send';

// sent as written: leading spaces and line breaks are part of the message
const messageSchema = z.object({
	content: z.string().refine((text) => text.trim() !== '', 'must not be empty'),
});

export const sendMessage: Operation = {
	option: {
		name: 'Send Message',
		value: 'sendMessage',
		action: 'Send WhatsApp text message',
		description: 'Send a text message to a contact on WhatsApp, inside the 24-hour window',
	},
	kind: 'send',
	endpoint: 'sendMessage',
	example: {
		channelId: sampleById('channel'),
		contactId: sampleById('contact'),
		content: 'Hello',
		options: {},
	},
	fields: [
		...wabaRecipientFields,
		{
			displayName: 'Message Text',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			placeholder: 'e.g. Hi María, your order has shipped.',
			description: 'The text to send',
		},
		wabaSendOptions,
	],
	execute: perItem(async function (itemIndex) {
		const recipient = wabaRecipientOf(this, itemIndex);
		const input = { content: this.getNodeParameter('content', itemIndex, '') };
		const { content } = validateItem(this, messageSchema, input, itemIndex, {
			content: 'Message Text',
		});
		return await wabaSend.call(
			this,
			'sendMessage',
			wabaSendBody(recipient, { content }),
			itemIndex,
		);
	}),
};
