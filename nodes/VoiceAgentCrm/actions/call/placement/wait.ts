import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { WaitSettings } from './waitFields';
import { recordIsFinal, statusWords } from '../../../shared/callVocabulary';
import {
	apiRequest,
	cancelSignalOf,
	noteStop,
	pauseUnlessStopped,
} from '../../../transport/request';

/**
 * Waiting for placed calls by polling the status endpoint ("poll every few seconds", API reference):
 * one loop over every call of the run, so that ten calls take about as long as the longest one.
 */

/** The least time between two status reads of one call. */
export const POLL_INTERVAL_MS = 5_000;

/**
 * The loop's reads, status and record together, take at most half the organization's budget (120
 * requests a minute, API reference "Limits"): one read a second at most, so that the
 * organization's other workflows keep theirs. With many calls, each is read every (number of
 * calls followed) seconds, never more often than every 5 s.
 */
// a little over a second: the service sees the reads arrive with network jitter, and must never count 61 in a minute
const READ_SPACING_MS = 1_050;

/** After a 429 every call is read half as often for one rate window (60 s). */
const SLOW_DOWN_FOR_MS = 60_000;

function pollInterval(followed: number, slowed: boolean): number {
	const interval = Math.max(POLL_INTERVAL_MS, followed * READ_SPACING_MS);
	return slowed ? 2 * interval : interval;
}

/**
 * Added to the agent's maximum call duration for the default maximum wait: the call waits in the
 * queue (seconds, more when the organization's lines are busy), rings (up to about a minute before
 * no-answer), `finished` turns true seconds after hang-up, and the analysis, recording and transcript
 * arrive after that (seconds to a minute or two). Five minutes covers all of it with room to spare;
 * it only bounds a wait that normally ends well before.
 */
export const WAIT_MARGIN_MS = 5 * 60_000;

/** For an agent without `max_call_duration_ms` (the reference gives no default): one hour. */
export const FALLBACK_MAX_CALL_MS = 60 * 60_000;

/** A placed call the node waits for. */
export interface AwaitedCall {
	itemIndex: number;
	callId: string;
	/** The placement answer: `{call_id, agent_id, contact_id, created_at}`. */
	placement: IDataObject;
	settings: WaitSettings;
	placedAt: number;
	/** When the call is due to be placed: its delay or schedule, or the placement itself. */
	startsAt: number;
	/** When the node stops waiting for it. */
	deadline: number;
}

export type CallOutcome =
	| { record: IDataObject }
	| { error: NodeApiError | NodeOperationError; details: IDataObject };

type ReadContext = IExecuteFunctions | IWebhookFunctions;

