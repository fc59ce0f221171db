import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiList } from '../transport/paging';
import { apiRequest } from '../transport/request';
import { urlWithoutSecrets } from '../actions/agent/webhookUrl';
import { isApproved, templateChoice } from '../actions/whatsapp/template';

/** Voices come from the API's catalog at run time: it changes, so it is never hard-coded. */
export async function getVoices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { payload } = await apiRequest.call(this, 'listVoices', {});
	return ((payload ?? []) as IDataObject[]).map((v) => ({
		name: `${v.name as string} (${[v.language, v.gender, v.accent].filter(Boolean).join(', ')})`,
		value: v.id as string,
		description: (v.description as string) ?? undefined,
	}));
}

/**
 * Approved message templates of the chosen WhatsApp channel, one entry per name and language. The
 * value carries both (`welcome_offer|en_US`, see `templateChoice`), so that choosing an entry
 * sends its language unless the user sets another.
 */
export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const channelId = this.getCurrentNodeParameter('channelId', { extractValue: true }) as
		| string
		| undefined;
	const { payload } = await apiRequest.call(this, 'listTemplates', {
		query: channelId ? { channel_id: channelId } : {},
	});
	return ((payload ?? []) as IDataObject[]).filter(isApproved).map((t) => ({
		name: `${t.name as string} (${t.language as string})`,
		value: templateChoice(t.name as string, t.language as string),
		description: t.category ? `Category: ${t.category as string}` : undefined,
	}));
}

/** Every voice agent, for choosing several at once (the instant trigger's agents); the list is read whole. */
export async function getAgents(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const agents = (await apiList.call(this, 'listAgents', { returnAll: true })) as IDataObject[];
	return agents.map((a) => ({
		name: String(a.name ?? a.id),
		value: String(a.id),
		description:
			typeof a.webhook_url === 'string' && a.webhook_url
				? `Webhook URL now: ${urlWithoutSecrets(a.webhook_url)}`
				: 'No webhook URL set',
	}));
}
