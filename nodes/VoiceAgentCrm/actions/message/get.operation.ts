import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import { NON_EMPTY, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

const messageSchema = z.object({ messageId: NON_EMPTY });

export const getMessage: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get message',
		description: 'Get one message of a conversation by its ID',
	},
	kind: 'read',
	endpoint: 'getMessage',
	example: { messageId: sample('message') },
	fields: [
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. msg-3f2b8c1e',
			description: 'ID of the message, as returned by a WhatsApp send (message_id) or the trigger',
		},
	],
	execute: perItem(async function (itemIndex) {
		const input = { messageId: this.getNodeParameter('messageId', itemIndex, '') };
		const { messageId } = validateItem(this, messageSchema, input, itemIndex, {
			messageId: 'Message ID',
		});
		const { payload } = await apiRequest.call(this, 'getMessage', {
			params: { messageId },
			itemIndex,
		});
		return payload as IDataObject;
	}),
};
