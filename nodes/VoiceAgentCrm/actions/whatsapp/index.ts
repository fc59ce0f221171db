import type { Resource } from '../../shared/operation';
import { getTemplates } from './getTemplates.operation';
import { sendMedia } from './sendMedia.operation';
import { sendMessage } from './sendMessage.operation';
import { sendTemplate } from './sendTemplate.operation';

export const whatsapp: Resource = {
	option: {
		name: 'WhatsApp (WABA)',
		value: 'whatsapp',
		description:
			'Send media, approved templates and text messages through a WhatsApp Business channel',
	},
	defaultOperation: 'sendTemplate',
	operations: [getTemplates, sendMedia, sendMessage, sendTemplate],
};
