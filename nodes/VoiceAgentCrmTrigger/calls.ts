import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	analysisIsReady,
	recordIsFinal,
	recordIsFinished,
} from '../VoiceAgentCrm/shared/callVocabulary';
import { attachRecording } from '../VoiceAgentCrm/shared/recording';
import { transcriptQuery, type TranscriptChoices } from '../VoiceAgentCrm/shared/transcriptOptions';
import { apiRequest } from '../VoiceAgentCrm/transport/request';
import type { TriggerContext } from './callFields';
import { msOf, scanNewestFirst } from './scan';

/**
 * Call Finished: every call emitted once, when it reaches a finished status.
 *
 * The list (`GET /v1/calls`) is sorted by `created_at`, newest first, but a call finishes long
 * after it is created, so the newest records alone cannot show which calls just finished. The
 * cursor therefore has two parts:
 * - `high`/`floor`: each poll reads the list from the top down to `floor` (the newest `created_at`
 *   seen, less an overlap for records that become visible late); `done` holds the ids of finished
 *   calls at or above the floor already handled, so ties and the overlap are never emitted twice.
 * - `watch`: calls seen unfinished (or finished and waiting for their analysis). Those still in
 *   the pages read are settled by the scan for free; the others are read one by one
 *   (`GET /v1/calls/{id}`), at most RECHECKS_PER_POLL a poll, in turn.
 *
 * State bound: `done` at most MAX_DONE ids and `watch` at most MAX_WATCHED ids (about 55 bytes
 * each in the static data, so under 110 KB together, whatever the history). A call stays watched
 * until it finishes or `watchHours` pass after its creation; past MAX_WATCHED the oldest are
 * dropped first. When more than MAX_DONE finished calls share the overlap, the floor rises above
 * the ones dropped, so nothing below it can be read again.
 */
export const CALL_OVERLAP_MS = 60_000;
export const MAX_DONE = 1_000;
export const MAX_WATCHED = 1_000;
export const RECHECKS_PER_POLL = 10;

export interface CallCursor {
	/** What the cursor follows (the agent filter); another scope takes a new baseline. */
	scope: string;
	/** Newest `created_at` seen, ms. */
	high: number;
	/** Records created before this are settled unless watched, ms. */
	floor: number;
	/** Finished calls at or above the floor already handled: id → created_at ms. */
	done: Record<string, number>;
	/** Calls waiting to finish (or for their analysis), in re-check order: id → created_at ms. */
	watch: Record<string, number>;
}

export interface CallSettings {
	agentId: string;
	directions: string[];
	results: string[];
	waitForAnalysis: boolean;
	analysisWaitMs: number;
	watchMs: number;
	transcript: TranscriptChoices;
	/** The binary property to put the recording in; `undefined` when not wanted. */
	recordingProperty?: string;
}

/** Whether the user waits for the transcript too (not when they turned it off). */
function transcriptWanted(settings: CallSettings): boolean {
	return settings.transcript.includeTranscript !== false;
}

export function matchesFilters(call: IDataObject, settings: CallSettings): boolean {
	return (
		(!settings.directions.length || settings.directions.includes(String(call.direction))) &&
		(!settings.results.length || settings.results.includes(String(call.call_result)))
	);
}

/** The list answers records in the API's default form; these options need the record read on its own. */
function needsOwnRead(choices: TranscriptChoices): boolean {
	return (
		choices.includeTranscript !== false &&
		(!!choices.includeWords || !!choices.includeTools || choices.transcriptFormat === 'toon')
	);
}

/** Drop what the user turned off but the list answers anyway (the transcript). */
function shaped(call: IDataObject, settings: CallSettings): IDataObject {
	if (transcriptWanted(settings)) return call;
	const rest = { ...call };
	delete rest.chat_history;
	delete rest.chat_history_with_tools;
	delete rest.transcript_format;
	return rest;
}

