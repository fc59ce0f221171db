import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { campaignWebhook } from './actions/call/campaign/byWebhook';
import { RESUME_WEBHOOKS, resumeWhenCallsFinished } from './actions/call/placement/waitByWebhook';
import { RESOURCE_SELECTOR, RESOURCES } from './actions/resources';
import { methods } from './methods';
import { router } from './actions/router';
import { operationSubtitle, resourceProperties } from './shared/operation';
import { ACTION_BUILDER_HINT } from './shared/builderHints';

export class VoiceAgentCrm implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Agent CRM',
		name: 'voiceAgentCrm',
		icon: { light: 'file:voiceAgentCrm.svg', dark: 'file:voiceAgentCrm.dark.svg' },
		group: ['transform'],
		version: 1,
		// built from the operations' display names: n8n's literal default shows raw values ("placePhoneCall: call")
		subtitle: operationSubtitle(RESOURCES),
		description:
			'Place AI phone calls, manage agents, contacts, tags and tasks, send WhatsApp messages and record events',
		defaults: { name: 'Voice Agent CRM' },
		usableAsTool: true,
		builderHint: ACTION_BUILDER_HINT,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// spelled out: n8n's community lint reads the credential's name and test here as literals
		credentials: [{ name: 'voiceAgentCrmApi', required: true, testedBy: 'voiceAgentCrmApiTest' }],
		// Place AI Call's "Free the Worker While Waiting": the calls' webhooks resume the waiting execution
		webhooks: RESUME_WEBHOOKS,
		properties: [RESOURCE_SELECTOR, ...RESOURCES.flatMap(resourceProperties)],
	};

	methods = methods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// the operation's own handler: a waiting campaign's step, or a waiting placement's resume
		if (this.getNodeParameter('operation', '') === 'runCampaign')
			return await campaignWebhook.call(this);
		return await resumeWhenCallsFinished.call(this);
	}
}
