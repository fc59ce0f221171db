import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { analysisIsReady, recordIsFinal, recordIsFinished } from '../callVocabulary';
import { attachRecording } from '../recording';
import { msOf } from '../timestamps';
import { transcriptQuery, type TranscriptChoices } from '../transcriptOptions';
import type { TriggerContext } from './fields';

/* How both triggers read, judge and emit one call: the same record, filters and item shape. */

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
export function needsOwnRead(choices: TranscriptChoices): boolean {
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

/** The item of one call, the same in both triggers: the record, the analysis state when awaited, the recording when asked. */
export async function callItem(
	context: TriggerContext,
	call: IDataObject,
	settings: CallSettings,
	analysisNote?: string,
): Promise<INodeExecutionData> {
	// leads with `call_id`, as Place AI Call's output does, so `{{ $json.call_id }}` maps either
	const item: INodeExecutionData = { json: { call_id: call.id, ...shaped(call, settings) } };
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
