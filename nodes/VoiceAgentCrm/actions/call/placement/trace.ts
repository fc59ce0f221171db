import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readNewestFirst } from '../../../transport/paging';
import type { ApiContext } from '../../../transport/request';

/**
 * The call's trace (docs/decisions.md, "The call's trace and the never-twice memory"): keys the
 * node adds to a call's `metadata`, which the service keeps as long as the call, so that a call
 * stays findable after n8n lost its execution, and the call list is the memory a retry consults.
 */

/** What starts every trace key; a user's own metadata key may not. */
export const TRACE_PREFIX = 'n8n_';

/** Metadata keys, and the values a call must carry in them all, that single out the calls looked for. */
export type TraceKeys = Record<string, string>;

/** Trace keys a call must match: each key's value, or one of its values. */
export type TraceMatch = Record<string, string | string[]>;

/** Who placed a call: the keys every placement adds. */
export interface PlacementTrace extends TraceKeys {
	n8n_execution_id: string;
	n8n_workflow_id: string;
	n8n_node: string;
	/** The node's run in the execution (0 = its first; a loop runs a node more than once). */
	n8n_run: string;
	n8n_item: string;
	n8n_fingerprint: string;
}

/** How far back an earlier call is looked for: a call created before is never taken as this item's. */
export const LOOK_BACK_MS = 24 * 60 * 60_000;

/** Pages of 1,000 calls read at most per look-up (10,000 calls of one agent in the period). */
export const MAX_LOOK_UP_PAGES = 10;

/** JSON with every object's keys sorted, so that equal bodies give equal text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * 16 hex characters of SHA-256 over the workflow, the node, the item and the placement body
 * without `metadata` and `webhook_url` (they change from one execution to the next): the same
 * placement retried gives the same fingerprint.
 */
export function fingerprintOf(
	workflowId: string,
	node: string,
	itemIndex: number,
	body: IDataObject,
): string {
	const placed = { ...body, metadata: undefined, webhook_url: undefined };
	return createHash('sha256')
		.update(canonical({ workflow: workflowId, node, item: itemIndex, body: placed }))
		.digest('hex')
		.slice(0, 16);
}

/** The trace of one item's placement in this run of the node. */
export function placementTrace(
	context: IExecuteFunctions,
	itemIndex: number,
	runIndex: number,
	body: IDataObject,
): PlacementTrace {
	const workflowId = String(context.getWorkflow().id ?? '');
	const node = context.getNode().name;
	return {
		n8n_execution_id: String(context.getExecutionId() ?? ''),
		n8n_workflow_id: workflowId,
		n8n_node: node,
		n8n_run: String(runIndex),
		n8n_item: String(itemIndex),
		n8n_fingerprint: fingerprintOf(workflowId, node, itemIndex, body),
	};
}

/** The body with the trace added to the user's own metadata (whose keys never start with `n8n_`). */
export function withTrace(body: IDataObject, trace: TraceKeys): IDataObject {
	return { ...body, metadata: { ...((body.metadata as IDataObject) ?? {}), ...trace } };
}

/** The trace keys of a call record, or of none. */
export function traceOf(call: IDataObject): TraceKeys {
	const metadata = call.metadata;
	if (!metadata || typeof metadata !== 'object') return {};
	return Object.fromEntries(
		Object.entries(metadata as IDataObject)
			.filter(([key]) => key.startsWith(TRACE_PREFIX))
			.map(([key, value]) => [key, String(value)]),
	);
}

/**
 * Whether the call's metadata carries every key of `keys` with its value (or one of them); given
 * several matches, whether it carries one of them.
 */
export function carries(call: IDataObject, keys: TraceMatch | TraceMatch[]): boolean {
	const trace = traceOf(call);
	if (Array.isArray(keys)) return keys.some((one) => carries(call, one));
	return Object.entries(keys).every(([key, value]) =>
		Array.isArray(value) ? value.includes(trace[key]) : trace[key] === value,
	);
}

/**
 * Whether a listed call was canceled before it rang: the full record has no canceled value, and
 * such a call shows `incomplete` (docs/decisions.md). It called nobody, so no item goes on with it.
 */
export function canceledBeforeRinging(call: IDataObject): boolean {
	return call.call_status === 'incomplete';
}

export interface TraceSearch {
	agentId: string;
	/** What is looked for: each entry is answered with the newest call carrying all its keys (one of its matches). */
	wanted: Array<TraceMatch | TraceMatch[]>;
	/** The item whose request it is, for the request's errors. */
	itemIndex: number;
	/** Epoch ms; calls created earlier are not read. Default: 24 hours ago. */
	since?: number;
}

export interface TraceFinding {
	/** By position of `wanted`: the newest call that carries it, or undefined for none in the period. */
	calls: Array<IDataObject | undefined>;
	/** False when the page bound was reached before the period was read: a call not found may exist. */
	complete: boolean;
}

export interface CallScan {
	/** The list's own filters (`agent_id`, `call_status`). */
	query: IDataObject;
	itemIndex: number;
	/** Epoch ms: the scan ends at the first call created earlier. */
	since?: number;
	/** Pages of 1,000 read at most; the scan then ends unfinished. */
	maxPages?: number;
}

/**
 * Read the call list newest first through the pager, handing each call to `visit` until it answers
 * true, the list ends, a call is older than `since`, or `maxPages` pages were read. Answers false
 * only in that last case: older calls were left unread.
 */
export async function scanCalls(
	context: ApiContext,
	{ query, itemIndex, since, maxPages }: CallScan,
	visit: (call: IDataObject) => boolean,
): Promise<boolean> {
	const { complete } = await readNewestFirst.call(context, 'listCalls', {
		query,
		itemIndex,
		timeOf: (call) => Date.parse(String(call.created_at)),
		since,
		visit,
		maxPages,
		keepRecords: false,
	});
	return complete;
}

/**
 * The agent's calls since `since` that carry the wanted trace keys and were not canceled before
 * they rang (a Retry that lost its claim canceled its call), at most
 * `MAX_LOOK_UP_PAGES` pages, stopping as soon as every wanted entry is found.
 */
export async function findTracedCalls(
	context: IExecuteFunctions,
	{ agentId, wanted, itemIndex, since = Date.now() - LOOK_BACK_MS }: TraceSearch,
): Promise<TraceFinding> {
	const calls: Array<IDataObject | undefined> = wanted.map(() => undefined);
	const complete = await scanCalls(
		context,
		{ query: { agent_id: agentId }, itemIndex, since, maxPages: MAX_LOOK_UP_PAGES },
		(call) => {
			if (canceledBeforeRinging(call)) return false;
			wanted.forEach((keys, at) => {
				if (!calls[at] && carries(call, keys)) calls[at] = call;
			});
			return calls.every(Boolean);
		},
	);
	return { calls, complete: complete || calls.every(Boolean) };
}
