import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { apiRequest } from '../VoiceAgentCrm/transport/request';
import type { InstantContext } from './deliverySecret';

/**
 * Registration of the trigger's URL on the chosen agents' `webhook_url`.
 *
 * Activation saves each agent's previous `webhook_url` in the node's static data (`registered`:
 * agent ID → previous URL or null) and sets the trigger's URL; deactivation puts the previous URL
 * back, but only on agents that still carry the trigger's URL: an agent somebody re-pointed in
 * the meantime keeps their choice. The URL set carries the delivery secret (deliverySecret.ts).
 */
type Registered = Record<string, string | null>;

export function chosenAgents(context: InstantContext): string[] {
	if (context.getNodeParameter('registration', 'agents') !== 'agents') return [];
	const ids = context.getNodeParameter('agentIds', []) as string[];
	return [...new Set(ids.map((id) => String(id).trim()).filter(Boolean))];
}

function registeredOf(context: IHookFunctions): Registered {
	const staticData = context.getWorkflowStaticData('node');
	staticData.registered ??= {};
	return staticData.registered as Registered;
}

async function webhookUrlOf(context: IHookFunctions, agentId: string): Promise<string | null> {
	const { payload } = await apiRequest.call(context, 'getAgent', { params: { agentId } });
	const url = (payload as IDataObject).webhook_url;
	return typeof url === 'string' && url ? url : null;
}

async function setWebhookUrl(
	context: IHookFunctions,
	agentId: string,
	url: string | null,
): Promise<void> {
	await apiRequest.call(context, 'updateAgent', {
		params: { agentId },
		body: { webhook_url: url },
	});
}

/** Whether an agent's URL is this node's, whatever secret it carries. */
function isThisNode(agentUrl: string | null, url: string): boolean {
	return agentUrl?.split('?')[0] === url.split('?')[0];
}

/** Whether every chosen agent already points at this trigger, with its previous URL saved. */
export async function agentsPointHere(context: IHookFunctions, url: string): Promise<boolean> {
	const registered = registeredOf(context);
	for (const agentId of chosenAgents(context)) {
		if (!(agentId in registered) || (await webhookUrlOf(context, agentId)) !== url) return false;
	}
	return true;
}

/** Point every chosen agent at this trigger; if one fails, the agents already changed are put back before the error. */
export async function pointAgentsHere(context: IHookFunctions, url: string): Promise<void> {
	const registered = registeredOf(context);
	const changedNow: string[] = [];
	let failure: unknown;
	try {
		for (const agentId of chosenAgents(context)) {
			const previous = await webhookUrlOf(context, agentId);
			// pointing here already (a re-activation, or a URL of this node with an older secret):
			// the URL saved the first time is the one to restore
			if (!isThisNode(previous, url)) registered[agentId] = previous;
			else if (!(agentId in registered)) registered[agentId] = null;
			if (previous !== url) {
				await setWebhookUrl(context, agentId, url);
				changedNow.push(agentId);
			}
		}
	} catch (error) {
		failure = error;
	}
	if (failure === undefined) return;
	for (const agentId of changedNow)
		await setWebhookUrl(context, agentId, registered[agentId]).catch(() => undefined);
	throw failure;
}

/** Put each agent's previous URL back where the trigger's URL still stands; answers whether all went well. */
export async function restoreAgents(context: IHookFunctions, url: string): Promise<boolean> {
	const registered = registeredOf(context);
	let restoredAll = true;
	for (const [agentId, previous] of Object.entries(registered)) {
		try {
			if (isThisNode(await webhookUrlOf(context, agentId), url))
				await setWebhookUrl(context, agentId, previous);
			delete registered[agentId];
		} catch {
			// kept in `registered`: the next activation and deactivation try again
			restoredAll = false;
		}
	}
	return restoredAll;
}
