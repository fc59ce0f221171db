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
import { claimedItems, deliveryBody, itemsOfDelivery, judgeOf } from './callEvents';
import {
	assertUrlSecretUsable,
	deliveryIsAuthentic,
	registeredUrl,
	URL_SECRET_RULE,
	WEBHOOK_PATH,
} from './deliverySecret';
import { markActive, markInactive, recoveredItems } from './recovery';
import { refuseUnreachableWebhookUrl } from '../VoiceAgentCrm/shared/webhookReach';
import { INSTANT_TRIGGER_BUILDER_HINT } from '../VoiceAgentCrm/shared/builderHints';

const onAgents = { displayOptions: { show: { registration: ['agents'] } } };
const onManual = { displayOptions: { show: { registration: ['manual'] } } };

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
			'While this workflow is active, and while "Test this trigger" listens, each agent below gets this node\'s URL (the test URL during a test) as its Webhook URL, so a URL set there before stops receiving call events. Deactivating the workflow, or the end of the test, puts the previous URL back.',
		name: 'agentsNotice',
		type: 'notice',
		default: '',
		...onAgents,
	},
	{
		displayName: 'Agents to Listen To Names or IDs',
		name: 'agentIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getAgents' },
		default: [],
		required: true,
		description:
			'The voice agents whose calls start this workflow; calls of any other agent emit nothing. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		...onAgents,
	},
	{
		displayName:
			'Copy the Production URL above into the Webhook URL of an agent (dashboard) or of a call (Place AI Call → Webhook URL). Its last part is the URL Secret: a delivery to any other URL is refused before the call is read.',
		name: 'manualNotice',
		type: 'notice',
		default: '',
		...onManual,
	},
	{
		displayName: 'URL Secret',
		name: 'urlSecret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'A long random string of letters and digits (from a password generator; "-" and "_" may be used too). It becomes the last part of the Production URL. Changing it changes the URL: paste the new one where the old one was.',
		...onManual,
	},
	{
		displayName: `${URL_SECRET_RULE}: this one cannot be activated.`,
		name: 'urlSecretNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { registration: ['manual'] },
			// hidden while the secret is usable, and for an expression (checked at activation, once resolved)
			hide: { urlSecret: [{ _cnd: { regex: '^(=|[A-Za-z0-9_-]*$)' } }] },
		},
	},
	{
		displayName: 'Recover Lost Deliveries',
		name: 'recoverLostDeliveries',
		type: 'boolean',
		default: true,
		description:
			'Whether a call event whose delivery was lost (n8n down or restarting, the call unreadable) is still emitted, by a later delivery of any call (one list request a minute at most). Off: a lost delivery loses its event, and in queue mode nothing is ever emitted twice.',
	},
	...callFilterFields({
		description:
			"Whether to emit a finished call only once its analysis and transcript have arrived (the service posts a transcript-ready event some seconds after the call ends). Past Max Wait, the check for lost events on a later call event emits it without them (within 2 more minutes), with an 'analysis_note'.",
	}).map((field) => {
		if (field.name === 'waitForAnalysis' || field.name === 'analysisWaitMinutes')
			return withFinished(field);
		// with registration on agents, the agents above are the filter
		if (field.name === 'agentId') return { ...field, ...onManual };
		return field;
	}),
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
		builderHint: INSTANT_TRIGGER_BUILDER_HINT,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// spelled out: n8n's community lint reads the credential's name and test here as literals
		credentials: [{ name: 'voiceAgentCrmApi', required: true, testedBy: 'voiceAgentCrmApiTest' }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: WEBHOOK_PATH },
		],
		properties,
	};

	methods = methods;

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				assertUrlSecretUsable(this);
				markActive(this.getWorkflowStaticData('node'), Date.now());
				if (!chosenAgents(this).length) return true;
				return await agentsPointHere(this, registeredUrl(this));
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const url = registeredUrl(this);
				if (chosenAgents(this).length)
					await refuseUnreachableWebhookUrl(this, url, undefined, "the agents' call events");
				await pointAgentsHere(this, url);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				markInactive(this.getWorkflowStaticData('node'));
				return await restoreAgents(this, registeredUrl(this));
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (!deliveryIsAuthentic(this)) {
			const response = this.getResponseObject();
			response.status(401).json({ message: 'This URL does not carry the secret of the trigger' });
			return { noWebhookResponse: true };
		}
		const body = deliveryBody(this);
		if (!body) {
			// not a call event (the service posts a JSON object): answered, nothing read or swept
			const response = this.getResponseObject();
			response.status(400).json({ message: 'A call event is a JSON object with a call_id' });
			return { noWebhookResponse: true };
		}
		const judge = judgeOf(this, Date.now());
		const built = [
			...(await itemsOfDelivery(this, body, judge)),
			...(await recoveredItems(this, judge)),
		];
		const items = claimedItems(built, judge);
		if (!items.length) return {};
		answerStarted(this);
		return { noWebhookResponse: true, workflowData: [items] };
	}
}

/**
 * A delivery that starts a run is answered here, not by n8n: only then are its claims saved.
 * n8n (2.38.7 to 2.41.1, webhook-helpers.ts) answers an 'onReceived' delivery, and saves the
 * static data, after it has handed the run over (WorkflowRunner.run); that builds a second
 * Workflow over the same static data object (establishContextForPersistence), which resets its
 * "changed" mark, so the save is skipped and the claims of every emitting delivery were lost
 * (measured in a real `n8n start`, docs/instant-trigger.md). A node that answered itself
 * (`noWebhookResponse`) gets the save before the run is handed over.
 */
function answerStarted(context: IWebhookFunctions): void {
	context.getResponseObject().status(200).json({ message: 'Workflow was started' });
}
