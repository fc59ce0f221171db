import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { apiList } from '../../transport/paging';
import { optionsField } from '../../shared/fields';
import { contactLocator, threadLocator, wabaChannelLocator } from '../../shared/locators';
import { shortened } from '../../transport/text';
import { failItem, NON_EMPTY, UUID, validateItem } from '../../shared/validation';

/** The channels that can send WhatsApp messages: the Channel list offers only these. */
export const WABA_SENDER = { type: 'WABA', status: 'active' };

/**
 * Fields every WhatsApp (WABA) send shares: who sends, who receives, and where the message is
 * kept. The API names `thread_id` and `save_message` on send-template; send-media and the
 * inferred send-message use the same names (docs/decisions.md).
 */
export const wabaRecipientFields: INodeProperties[] = [
	wabaChannelLocator(),
	{
		...contactLocator(),
		description: 'The contact who receives the message on WhatsApp',
	},
];

export const wabaSendOptions = optionsField([
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
			'A conversation thread with this contact on this channel to send in (e.g. thr-…); empty uses or starts their conversation',
	},
]);

const recipientSchema = z.object({
	channelId: NON_EMPTY,
	contactId: UUID,
	threadId: z.string().trim(),
	saveMessage: z.boolean({ message: 'must be true or false' }),
});

const RECIPIENT_LABELS = {
	channelId: 'Channel',
	contactId: 'Contact',
	threadId: 'Thread',
	saveMessage: 'Save to Thread',
};

export interface WabaRecipient {
	channel_id: string;
	contact_id: string;
	thread_id?: string;
}

/** Channel, contact and thread of a send, checked; `save_message` is added last by `wabaSendBody`. */
export function wabaRecipientOf(
	context: IExecuteFunctions,
	itemIndex: number,
): WabaRecipient & { save_message: boolean } {
	const input = {
		channelId: context.getNodeParameter('channelId', itemIndex, '', { extractValue: true }),
		contactId: context.getNodeParameter('contactId', itemIndex, '', { extractValue: true }),
		threadId:
			context.getNodeParameter('options.threadId', itemIndex, '', { extractValue: true }) ?? '',
		saveMessage: context.getNodeParameter('options.saveMessage', itemIndex, true),
	};
	const { channelId, contactId, threadId, saveMessage } = validateItem(
		context,
		recipientSchema,
		input,
		itemIndex,
		RECIPIENT_LABELS,
	);
	return {
		channel_id: channelId,
		contact_id: contactId,
		...(threadId && { thread_id: threadId }),
		save_message: saveMessage,
	};
}

/** The body of a send: recipient first, the message in the middle, thread and saving last. */
export function wabaSendBody(
	recipient: ReturnType<typeof wabaRecipientOf>,
	message: IDataObject,
): IDataObject {
	const { channel_id, contact_id, thread_id, save_message } = recipient;
	return { channel_id, contact_id, ...message, ...(thread_id && { thread_id }), save_message };
}

/** Reads a send needs before sending (channels, templates), made once per execution and kept for its items. */
const readsOfRun = new WeakMap<IExecuteFunctions, Map<string, Promise<IDataObject[]>>>();

export async function readOncePerRun(
	context: IExecuteFunctions,
	key: string,
	read: () => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	let reads = readsOfRun.get(context);
	if (!reads) {
		reads = new Map();
		readsOfRun.set(context, reads);
	}
	let records = reads.get(key);
	if (!records) {
		records = read();
		reads.set(key, records);
		// a failed read is not kept: the next item reads again
		records.catch(() => reads.delete(key));
	}
	return await records;
}

/**
 * Refuses, before any send, a channel given by ID that cannot send WhatsApp (another type, or
 * inactive), saying why; the service would answer a bare 400 "invalid channel type" or, worse,
 * a provider error. The API has no read of one channel, so the channel list is read once per
 * execution (pages of up to 1000 channels, on the organization budget) and kept for its items.
 */
export async function assertWabaSender(
	context: IExecuteFunctions,
	channelId: string,
	itemIndex: number,
): Promise<void> {
	const channels = readOncePerRun(
		context,
		'channels',
		async () =>
			(await apiList.call(context, 'listChannels', {
				returnAll: true,
				itemIndex,
			})) as IDataObject[],
	);
	const channel = (await channels).find((c) => c.id === channelId);
	if (!channel) {
		failItem(context, itemIndex, [
			`Channel: there is no channel ${shortened(channelId)} in this organization. Pick an active WhatsApp channel from the list.`,
		]);
	}
	const named = `"${channel.name as string}" (${shortened(channelId)})`;
	if (channel.type !== WABA_SENDER.type) {
		failItem(context, itemIndex, [
			`Channel: ${named} is a ${channel.type as string} channel; WhatsApp messages are sent through an active WABA channel. Pick one from the list.`,
		]);
	}
	if (channel.status !== WABA_SENDER.status) {
		failItem(context, itemIndex, [
			`Channel: ${named} is ${channel.status as string}; WhatsApp messages are sent through an active WABA channel. Activate it in the dashboard or pick another.`,
		]);
	}
}