/** The call's record with the user's transcript options; `undefined` when the call does not exist (404). */
export async function readCall(
	context: TriggerContext,
	id: string,
	settings: CallSettings,
): Promise<IDataObject | undefined> {
	let failure: unknown;
	try {
		const { payload } = await apiRequest.call(context, 'getCall', {
			params: { callId: id },
			query: transcriptQuery(settings.transcript),
		});
		return payload as IDataObject;
	} catch (error) {
		failure = error;
	}
	// a call that no longer exists cannot finish: stop watching it; any other failure fails the poll
	if (failure instanceof NodeApiError && String(failure.httpCode) === '404') return undefined;
	throw failure;
}

function listQuery(settings: CallSettings): IDataObject {
	return settings.agentId ? { agent_id: settings.agentId } : {};
}

export function callScope(settings: CallSettings): string {
	return `calls:${settings.agentId}`;
}

/** Activation: remember where the list stands and which recent calls are still live; emit nothing. */
export async function callBaseline(
	context: IPollFunctions,
	settings: CallSettings,
	now: number,
): Promise<CallCursor> {
	const { records } = await scanNewestFirst(
		context,
		'listCalls',
		listQuery(settings),
		(c) => msOf(c.created_at),
		now - settings.watchMs,
		BASELINE_RECORDS,
	);
	const cursor: CallCursor = { scope: callScope(settings), high: 0, floor: 0, done: {}, watch: {} };
	for (const call of records) cursor.high = Math.max(cursor.high, msOf(call.created_at));
	cursor.floor = cursor.high - CALL_OVERLAP_MS;
	for (const call of [...records].reverse()) {
		const created = msOf(call.created_at);
		if (!recordIsFinished(call)) {
			if (created >= now - settings.watchMs) cursor.watch[String(call.id)] = created;
		} else if (created >= cursor.floor) {
			cursor.done[String(call.id)] = created;
		}
	}
	bound(cursor, now, settings);
	return cursor;
}

/** Calls read at activation to find those still live: 5,000 at most (six requests, the first page being small). */
const BASELINE_RECORDS = 5_000;

interface Outcome {
	call: IDataObject;
	/** Whether the record came from the list (and may need its own read for the transcript options). */
	fromList: boolean;
	analysisNote?: string;
}

/** One poll: the calls that finished since the last one, the cursor moved past them. */
export async function pollFinishedCalls(
	context: IPollFunctions,
	cursor: CallCursor,
	settings: CallSettings,
	now: number,
): Promise<INodeExecutionData[]> {
	const { records } = await scanNewestFirst(
		context,
		'listCalls',
		listQuery(settings),
		(c) => msOf(c.created_at),
		cursor.floor,
	);
	const outcomes: Outcome[] = [];
	const settle = (call: IDataObject, fromList: boolean) => {
		const id = String(call.id);
		const created = msOf(call.created_at);
		if (id in cursor.done) return;
		if (created < cursor.floor && !(id in cursor.watch)) return;
		const verdict = verdictOf(call, settings, now);
		if (verdict === 'wait') {
			cursor.watch[id] = created;
			return;
		}
		delete cursor.watch[id];
		if (created >= cursor.floor) cursor.done[id] = created;
		if (matchesFilters(call, settings))
			outcomes.push({
				call,
				fromList,
				analysisNote: verdict === 'late' ? lateNote(settings) : undefined,
			});
	};

	const read = new Set<string>();
	for (const call of records) {
		read.add(String(call.id));
		settle(call, true);
	}
	const unread = Object.keys(cursor.watch)
		.filter((id) => !read.has(id))
		.slice(0, RECHECKS_PER_POLL);
	for (const id of unread) {
		const created = cursor.watch[id];
		// moved to the end of the order, so that every watched call gets its turn
		delete cursor.watch[id];
		const call = await readCall(context, id, settings);
		if (!call) continue;
		cursor.watch[id] = created;
		settle(call, false);
	}

	for (const call of records) cursor.high = Math.max(cursor.high, msOf(call.created_at));
	cursor.floor = Math.max(cursor.floor, cursor.high - CALL_OVERLAP_MS);
	bound(cursor, now, settings);
	return await emitted(context, outcomes, settings);
}

