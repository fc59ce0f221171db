import type { Resource } from '../../shared/operation';
import { getTemplates } from './getTemplates.operation';
import { sendMedia } from './sendMedia.operation';
import { sendMessage } from './sendMessage.operation';
import { sendTemplate } from './sendTemplate.operation';

export const whatsapp: Resource = {
	option: {
		name: 'WhatsApp (WABA)',
		value: 'whatsapp',
		description: 'Send media, approved templates and text messages through a WhatsApp Business channel',
	},
	selector: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: [],
		default: 'sendTemplate',
	},
	operations: [getTemplates, sendMedia, sendMessage, sendTemplate],
};
