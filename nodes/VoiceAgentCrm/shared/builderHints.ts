import type { IBuilderHint } from 'n8n-workflow';

/**
 * What n8n's AI workflow builder reads when it searches for nodes and wires them (n8n-workflow's
 * `builderHint`, 2.38+; older n8n ignores it): which of the package's three nodes fits a request,
 * and which go together. Plain words only: n8n's lint refuses expressions and connection-type
 * names in them.
 */

const PACKAGE = 'n8n-nodes-voice-agent-crm';
const ACTION = `${PACKAGE}.voiceAgentCrm`;
const POLLING_TRIGGER = `${PACKAGE}.voiceAgentCrmTrigger`;
const INSTANT_TRIGGER = `${PACKAGE}.voiceAgentCrmInstantTrigger`;

export const ACTION_BUILDER_HINT: IBuilderHint = {
	searchHint:
		'Place outbound AI voice agent phone calls and wait for their outcome (transcript, analysis, recording); manage contacts, tags, tasks and comments of the Voice Agent CRM; send WhatsApp Business messages; send marketing events one by one or from a CSV file.',
	relatedNodes: [
		{
			nodeType: INSTANT_TRIGGER,
			relationHint: 'Starts a workflow as soon as a call ends, to act on its outcome',
		},
		{
			nodeType: POLLING_TRIGGER,
			relationHint: 'Starts a workflow for finished calls or changed threads, without a public URL',
		},
	],
};

export const POLLING_TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint:
		'Trigger on finished AI phone calls or changed messaging threads of the Voice Agent CRM by polling; needs no public webhook URL, emits each call once.',
	relatedNodes: [
		{
			nodeType: ACTION,
			relationHint: 'Reads the call, updates the contact or places a follow-up call',
		},
		{
			nodeType: INSTANT_TRIGGER,
			relationHint: 'The same calls within seconds, when n8n has a public webhook URL',
		},
	],
};

export const INSTANT_TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint:
		"Trigger within seconds when an AI phone call of the Voice Agent CRM starts or finishes, by webhook; needs n8n's public webhook URL, emits each call once.",
	relatedNodes: [
		{
			nodeType: ACTION,
			relationHint: 'Reads the call, updates the contact or places a follow-up call',
		},
		{
			nodeType: POLLING_TRIGGER,
			relationHint: 'The same calls by polling, where n8n has no public webhook URL',
		},
	],
};
