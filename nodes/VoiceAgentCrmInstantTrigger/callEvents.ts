import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import {
	analysisIsReady,
	expectsAnalysis,
	recordHasStarted,
	recordIsFinished,
} from '../VoiceAgentCrm/shared/callVocabulary';
import { UUID_REGEX } from '../VoiceAgentCrm/shared/text';
import { msOf } from '../VoiceAgentCrm/shared/timestamps';
import { callSettings } from '../VoiceAgentCrm/shared/callTrigger/fields';
import {
	callItem,
	lateNote,
	matchesFilters,
	readCall,
	verdictOf,
	type CallSettings,
} from '../VoiceAgentCrm/shared/callTrigger/record';
import { chosenAgents } from './agentWebhooks';
import { isManual } from './deliverySecret';
import { claimsOf, emissionKey, type CallEvent, type Claims } from './claims';

/**
 * What one webhook delivery emits. The delivery is authentic (deliverySecret.ts); its `call_id`
 * is read, and the record decides what is true of the call.
 *
 * Each call and event is emitted by one delivery kind that the service sends once per call:
 * Call Started by `call_started`, Call Finished by `call_ended` (with Wait for Analysis by
 * `transcript_ready`, or `call_ended` for a call nobody picked up). With a round robin in front of
 * several webhook processes each delivery reaches one of them, so no process needs to know what
 * another one emitted, and a restart between a call's events changes nothing.
 *
 * A delivery emits only while its event is recent (its horizon: 2 minutes after the event, Max
 * Wait with Wait for Analysis); later, repeats and replays emit nothing, and only the recovery
 * (recovery.ts) emits a call it finds not emitted. Within the horizon the claims (claims.ts) stop
 * a repeat: a claimed event costs no read, and the items are claimed once built (claimedItems).
 */
export const DELIVERY_HORIZON_MS = 2 * 60_000;

export interface Judge {
	settings: CallSettings;
	events: CallEvent[];
	/** The agents chosen for registration; empty in the manual mode (the Agent filter applies). */
	agents: string[];
	claims: Claims;
	now: number;
}

export function judgeOf(context: IWebhookFunctions, now: number): Judge {
	const agents = chosenAgents(context);
	return {
		settings: callSettings(context, isManual(context)),
		events: context.getNodeParameter('events', ['callFinished']) as CallEvent[],
		agents,
		claims: claimsOf(context),
		now,
	};
}

/** When the event happened, by the record (its creation when the record lacks the time). */
export function eventTime(call: IDataObject, event: CallEvent): number {
	const at = event === 'callStarted' ? msOf(call.start_at) : msOf(call.finished_at);
	return at || msOf(call.created_at);
}

/** How long after the event its own delivery may emit it. */
export function horizonOf(event: CallEvent, settings: CallSettings): number {
	return event === 'callFinished' && settings.waitForAnalysis
		? Math.max(settings.analysisWaitMs, DELIVERY_HORIZON_MS)
		: DELIVERY_HORIZON_MS;
}

/** The delivery kind that emits an event of this call. */
function emittingDelivery(event: CallEvent, call: IDataObject, settings: CallSettings): string {
	if (event === 'callStarted') return 'call_started';
	return settings.waitForAnalysis && expectsAnalysis(call) ? 'transcript_ready' : 'call_ended';
}

/** Whether a delivery of this kind can emit the event (before the record says which kind does). */
function mayEmit(event: CallEvent, kind: unknown, settings: CallSettings): boolean {
	if (event === 'callStarted') return kind === 'call_started';
	return kind === 'call_ended' || (settings.waitForAnalysis && kind === 'transcript_ready');
}

/** Whether the call is of a chosen agent and passes the filters, for this event. */
export function callIsWanted(call: IDataObject, event: CallEvent, judge: Judge): boolean {
	const { agents, settings } = judge;
	if (agents.length && !agents.includes(String(call.agent_id))) return false;
	if (settings.agentId && call.agent_id !== settings.agentId) return false;
	// a call that has just started has no result yet: the Result filter applies to finished calls
	return matchesFilters(call, event === 'callStarted' ? { ...settings, results: [] } : settings);
}

/** Whether the record shows the event, ready to emit (with Wait for Analysis: final, or past Max Wait). */
export function recordShows(call: IDataObject, event: CallEvent, judge: Judge): boolean {
	if (event === 'callStarted') return recordHasStarted(call);
	return recordIsFinished(call) && verdictOf(call, judge.settings, judge.now) !== 'wait';
}

/** The delivery's JSON object; undefined for any other body (`null`, an array, text, nothing). */
export function deliveryBody(context: IWebhookFunctions): IDataObject | undefined {
	const body: unknown = context.getBodyData();
	return body !== null && typeof body === 'object' && !Array.isArray(body)
		? (body as IDataObject)
		: undefined;
}

/** The items one authentic delivery emits: none, or its call's event. */
export async function itemsOfDelivery(
	context: IWebhookFunctions,
	body: IDataObject,
	judge: Judge,
): Promise<INodeExecutionData[]> {
	const callId = typeof body.call_id === 'string' ? body.call_id.trim() : '';
	if (!UUID_REGEX.test(callId)) return [];
	// a repeat, or a kind that emits nothing chosen, costs no request
	const open = judge.events.filter(
		(event) => mayEmit(event, body.event, judge.settings) && !judge.claims.has(callId, event),
	);
	if (!open.length) return [];
	const call = await readCall(context, callId, judge.settings);
	if (!call || String(call.id) !== callId) return [];
	const items: INodeExecutionData[] = [];
	for (const event of open) {
		if (
			body.event === emittingDelivery(event, call, judge.settings) &&
			callIsWanted(call, event, judge) &&
			recordShows(call, event, judge) &&
			judge.now - eventTime(call, event) < horizonOf(event, judge.settings)
		)
			items.push(await eventItem(context, call, event, judge));
	}
	return items;
}

/**
 * The items whose emission this delivery claims, claimed all at once once every item is built
 * (no `await` in between): a delivery that fails midway claims nothing, so the recovery can still
 * emit its events; of two deliveries of one event in this process, only the first emits.
 */
export function claimedItems(items: INodeExecutionData[], judge: Judge): INodeExecutionData[] {
	return items.filter((item) => judge.claims.claim(String(item.json.emission_key), judge.now));
}

/** The item of a call's event: the call's item, with the event and the key that names this emission. */
export async function eventItem(
	context: IWebhookFunctions,
	call: IDataObject,
	event: CallEvent,
	judge: Judge,
): Promise<INodeExecutionData> {
	const { settings } = judge;
	const verdict = event === 'callFinished' ? verdictOf(call, settings, judge.now) : 'ready';
	const item = await callItem(
		context,
		call,
		event === 'callStarted' ? { ...settings, recordingProperty: undefined } : settings,
		verdict === 'late' ? lateNote(settings) : undefined,
	);
	const json: IDataObject = {
		call_id: item.json.call_id,
		event,
		emission_key: emissionKey(String(call.id), event),
		...item.json,
	};
	if (event === 'callFinished' && !settings.waitForAnalysis && analysisStillToCome(call, settings))
		json.analysis_note = LATER_FIELDS_NOTE;
	return { ...item, json };
}

function analysisStillToCome(call: IDataObject, settings: CallSettings): boolean {
	return (
		expectsAnalysis(call) && !analysisIsReady(call, settings.transcript.includeTranscript !== false)
	);
}

const LATER_FIELDS_NOTE =
	'call_analysis, chat_history and call_record (the recording) arrive some seconds after the call ends and are empty here. Turn on Wait for Analysis to emit the call with them, or read it later (Call → Get).';
