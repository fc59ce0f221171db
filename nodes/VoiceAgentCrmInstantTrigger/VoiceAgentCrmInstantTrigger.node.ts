import type {
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { methods } from '../VoiceAgentCrm/methods';
import { callFilterFields } from '../VoiceAgentCrm/shared/callTrigger/fields';
import { agentsPointHere, chosenAgents, pointAgentsHere, restoreAgents } from './agentWebhooks';
import { itemsOfDelivery } from './callEvents';

const onAgents = { displayOptions: { show: { registration: ['agents'] } } };

const properties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{
				name: 'Call Finished',
				value: 'callFinished',
				description: 'A call reached a finished status. Each call once.',
			},
			{
				name: 'Call Started',
				value: 'callStarted',
				description: 'A call was answered (by a person or a voicemail box). Each call once.',
			},
		],
		default: ['callFinished'],
		required: true,
	},
	{
		displayName: 'Webhook Registration',
		name: 'registration',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Set on Chosen Agents While Active',
				value: 'agents',
				description:
					"Replace the chosen agents' Webhook URL with this node's URL while the workflow is active; restore it on deactivation",
			},
			{
				name: 'I Copy the URL Myself',
				value: 'manual',
				description:
					"Paste this node's URL into an agent's or a call's webhook URL in the dashboard or in Place AI Call",
			},
		],
		default: 'agents',
	},
	{
		displayName:
			"While this workflow is active, each chosen agent's Webhook URL is replaced by this node's URL, so a URL set there before stops receiving call events. Deactivating the workflow puts the previous URL back.",
		name: 'agentsNotice',
		type: 'notice',
		default: '',
		...onAgents,
	},
	{
		displayName: 'Agent Names or IDs',
		name: 'agentIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getAgents' },
		default: [],
		required: true,
		description:
			'The voice agents whose call events start this workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		...onAgents,
	},
	{
		displayName:
			'Copy the Production URL above into the Webhook URL of an agent (dashboard) or of a call (Place AI Call → Webhook URL). Every event is checked by reading the call, so a forged event emits nothing.',
		name: 'manualNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { registration: ['manual'] } },
	},
	...callFilterFields({
		description:
			"Whether to emit a finished call only once its analysis and transcript have arrived, some seconds after the call ends. Past Max Wait, the call's next event emits it without them, with an 'analysis_note'.",
	}).map((field) =>
		field.name === 'waitForAnalysis' || field.name === 'analysisWaitMinutes'
			? withFinished(field)
			: field,
	),
];

function withFinished(field: INodeProperties): INodeProperties {
	return {
		...field,
		displayOptions: { show: { ...field.displayOptions?.show, events: ['callFinished'] } },
	};
}

export class VoiceAgentCrmInstantTrigger implements INodeType {
	description: INodeTypeDescription = {
		// n8n drops "Trigger" from the name in its panels: "Voice Agent CRM Call Events" reads as a name
		displayName: 'Voice Agent CRM Call Events Trigger',
		name: 'voiceAgentCrmInstantTrigger',
		icon: {
			light: 'file:voiceAgentCrmInstantTrigger.svg',
			dark: 'file:voiceAgentCrmInstantTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).map(e => e === "callStarted" ? "Call Started" : "Call Finished").join(", ") }}',
		description:
			'Starts the workflow within seconds when an AI phone call starts or finishes, from the call events the service posts',
		defaults: { name: 'Voice Agent CRM Call Events Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'voiceAgentCrmApi', required: true, testedBy: 'voiceAgentCrmApiTest' }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'call-events' },
		],
		properties,
	};

	methods = methods;

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!chosenAgents(this).length) return true;
				return await agentsPointHere(this, this.getNodeWebhookUrl('default') ?? '');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await pointAgentsHere(this, this.getNodeWebhookUrl('default') ?? '');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await restoreAgents(this, this.getNodeWebhookUrl('default') ?? '');
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const items = await itemsOfDelivery(this);
		return items.length ? { workflowData: [items] } : {};
	}
}
