import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { recordHasStarted, recordIsFinished } from '../VoiceAgentCrm/shared/callVocabulary';
import { UUID_REGEX } from '../VoiceAgentCrm/shared/text';
import { callSettings } from '../VoiceAgentCrm/shared/callTrigger/fields';
import {
	callItem,
	lateNote,
	matchesFilters,
	readCall,
	verdictOf,
	type CallSettings,
} from '../VoiceAgentCrm/shared/callTrigger/record';

/**
 * What one webhook delivery emits. The body is never trusted: only its `call_id` is used, to read
 * the call; what the record shows decides. A forged or unknown ID reads nothing and emits nothing.
 *
 * Each call is emitted once per event, however many deliveries name it and in whatever order
 * (the service posts call started, call ended, transcript ready, and may repeat them). Two
 * deliveries can run at the same time, each reading the call first; the claim is a check and a
 * set with no `await` between them, so exactly one of them emits. Claims live in this process
 * (`claims`) and in the node's static data (`emitted`, which n8n saves with the workflow after
 * the execution the claim started, so a repeat after a restart emits nothing either).
 */
export type CallEvent = 'callStarted' | 'callFinished';

/** Claims kept per workflow node: the last 2 × MAX_CLAIMS emissions (about 60 bytes each in the static data, so under 120 KB). */
export const MAX_CLAIMS = 1_000;

const claims = new Map<string, Set<string>>();

function claimKey(callId: string, event: CallEvent): string {
	return `${event}:${callId}`;
}

/** Claim the emission of `event` for a call; false when it is already claimed. */
function claim(context: IWebhookFunctions, callId: string, event: CallEvent): boolean {
	const workflow = context.getWorkflow();
	const scope = `${workflow.id ?? ''}:${context.getNode().id}:${context.getMode()}`;
	let inProcess = claims.get(scope);
	if (!inProcess) claims.set(scope, (inProcess = new Set()));
	const staticData = context.getWorkflowStaticData('node');
	const emitted = (staticData.emitted ??= {}) as Record<string, number>;
	const key = claimKey(callId, event);
	if (inProcess.has(key) || key in emitted) return false;
	inProcess.add(key);
	emitted[key] = Date.now();
	bound(inProcess, emitted);
	return true;
}

/** Forget the oldest claims past MAX_CLAIMS (a call's events come within hours, not thousands of calls later). */
function bound(inProcess: Set<string>, emitted: Record<string, number>): void {
	const keys = Object.keys(emitted);
	for (const key of keys.slice(0, Math.max(0, keys.length - 2 * MAX_CLAIMS))) delete emitted[key];
	while (inProcess.size > 2 * MAX_CLAIMS)
		inProcess.delete(inProcess.values().next().value as string);
}

function chosenEvents(context: IWebhookFunctions): CallEvent[] {
	return context.getNodeParameter('events', ['callFinished']) as CallEvent[];
}

function startedMatches(call: IDataObject, settings: CallSettings): boolean {
	// a call that has just started has no result yet: the Result filter applies to finished calls
	return matchesFilters(call, { ...settings, results: [] });
}

/** The items one delivery emits (none, one, or Call Started and Call Finished together for a late delivery). */
export async function itemsOfDelivery(context: IWebhookFunctions): Promise<INodeExecutionData[]> {
	const body = context.getBodyData();
	const callId = typeof body.call_id === 'string' ? body.call_id.trim() : '';
	if (!UUID_REGEX.test(callId)) return [];
	const settings = callSettings(context);
	const events = chosenEvents(context);
	const call = await readCall(context, callId, settings);
	if (!call || String(call.id) !== callId) return [];
	if (settings.agentId && call.agent_id !== settings.agentId) return [];

	const items: INodeExecutionData[] = [];
	if (
		events.includes('callStarted') &&
		recordHasStarted(call) &&
		startedMatches(call, settings) &&
		claim(context, callId, 'callStarted')
	) {
		items.push(
			withEvent(
				await callItem(context, call, { ...settings, recordingProperty: undefined }),
				'callStarted',
			),
		);
	}
	if (events.includes('callFinished') && recordIsFinished(call) && matchesFilters(call, settings)) {
		const verdict = verdictOf(call, settings, Date.now());
		// not ready: a later delivery (transcript ready) finds the analysis and emits it
		if (verdict !== 'wait' && claim(context, callId, 'callFinished')) {
			items.push(
				withEvent(
					await callItem(
						context,
						call,
						settings,
						verdict === 'late' ? lateNote(settings) : undefined,
					),
					'callFinished',
				),
			);
		}
	}
	return items;
}

function withEvent(item: INodeExecutionData, event: CallEvent): INodeExecutionData {
	return { ...item, json: { event, ...item.json } };
}
