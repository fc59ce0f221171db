import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { methods } from '../VoiceAgentCrm/methods';
import { POLL_EVENTS, pollEventOf, pollEventProperties, pollEventSubtitle } from './events';
import type { PollEvent } from './events/pollEvent';
import { POLLING_TRIGGER_BUILDER_HINT } from '../VoiceAgentCrm/shared/builderHints';

export class VoiceAgentCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Agent CRM Trigger',
		name: 'voiceAgentCrmTrigger',
		icon: { light: 'file:voiceAgentCrmTrigger.svg', dark: 'file:voiceAgentCrmTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: pollEventSubtitle(),
		description: 'Starts the workflow when an AI phone call finishes or a messaging thread changes',
		defaults: { name: 'Voice Agent CRM Trigger' },
		builderHint: POLLING_TRIGGER_BUILDER_HINT,
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// spelled out: n8n's community lint reads the credential's name and test here as literals
		credentials: [{ name: 'voiceAgentCrmApi', required: true, testedBy: 'voiceAgentCrmApiTest' }],
		properties: pollEventProperties(),
	};

	methods = methods;

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, pollEventOf(this.getNodeParameter('event') as string));
	}
}

/**
 * One poll of one event. Its cursor is changed on a copy and stored only once the whole poll
 * succeeded; the cursors of the other events are dropped (the node follows one event at a time).
 */
async function runPoll(
	context: IPollFunctions,
	event: PollEvent,
): Promise<INodeExecutionData[][] | null> {
	const settings = event.settings(context);
	if (context.getMode() === 'manual') {
		const item = await event.sample(context, settings);
		return item ? [[item]] : null;
	}
	const staticData = context.getWorkflowStaticData('node');
	for (const other of POLL_EVENTS) if (other !== event) delete staticData[other.stateKey];
	const now = Date.now();
	const saved = staticData[event.stateKey] as { scope: string } | undefined;
	if (!saved || saved.scope !== event.scope(settings)) {
		staticData[event.stateKey] = await event.baseline(context, settings, now);
		return null;
	}
	const cursor = JSON.parse(JSON.stringify(saved)) as { scope: string };
	const items = await event.poll(context, cursor, settings, now);
	staticData[event.stateKey] = cursor;
	return items.length ? [items] : null;
}
