import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemResults } from '../../../shared/operation';
import {
	findTracedCalls,
	LOOK_BACK_MS,
	MAX_LOOK_UP_PAGES,
	type PlacementTrace,
	type TraceKeys,
	type TraceMatch,
} from './trace';

/**
 * The never-twice memory (docs/decisions.md): before placing, a Place operation looks for the
 * call an earlier attempt already placed for an item, and only when a repeat is possible, since
 * the look-up costs the listing budget:
 * - a user's Retry of a failed execution (mode `retry`): the call with the item's fingerprint,
 *   placed by one of the executions the retried one descends from (placedByExecutions);
 * - another try of this run of the node (its own Retry On Fail, after a placement whose answer
 *   was lost or an item that failed): the call of this execution, node, run and item.
 */

/**
 * The items this run of the node sent a placement for, kept on the run's execute data: n8n hands
 * every try of Retry On Fail the same object, and a new run (a loop, another execution) another.
 */
const sentByRun = new WeakMap<object, Set<number>>();

/** Note that a placement is being sent for the item, before it is sent. */
export function notePlacementSent(context: IExecuteFunctions, itemIndex: number): void {
	const run = context.getExecuteData();
	const sent = sentByRun.get(run) ?? new Set<number>();
	sent.add(itemIndex);
	sentByRun.set(run, sent);
}

/**
 * The execution's custom data key listing the executions that placed calls: n8n's Retry runs on
 * the failed execution's saved data, custom data included, so a Retry (and a Retry of it) reads
 * the executions whose calls may be its items'. Comma-separated, newest last.
 */
export const PLACED_BY_KEY = 'voice_agent_crm_placed_by';

/** n8n keeps 512 characters of a custom data value. */
const CUSTOM_DATA_VALUE_MAX = 512;

function placedByExecutions(context: IExecuteFunctions): string[] {
	try {
		return (context.customData.get(PLACED_BY_KEY) ?? '').split(',').filter(Boolean);
	} catch {
		return [];
	}
}

/**
 * Note this execution among those that placed calls, before its placements are sent. The oldest
 * are dropped past n8n's 512 characters (their calls are older than the look-back in practice).
 */
export function notePlacingExecution(context: IExecuteFunctions): void {
	const id = String(context.getExecutionId() ?? '');
	const ids = placedByExecutions(context);
	if (!id || ids.includes(id)) return;
	ids.push(id);
	while (ids.join(',').length > CUSTOM_DATA_VALUE_MAX) ids.shift();
	try {
		context.customData.set(PLACED_BY_KEY, ids.join(','));
	} catch {
		// n8n's 10 custom data keys taken by the workflow: a Retry then looks in every execution
	}
}

/**
 * The trace key a Retry's calls carry besides the placement trace: the execution it retried. A
 * later Retry of that execution (or of one descending from it) takes them as its items' calls too,
 * not only those of the executions it descends from.
 */
export function retryTrace(context: IExecuteFunctions): TraceKeys {
	const retried = placedByExecutions(context).at(-1);
	return context.getMode() === 'retry' && retried ? { n8n_retry_of: retried } : {};
}

/**
 * What singles out the item's earlier call, or undefined when no earlier call can exist. A
 * Retry takes the call with the item's fingerprint placed by an execution it descends from, or by
 * another Retry of one of them. One whose saved data names no placing execution (it crashed
 * before n8n saved it, or an earlier version of the package ran it) takes the fingerprint's call
 * of any execution: never twice comes before placing a call another execution's identical one
 * stood for.
 */
function lookedFor(
	context: IExecuteFunctions,
	trace: PlacementTrace,
): TraceMatch | TraceMatch[] | undefined {
	if (context.getMode() === 'retry') {
		const { n8n_fingerprint } = trace;
		const placers = placedByExecutions(context);
		if (!placers.length) return { n8n_fingerprint };
		return [
			{ n8n_fingerprint, n8n_execution_id: placers },
			{ n8n_fingerprint, n8n_retry_of: placers },
		];
	}
	if (!sentByRun.get(context.getExecuteData())?.has(Number(trace.n8n_item))) return undefined;
	const { n8n_execution_id, n8n_node, n8n_run, n8n_item } = trace;
	return { n8n_execution_id, n8n_node, n8n_run, n8n_item };
}

export interface TracedItem {
	itemIndex: number;
	agentId: string;
	trace: PlacementTrace;
}

/** Who placed a call an item goes on with: the two fields every placement output carries. */
export interface CallOrigin {
	already_placed: boolean;
	placed_by_execution: string;
}

/** The origin fields of a placement's output item (the awaited item of a worker-freeing wait). */
export function originOf(json: IDataObject): CallOrigin {
	return {
		already_placed: json.already_placed === true,
		placed_by_execution: String(json.placed_by_execution ?? ''),
	};
}

export interface EarlierCall {
	/** Shaped as a placement answer: `{call_id, agent_id, contact_id, created_at}`. */
	placement: IDataObject;
	origin: CallOrigin;
}

/** The placement answer's fields of a call record read from the list. */
export function placementOf(call: IDataObject): IDataObject {
	const contact = call.contact as IDataObject | null | undefined;
	return {
		call_id: call.id,
		agent_id: call.agent_id,
		contact_id: contact?.id ?? null,
		created_at: call.created_at,
	};
}

function notRuledOut(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Item ${itemIndex}: a call placed for this item by an earlier attempt could not be ruled out, so no call was placed`,
		{
			itemIndex,
			description: `This run may repeat an earlier one (a Retry, or Retry On Fail). The agent placed more than ${MAX_LOOK_UP_PAGES * 1000} calls in the last ${LOOK_BACK_MS / 3_600_000} hours, more than the node reads to find this item's earlier call. Find it with Call → Get Many → Filters → Placed by Execution, then place only what is missing.`,
		},
	);
}

/**
 * For each item that may have been placed before, the call that was (item index → call). One
 * look-up per agent. An item whose look-up failed, or could not read far enough back, fails
 * before dialling.
 */
export async function callsPlacedEarlier(
	context: IExecuteFunctions,
	items: TracedItem[],
	results: ItemResults,
): Promise<Map<number, EarlierCall>> {
	const found = new Map<number, EarlierCall>();
	const byAgent = new Map<string, Array<{ item: TracedItem; keys: TraceMatch | TraceMatch[] }>>();
	for (const item of items) {
		const keys = lookedFor(context, item.trace);
		if (!keys) continue;
		byAgent.set(item.agentId, [...(byAgent.get(item.agentId) ?? []), { item, keys }]);
	}
	for (const [agentId, wanted] of byAgent) {
		try {
			const { calls, complete } = await findTracedCalls(context, {
				agentId,
				wanted: wanted.map(({ keys }) => keys),
				itemIndex: wanted[0].item.itemIndex,
			});
			wanted.forEach(({ item }, at) => {
				const call = calls[at];
				if (call) {
					const placedBy = String((call.metadata as IDataObject).n8n_execution_id ?? '');
					found.set(item.itemIndex, {
						placement: placementOf(call),
						origin: { already_placed: true, placed_by_execution: placedBy },
					});
				} else if (!complete) results.fail(item.itemIndex, notRuledOut(context, item.itemIndex));
			});
		} catch (error) {
			for (const { item } of wanted) results.fail(item.itemIndex, error);
		}
	}
	return found;
}