/** `wait`: keep watching; `ready`: emit; `late`: emit without the analysis, past the bound. */
export type Verdict = 'wait' | 'ready' | 'late';

export function verdictOf(call: IDataObject, settings: CallSettings, now: number): Verdict {
	if (!recordIsFinished(call)) return 'wait';
	if (!settings.waitForAnalysis || recordIsFinal(call, transcriptWanted(settings))) return 'ready';
	const finishedAt = msOf(call.finished_at) || msOf(call.created_at);
	return now - finishedAt < settings.analysisWaitMs ? 'wait' : 'late';
}

export function lateNote(settings: CallSettings): string {
	const minutes = Math.round(settings.analysisWaitMs / 60_000);
	return `Emitted without waiting longer: the call analysis or the transcript had not arrived ${minutes} minutes after the call finished. Read the call again later (Call → Get) to have them.`;
}

/** The items, oldest finish first, each read on its own when the transcript options need it. */
async function emitted(
	context: IPollFunctions,
	outcomes: Outcome[],
	settings: CallSettings,
): Promise<INodeExecutionData[]> {
	outcomes.sort((a, b) => msOf(a.call.finished_at) - msOf(b.call.finished_at));
	const items: INodeExecutionData[] = [];
	for (const outcome of outcomes) {
		let call = outcome.call;
		if (outcome.fromList && needsOwnRead(settings.transcript))
			call = (await readCall(context, String(call.id), settings)) ?? call;
		items.push(await callItem(context, call, settings, outcome.analysisNote));
	}
	return items;
}

/** The item of one call, the same in both triggers: the record, the analysis state when awaited, the recording when asked. */
export async function callItem(
	context: TriggerContext,
	call: IDataObject,
	settings: CallSettings,
	analysisNote?: string,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: { ...shaped(call, settings) } };
	if (settings.waitForAnalysis && recordIsFinished(call)) {
		item.json.analysis_ready = analysisIsReady(call, transcriptWanted(settings));
		if (!item.json.analysis_ready) {
			item.json.analysis_note =
				analysisNote ?? 'No analysis is expected: nobody picked up the call.';
		}
	}
	if (settings.recordingProperty)
		await attachRecording(context, item, settings.recordingProperty, 'note');
	return item;
}

/** Keep the cursor within its stated bound (see the top of this file). */
function bound(cursor: CallCursor, now: number, settings: CallSettings): void {
	const done = Object.entries(cursor.done).sort((a, b) => b[1] - a[1]);
	if (done.length > MAX_DONE) cursor.floor = Math.max(cursor.floor, done[MAX_DONE][1] + 1);
	cursor.done = Object.fromEntries(done.filter(([, created]) => created >= cursor.floor).reverse());

	const watched = Object.entries(cursor.watch).filter(
		([, created]) => created >= now - settings.watchMs,
	);
	const newestFirst = [...watched].sort((a, b) => b[1] - a[1]).slice(0, MAX_WATCHED);
	const kept = new Set(newestFirst.map(([id]) => id));
	cursor.watch = Object.fromEntries(watched.filter(([id]) => kept.has(id)));
}

/** Manual mode ("Fetch Test Event"): the newest finished call that matches, at once. */
export async function newestFinishedCall(
	context: IPollFunctions,
	settings: CallSettings,
): Promise<INodeExecutionData | undefined> {
	const { records } = await scanNewestFirst(
		context,
		'listCalls',
		listQuery(settings),
		() => Infinity,
		Infinity,
		MANUAL_RECORDS,
	);
	const call = records.find((c) => recordIsFinished(c) && matchesFilters(c, settings));
	if (!call) return undefined;
	const [item] = await emitted(context, [{ call, fromList: true }], settings);
	return item;
}

/** Calls looked through for a test event: two pages at most. */
const MANUAL_RECORDS = 1_250;
