import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { methods } from '../VoiceAgentCrm/methods';
import { TRANSCRIPT_CHOICES } from '../VoiceAgentCrm/shared/transcriptOptions';
import { asItems, callBaseline, callScope, newestFinishedCall, pollFinishedCalls, type CallCursor, type CallSettings } from './calls';
import { triggerProperties } from './properties';
import { newestThread, pollThreadChanges, threadBaseline, threadScope, type ThreadCursor, type ThreadEvent, type ThreadSettings } from './threads';

export class VoiceAgentCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Agent CRM Trigger',
		name: 'voiceAgentCrmTrigger',
		icon: { light: 'file:voiceAgentCrmTrigger.svg', dark: 'file:voiceAgentCrmTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] === "threadChanged" ? "Thread Changed" : "Call Finished" }}',
		description: 'Starts the workflow when an AI phone call finishes or a messaging thread changes',
		defaults: { name: 'Voice Agent CRM Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'voiceAgentCrmApi', required: true, testedBy: 'voiceAgentCrmApiTest' }],
		properties: triggerProperties,
	};

	methods = methods;

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as string;
		return event === 'threadChanged' ? await pollThreads(this) : await pollCalls(this);
	}
}

/** Cursors are changed on a copy and stored only once the whole poll succeeded. */
function copyOf<T>(cursor: T): T {
	return JSON.parse(JSON.stringify(cursor)) as T;
}

async function pollCalls(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = callSettings(context);
	if (context.getMode() === 'manual') {
		const call = await newestFinishedCall(context, settings);
		return call ? asItems([call]) : null;
	}
	const staticData = context.getWorkflowStaticData('node');
	delete staticData.threads;
	const now = Date.now();
	const saved = staticData.calls as CallCursor | undefined;
	if (!saved || saved.scope !== callScope(settings)) {
		staticData.calls = await callBaseline(context, settings, now);
		return null;
	}
	const cursor = copyOf(saved);
	const calls = await pollFinishedCalls(context, cursor, settings, now);
	staticData.calls = cursor;
	return asItems(calls);
}

async function pollThreads(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = threadSettings(context);
	if (context.getMode() === 'manual') {
		const thread = await newestThread(context, settings);
		return thread ? asItems([thread]) : null;
	}
	const staticData = context.getWorkflowStaticData('node');
	delete staticData.calls;
	const saved = staticData.threads as ThreadCursor | undefined;
	if (!saved || saved.scope !== threadScope(settings)) {
		staticData.threads = await threadBaseline(context, settings);
		return null;
	}
	const cursor = copyOf(saved);
	const changes = await pollThreadChanges(context, cursor, settings);
	staticData.threads = cursor;
	return asItems(changes);
}

function locatorValue(context: IPollFunctions, name: string): string {
	return String(context.getNodeParameter(name, '', { extractValue: true }) ?? '').trim();
}

function callSettings(context: IPollFunctions): CallSettings {
	const transcript = TRANSCRIPT_CHOICES.safeParse(context.getNodeParameter('transcriptOptions', {}));
	if (!transcript.success) {
		throw new NodeOperationError(context.getNode(), `Transcript Options: ${transcript.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
	}
	const options = context.getNodeParameter('callOptions', {}) as IDataObject;
	const waitForAnalysis = context.getNodeParameter('waitForAnalysis', false) as boolean;
	return {
		agentId: locatorValue(context, 'agentId'),
		directions: context.getNodeParameter('directions', []) as string[],
		results: context.getNodeParameter('results', []) as string[],
		waitForAnalysis,
		analysisWaitMs: waitForAnalysis ? minutes(context.getNodeParameter('analysisWaitMinutes', 15)) : 0,
		watchMs: 60 * minutes(options.watchHours ?? 24),
		transcript: transcript.data,
	};
}

function minutes(value: unknown): number {
	const n = Number(value);
	return (Number.isFinite(n) && n > 0 ? n : 1) * 60_000;
}

function threadSettings(context: IPollFunctions): ThreadSettings {
	const events = context.getNodeParameter('threadEvents', ['status']) as ThreadEvent[];
	if (!events.length) {
		throw new NodeOperationError(context.getNode(), 'Choose at least one change to emit on (Emit On).');
	}
	return {
		channelId: locatorValue(context, 'channelId'),
		events,
		statuses: context.getNodeParameter('threadStatuses', []) as string[],
	};
}
