import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

/**
 * The call vocabulary, once for the action node (Wait for Outcome) and both triggers.
 *
 * The API has two status vocabularies (API reference, "States"): the full record's `call_status`,
 * written here, and the status endpoint's, whose `finished` flag the nodes read instead of its values.
 */

/**
 * The full record's `call_status` values, with the names the editor shows and the call's stage:
 * not placed yet, live (picked up and going on; `answering-machine` while the agent leaves a
 * message), or finished. Call → Get Many's status filter and the triggers' finished rule are
 * built from it.
 */
const RECORD_STATUS = {
	'answering-machine': { name: 'Answering Machine', stage: 'live' },
	busy: { name: 'Busy', stage: 'finished' },
	completed: { name: 'Completed', stage: 'finished' },
	failed: { name: 'Failed', stage: 'finished' },
	'in-progress': { name: 'In Progress', stage: 'live' },
	'in-queue': { name: 'In Queue', stage: 'notPlaced' },
	incomplete: { name: 'Incomplete', stage: 'finished' },
	'no-answer': { name: 'No Answer', stage: 'finished' },
	scheduled: { name: 'Scheduled', stage: 'notPlaced' },
	voice_mail: { name: 'Voice Mail', stage: 'finished' },
} as const satisfies Record<string, { name: string; stage: 'notPlaced' | 'live' | 'finished' }>;

export type RecordStatus = keyof typeof RECORD_STATUS;

export const RECORD_STATUSES = Object.keys(RECORD_STATUS) as [RecordStatus, ...RecordStatus[]];

const inStage = (stage: 'notPlaced' | 'live' | 'finished'): readonly string[] =>
	RECORD_STATUSES.filter((status) => RECORD_STATUS[status].stage === stage);

export const FINISHED_RECORD_STATUSES = inStage('finished');

const LIVE_RECORD_STATUSES = inStage('live');

/** The record statuses as the options of a filter. */
export const RECORD_STATUS_OPTIONS: INodePropertyOptions[] = RECORD_STATUSES.map((value) => ({
	name: RECORD_STATUS[value].name,
	value,
}));

/** The finished record statuses in words: "busy, completed, …, no answer or voice mail". */
export function finishedStatusesInWords(): string {
	const words = FINISHED_RECORD_STATUSES.map((status) =>
		RECORD_STATUS[status as RecordStatus].name.toLowerCase(),
	);
	return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The `call_result` values of a full record (API reference, "Call"), as the options of a filter. */
export const CALL_RESULT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Answered', value: 'answered' },
	{ name: 'Busy', value: 'busy' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'No Answer', value: 'no_answer' },
	{ name: 'Voicemail', value: 'voicemail' },
];

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