export function minutesText(ms: number): string {
	const minutes = Math.round(ms / 6_000) / 10;
	return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** One status read (the light endpoint, no transcript). */
export async function readStatus(context: ReadContext, callId: string, itemIndex?: number) {
	const answer = await apiRequest.call(context, 'getCallStatus', { params: { callId }, itemIndex });
	return { status: answer.payload as IDataObject, rateLimited: answer.rateLimited };
}

/**
 * One read of the full record with the transcript options of Get. The record leads with `call_id`,
 * the name Don't Wait returns it under, so that a mapping does not break when the wait changes.
 */
export async function readRecord(
	context: ReadContext,
	callId: string,
	settings: Pick<WaitSettings, 'recordQuery'>,
	itemIndex?: number,
) {
	const answer = await apiRequest.call(context, 'getCall', {
		params: { callId },
		query: settings.recordQuery,
		itemIndex,
	});
	return {
		record: { call_id: callId, ...(answer.payload as IDataObject) },
		rateLimited: answer.rateLimited,
	};
}

/** Whether a finished call's record is what the user waits for (the one rule: shared/callVocabulary.ts). */
export function recordIsReady(
	record: IDataObject,
	settings: Pick<WaitSettings, 'until' | 'includeTranscript'>,
): boolean {
	return settings.until === 'ended' || recordIsFinal(record, settings.includeTranscript);
}

interface Follow {
	call: AwaitedCall;
	/** `status` until the call is finished, then `record` until its record is ready. */
	stage: 'status' | 'record';
	nextReadAt: number;
	lastStatus?: IDataObject;
}

/**
 * One read of following a call: its status until it is finished, then its record; answers the
 * record once it is ready. One read a step, so that every read takes its own slot (`awaitCalls`).
 */
async function readStep(
	context: IExecuteFunctions,
	follow: Follow,
): Promise<{ record?: IDataObject; rateLimited: number }> {
	const { callId, itemIndex, settings } = follow.call;
	if (follow.stage === 'status') {
		const read = await readStatus(context, callId, itemIndex);
		follow.lastStatus = read.status;
		if (read.status.finished === true) follow.stage = 'record';
		return { rateLimited: read.rateLimited };
	}
	const read = await readRecord(context, callId, settings, itemIndex);
	return {
		record: recordIsReady(read.record, settings) ? read.record : undefined,
		rateLimited: read.rateLimited,
	};
}

/**
 * Wait for every call at once: each call's status is read at most once per 5 s (see
 * `pollInterval`), then its record once finished, and again while its analysis is missing when
 * the user waits for it. All reads, status and record alike, are at least `READ_SPACING_MS` apart
 * (twice that for a minute after a 429), so the wait never takes more than half the organization's
 * budget in any minute. Answers outcomes by item index.
 */
export async function awaitCalls(
	context: IExecuteFunctions,
	calls: AwaitedCall[],
): Promise<Map<number, CallOutcome>> {
	const stop = cancelSignalOf(context);
	const noteCalls = () => noteStop(context, stoppedWhileWaiting(calls));
	stop?.addEventListener('abort', noteCalls, { once: true });
	try {
		return await followCalls(context, calls, stop);
	} finally {
		stop?.removeEventListener('abort', noteCalls);
	}
}

/** What a Stop during the wait leaves: the calls were placed and go on. */
function stoppedWhileWaiting(calls: AwaitedCall[]): string {
	const placed = calls.map((call) => `item ${call.itemIndex} → call ${call.callId}`).join(', ');
	return `The execution was stopped while waiting for the outcome of calls it placed (${placed}). They were placed and go on: follow them with Call → Get Status, or hang up with Call → Stop; do not place them again.`;
}

function stoppedOutcome(context: IExecuteFunctions, call: AwaitedCall): CallOutcome {
	return {
		error: new NodeOperationError(
			context.getNode(),
			`Call ${call.callId} was placed and goes on: the execution was stopped while waiting for its outcome`,
			{
				itemIndex: call.itemIndex,
				description:
					'Follow it with Call → Get Status, or hang it up with Call → Stop and this call ID; do not place it again.',
			},
		),
		details: { call_id: call.callId },
	};
}

async function followCalls(
	context: IExecuteFunctions,
	calls: AwaitedCall[],
	stop: AbortSignal | undefined,
): Promise<Map<number, CallOutcome>> {
	const outcomes = new Map<number, CallOutcome>();
	let follows: Follow[] = calls.map((call) => ({
		call,
		stage: 'status',
		nextReadAt: Math.max(call.placedAt + POLL_INTERVAL_MS, call.startsAt),
	}));
	let slowUntil = 0;
	let nextSlotAt = 0;
	while (follows.length) {
		if (stop?.aborted) {
			for (const { call } of follows) outcomes.set(call.itemIndex, stoppedOutcome(context, call));
			break;
		}
		for (const follow of follows) {
			if (stop?.aborted) break;
			if (Date.now() >= follow.call.deadline) {
				outcomes.set(follow.call.itemIndex, await timedOut(context, follow));
				continue;
			}
			if (Date.now() < follow.nextReadAt) continue;
			if (Date.now() < nextSlotAt) await pauseUnlessStopped(nextSlotAt - Date.now(), stop);
			const startedAt = Date.now();
			const slowed = startedAt < slowUntil;
			nextSlotAt = startedAt + (slowed ? 2 : 1) * READ_SPACING_MS;
			const stage = follow.stage;
			try {
				const step = await readStep(context, follow);
				if (step.rateLimited) slowUntil = Date.now() + SLOW_DOWN_FOR_MS;
				if (step.record) outcomes.set(follow.call.itemIndex, { record: step.record });
			} catch (error) {
				if (!stop?.aborted)
					outcomes.set(follow.call.itemIndex, lostTrack(context, follow.call, error));
			}
			// a call found finished has its record read in the next free slot
			const finishedNow = stage === 'status' && follow.stage === 'record';
			follow.nextReadAt = finishedNow
				? startedAt
				: startedAt + pollInterval(follows.length, Date.now() < slowUntil);
		}
		follows = follows.filter((follow) => !outcomes.has(follow.call.itemIndex));
		if (!follows.length) break;
		const wakeAt = Math.max(
			nextSlotAt,
			Math.min(...follows.map((follow) => Math.min(follow.nextReadAt, follow.call.deadline))),
		);
		await pauseUnlessStopped(Math.max(0, wakeAt - Date.now()), stop);
	}
	return outcomes;
}

function callDetails(
	call: AwaitedCall,
	status: IDataObject | undefined,
	extra: IDataObject = {},
): IDataObject {
	return {
		call_id: call.callId,
		call_status: status?.call_status ?? null,
		timed_out: true,
		...extra,
	};
}

/**
 * A status or record read that failed for good: the call was placed, so the error says which call
 * and how to follow it (the transport's message stays as it is).
 */
function lostTrack(context: IExecuteFunctions, call: AwaitedCall, error: unknown): CallOutcome {
	const placed = `Call ${call.callId} was placed, but waiting for it failed. Follow it with Call → Get Status or Call → Get and this call ID; do not place it again.`;
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex: call.itemIndex });
	nodeError.description = [placed, nodeError.description].filter(Boolean).join(' ');
	return { error: nodeError, details: { call_id: call.callId } };
}

