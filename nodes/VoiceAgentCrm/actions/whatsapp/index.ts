import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'WhatsApp (WABA)',
		value: 'whatsapp',
		description:
			'Send media, approved templates and text messages through a WhatsApp Business channel',
	},
	defaultOperation: 'sendTemplate',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { getTemplates } from './getTemplates.operation';
export { sendMedia } from './sendMedia.operation';
export { sendMessage } from './sendMessage.operation';
export { sendTemplate } from './sendTemplate.operation';
