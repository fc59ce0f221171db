import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { channelLocator, contactLocator, threadLocator } from '../../shared/locators';
import { NON_EMPTY, UUID, validateItem } from '../../shared/validation';

/**
 * Fields every WhatsApp (WABA) send shares: who sends, who receives, and where the message is
 * kept. The API names `thread_id` and `save_message` on send-template; send-media and the
 * inferred send-message use the same names (docs/decisions.md).
 */
export const wabaRecipientFields: INodeProperties[] = [
	{
		...channelLocator(),
		description:
			'The WhatsApp Business (WABA) channel that sends the message. Pick it from the list or give its ID (e.g. chn_…).',
	},
	{
		...contactLocator(),
		description: 'The contact who receives the message on WhatsApp. Search by name, or give its ID (a UUID).',
	},
];

export const wabaSendOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Save to Thread',
			name: 'saveMessage',
			type: 'boolean',
			default: true,
			description:
				'Whether to store the sent message in the conversation thread, so that it shows in the inbox and can be read with Message → Get',
		},
		{
			...threadLocator(),
			required: false,
			description:
				'An existing conversation thread with this contact on this channel to send in (e.g. thr-…). Leave empty to use the conversation between the channel and the contact, which is started if there is none.',
		},
	],
};

const recipientSchema = z.object({
	channelId: NON_EMPTY,
	contactId: UUID,
	threadId: z.string().trim(),
	saveMessage: z.boolean({ invalid_type_error: 'must be true or false' }),
});

const RECIPIENT_LABELS = { channelId: 'Channel', contactId: 'Contact', threadId: 'Thread', saveMessage: 'Save to Thread' };

export interface WabaRecipient {
	channel_id: string;
	contact_id: string;
	thread_id?: string;
}

/** Channel, contact and thread of a send, checked; `save_message` is added last by `wabaSendBody`. */
export function wabaRecipientOf(context: IExecuteFunctions, itemIndex: number): WabaRecipient & { save_message: boolean } {
	const input = {
		channelId: context.getNodeParameter('channelId', itemIndex, '', { extractValue: true }),
		contactId: context.getNodeParameter('contactId', itemIndex, '', { extractValue: true }),
		threadId: context.getNodeParameter('options.threadId', itemIndex, '', { extractValue: true }) ?? '',
		saveMessage: context.getNodeParameter('options.saveMessage', itemIndex, true),
	};
	const { channelId, contactId, threadId, saveMessage } = validateItem(context, recipientSchema, input, itemIndex, RECIPIENT_LABELS);
	return {
		channel_id: channelId,
		contact_id: contactId,
		...(threadId && { thread_id: threadId }),
		save_message: saveMessage,
	};
}

/** The body of a send: recipient first, the message in the middle, thread and saving last. */
export function wabaSendBody(recipient: ReturnType<typeof wabaRecipientOf>, message: IDataObject): IDataObject {
	const { channel_id, contact_id, thread_id, save_message } = recipient;
	return { channel_id, contact_id, ...message, ...(thread_id && { thread_id }), save_message };
}