/** The wait ran out: say whether the call is still live, its ID and what to do; hang up if asked. */
async function timedOut(context: IExecuteFunctions, follow: Follow): Promise<CallOutcome> {
	const { call, lastStatus } = follow;
	const waited = minutesText(Date.now() - call.placedAt);
	const fail = (message: string, description: string, extra: IDataObject = {}): CallOutcome => ({
		error: new NodeOperationError(context.getNode(), message, {
			itemIndex: call.itemIndex,
			description,
		}),
		details: callDetails(call, lastStatus, extra),
	});
	if (follow.stage === 'record') {
		return fail(
			`Call ${call.callId} has ended, but its analysis and transcript were not ready after waiting ${waited}`,
			'Nothing is wrong with the call. Read its record later with Call → Get and this call ID, or raise Wait Options → Max Wait.',
			{ finished: true },
		);
	}
	// not read yet: its delay or schedule lies beyond the wait, or the wait is shorter than 5 s
	const status = lastStatus?.call_status ?? (call.startsAt > Date.now() ? 'scheduled' : 'in_queue');
	const live = `Call ${call.callId} is still live (${statusWords(status)}) after waiting ${waited}`;
	if (!call.settings.hangUpAtTimeout) {
		return fail(
			`${live}. The node stopped waiting; the call goes on.`,
			'Get its outcome later with Call → Get Status or Call → Get and this call ID, raise Wait Options → Max Wait, or turn on Wait Options → Hang Up at Timeout.',
			{ hung_up: false },
		);
	}
	try {
		const { payload } = await apiRequest.call(context, 'stopCall', {
			params: { callId: call.callId },
			itemIndex: call.itemIndex,
		});
		const stopped = (payload as IDataObject).stopped === true;
		return fail(
			stopped
				? `${live}, so it was hung up (Hang Up at Timeout is on)`
				: `Call ${call.callId} ended just as the wait of ${waited} ran out; it did not need hanging up`,
			'Read its record with Call → Get and this call ID.',
			{ hung_up: stopped },
		);
	} catch (error) {
		return fail(
			`${live}, and hanging it up failed: ${(error as Error).message}`,
			'Stop it with Call → Stop, or cancel it with Call → Cancel Scheduled Call if it is scheduled.',
			{ hung_up: false },
		);
	}
}
