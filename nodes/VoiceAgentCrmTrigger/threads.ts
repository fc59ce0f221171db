import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { msOf } from '../VoiceAgentCrm/shared/timestamps';
import { scanNewest, scanNewestFirst } from './scan';

/**
 * Thread Changed: every change of a thread emitted once, with its state before and after.
 *
 * The list (`GET /v1/threads`) is sorted by `updated_at`, newest first, and an update moves a thread
 * to the top, so each poll reads from the top down to the newest `updated_at` seen less an overlap
 * (records that become visible late). The API keeps no history, so "before" is what the trigger
 * remembers: `known` holds the last state seen of the most recently updated threads. A thread seen
 * again with the same `updated_at` is not a change; the status filter is applied to what is
 * emitted, never to the request, so a thread leaving a status cannot shift the pages.
 *
 * State bound: `known` keeps every thread updated within the overlap plus the MAX_KNOWN most
 * recently updated others (about 110 bytes each in the static data, so about 110 KB). A thread
 * changed after it was forgotten is emitted with `before: null`, as a thread seen for the first
 * time (for example one created after activation) is.
 */
export const THREAD_OVERLAP_MS = 60_000;
export const MAX_KNOWN = 1_000;

export type ThreadEvent = 'status' | 'assignment' | 'anyUpdate';

export interface ThreadSettings {
	channelId: string;
	events: ThreadEvent[];
	statuses: string[];
}

/** [status, assignee, assignee_type, updated_at ms]: compact, as static data is stored with the workflow. */
type KnownThread = [string, string | null, string | null, number];

export interface ThreadCursor {
	scope: string;
	/** Newest `updated_at` seen, ms. */
	high: number;
	known: Record<string, KnownThread>;
}

export interface ThreadState {
	status: string;
	assignee: string | null;
	assignee_type: string | null;
	updated_at: string;
}

export function threadScope(settings: ThreadSettings): string {
	return `threads:${settings.channelId}`;
}

function listQuery(settings: ThreadSettings): IDataObject {
	return settings.channelId ? { channel_id: settings.channelId } : {};
}

function known(thread: IDataObject): KnownThread {
	return [
		String(thread.status),
		(thread.assignee as string | null) ?? null,
		(thread.assignee_type as string | null) ?? null,
		msOf(thread.updated_at),
	];
}

function stateOf([status, assignee, assignee_type, updated]: KnownThread): ThreadState {
	return { status, assignee, assignee_type, updated_at: new Date(updated).toISOString() };
}

/** Activation: remember the state of the most recently updated threads; emit nothing. */
export async function threadBaseline(
	context: IPollFunctions,
	settings: ThreadSettings,
): Promise<ThreadCursor> {
	const { records } = await scanNewest(context, 'listThreads', listQuery(settings), MAX_KNOWN);
	const cursor: ThreadCursor = { scope: threadScope(settings), high: 0, known: {} };
	for (const thread of records) {
		cursor.known[String(thread.id)] = known(thread);
		cursor.high = Math.max(cursor.high, msOf(thread.updated_at));
	}
	return cursor;
}

/** What one change is, in words a workflow can branch on. */
function changeKinds(before: KnownThread | undefined, after: KnownThread): string[] {
	const kinds: string[] = [];
	if (!before || before[0] !== after[0])
		kinds.push(
			after[0] === 'open' ? 'opened' : after[0] === 'closed' ? 'closed' : 'status_changed',
		);
	if (!before || before[1] !== after[1] || before[2] !== after[2])
		kinds.push(after[1] ? 'assigned' : 'unassigned');
	if (!kinds.length) kinds.push('updated');
	return kinds;
}

function changedFields(before: KnownThread | undefined, after: KnownThread): string[] {
	const names = ['status', 'assignee', 'assignee_type', 'updated_at'];
	return names.filter((_, i) => !before || before[i] !== after[i]);
}

function wanted(
	before: KnownThread | undefined,
	after: KnownThread,
	settings: ThreadSettings,
): boolean {
	if (settings.statuses.length && !settings.statuses.includes(after[0])) return false;
	return settings.events.some((event) => {
		if (!before || event === 'anyUpdate') return true;
		if (event === 'status') return before[0] !== after[0];
		return before[1] !== after[1] || before[2] !== after[2];
	});
}

export function threadItem(thread: IDataObject, before: KnownThread | undefined): IDataObject {
	const after = known(thread);
	return {
		...thread,
		change: {
			kinds: changeKinds(before, after),
			fields: changedFields(before, after),
			before: before ? stateOf(before) : null,
			after: stateOf(after),
		},
	};
}

/** One poll: the thread changes since the last one, oldest first, the cursor moved past them. */
export async function pollThreadChanges(
	context: IPollFunctions,
	cursor: ThreadCursor,
	settings: ThreadSettings,
): Promise<IDataObject[]> {
	const floor = cursor.high - THREAD_OVERLAP_MS;
	const { records } = await scanNewestFirst(
		context,
		'listThreads',
		listQuery(settings),
		(t) => msOf(t.updated_at),
		floor,
	);
	const items: IDataObject[] = [];
	for (const thread of [...records].reverse()) {
		const id = String(thread.id);
		const before = cursor.known[id];
		const after = known(thread);
		if (after[3] < floor || (before && !isNewer(before, after))) continue;
		cursor.known[id] = after;
		if (wanted(before, after, settings)) items.push(threadItem(thread, before));
	}
	for (const thread of records) cursor.high = Math.max(cursor.high, msOf(thread.updated_at));
	bound(cursor);
	return items;
}

/** A later version; or, at the same `updated_at`, a different state (two updates in one millisecond). */
function isNewer(before: KnownThread, after: KnownThread): boolean {
	if (after[3] !== before[3]) return after[3] > before[3];
	return after[0] !== before[0] || after[1] !== before[1] || after[2] !== before[2];
}

function bound(cursor: ThreadCursor): void {
	const floor = cursor.high - THREAD_OVERLAP_MS;
	const newestFirst = Object.entries(cursor.known).sort((a, b) => b[1][3] - a[1][3]);
	const kept = newestFirst.filter(([, state], index) => index < MAX_KNOWN || state[3] >= floor);
	cursor.known = Object.fromEntries(kept);
}

/** Manual mode ("Fetch Test Event"): the most recently updated thread that matches, at once. */
export async function newestThread(
	context: IPollFunctions,
	settings: ThreadSettings,
): Promise<IDataObject | undefined> {
	const { records } = await scanNewest(context, 'listThreads', listQuery(settings), 1_250);
	const thread = records.find(
		(t) => !settings.statuses.length || settings.statuses.includes(String(t.status)),
	);
	return thread ? threadItem(thread, undefined) : undefined;
}
