import type { IDataObject } from 'n8n-workflow';

/**
 * The call vocabulary, once for the action node (Wait for Outcome) and both triggers.
 *
 * The API has two status vocabularies (API reference, "States"): the full record's `call_status`
 * and the status endpoint's `call_status` (which also carries `finished`).
 */

/** Finished values of the full record's `call_status`; `answering-machine` is live (the agent is leaving a message). */
export const FINISHED_RECORD_STATUSES: readonly string[] = [
	'completed',
	'no-answer',
	'failed',
	'incomplete',
	'busy',
	'voice_mail',
];

/** Finished values of the status endpoint's `call_status` (those for which `finished` is true). */
export const FINISHED_STATUS_VALUES: readonly string[] = [
	'ended',
	'voicemail',
	'no_answer',
	'failed',
	'canceled',
];

/** Live values of the full record's `call_status`: the call was picked up and is going on. */
const LIVE_RECORD_STATUSES: readonly string[] = ['in-progress', 'answering-machine'];

/** Whether a full call record is finished. */
export function recordIsFinished(record: IDataObject): boolean {
	return FINISHED_RECORD_STATUSES.includes(String(record.call_status));
}

/** Whether a full call record shows a call that has started: answered (or reached a voicemail box), or over after that. */
export function recordHasStarted(record: IDataObject): boolean {
	return !!record.start_at || LIVE_RECORD_STATUSES.includes(String(record.call_status));
}

const STATUS_WORDS: Record<string, string> = {
	in_queue: 'queued',
	scheduled: 'scheduled',
	pending: 'ringing',
	in_progress: 'in progress',
};

/** A status endpoint value in words for messages. */
export function statusWords(status: unknown): string {
	return STATUS_WORDS[String(status)] ?? String(status ?? 'unknown');
}

function hasContent(value: unknown): boolean {
	if (Array.isArray(value)) return value.length > 0;
	if (typeof value === 'string') return value.trim() !== '';
	return !!value && typeof value === 'object' && Object.keys(value).length > 0;
}

/**
 * Whether a finished call gets an analysis (and a transcript) at all: only a call something picked
 * up. A voicemail counts even without `start_at`: a voicemail box answered and the agent's message
 * is recorded and transcribed, so the record is not final until they arrive (a missing `start_at`
 * is a gap in the record, not proof that nobody answered). The wait and the triggers both bound
 * how long they wait for it, so a service that never analyses such a call delays, never loses it.
 */
export function expectsAnalysis(record: IDataObject): boolean {
	return (
		!!record.start_at || record.call_result === 'answered' || record.call_result === 'voicemail'
	);
}

/**
 * Whether a finished call's record holds what arrives after the call: its analysis, and its
 * transcript when the reader asked for the transcript (a reader that turned it off does not wait
 * for what it will not show).
 */
export function analysisIsReady(record: IDataObject, transcriptWanted: boolean): boolean {
	return hasContent(record.call_analysis) && (!transcriptWanted || hasContent(record.chat_history));
}

/** The one rule: a finished call's record is final once its analysis is ready, or when none is coming. */
export function recordIsFinal(record: IDataObject, transcriptWanted: boolean): boolean {
	return !expectsAnalysis(record) || analysisIsReady(record, transcriptWanted);
}
