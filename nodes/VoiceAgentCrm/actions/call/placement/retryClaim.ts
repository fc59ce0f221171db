import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ItemResults } from '../../../shared/operation';
import { keepForCancels } from '../../../transport/request';
import { sleepFor } from '../campaign/sleep';
import { scheduleOf } from '../campaign/window';
import { placementOf, type CallOrigin } from './earlierCalls';
import { CANCEL_MARGIN_MS, cancelScheduledCall, type CancelOutcome } from './placement';
import {
	canceledBeforeRinging,
	MAX_LOOK_UP_PAGES,
	scanCalls,
	traceOf,
	type PlacementTrace,
} from './trace';

/**
 * A Retry's placements are claims (docs/decisions.md, "The retry memory"): two Retries of one
 * execution pressed at once both read, before placing, that the item's call was never placed, so
 * the look-up alone would let both dial. A Retry therefore schedules each call it places
 * CLAIM_LEAD_MS ahead, reads the agent's calls once the claims are in, and keeps its call only
 * when no other execution placed the same item (its fingerprint) earlier within RIVAL_WINDOW_MS;
 * otherwise it cancels its call before it rings and goes on with the earlier one. Every Retry
 * sees the same list, so the earliest call is kept by all of them.
 */

/** How far ahead a Retry's call is scheduled: time to place, read and cancel before it rings. */
const CLAIM_LEAD_MS = 20_000;

/** A claim's placements stop this long before its first call starts, to read and cancel in time. */
const SETTLE_BEFORE_MS = 8_000;

/** A placement is sent this long before its call starts at the latest. */
const SEND_BY_MARGIN_MS = 10_000;

/** The read waits this long after the last placement of a claim: the list may lag its writes. */
const READ_AFTER_MS = 1_000;

/** Another execution's call of the same item created this long before this one is a rival claim. */
const RIVAL_WINDOW_MS = 60_000;

/** One item to place as a claim: its body (to schedule), its trace, when its call is due. */
export interface ClaimItem {
	itemIndex: number;
	agentId: string;
	trace: PlacementTrace;
	placement: { body: IDataObject; startsAt?: number };
}

/** A placed claim's answer: the call kept for the item and who placed it. */
export interface Claimed<T extends ClaimItem> {
	item: T;
	placement: IDataObject;
	origin: CallOrigin;
}

/** Places one item; its latest sending time given. Answers undefined when it failed on its item. */
export type PlaceClaim<T extends ClaimItem> = (
	item: T,
	sendBy: number,
) => Promise<Claimed<T> | undefined>;

/**
 * Place `items` as claims, in groups: a group closes SETTLE_BEFORE_MS before its first call starts
 * (its placements sent within 12 s), then is read once per agent and settled before its calls
 * start. Each claim keeps a request of the organization budget for its cancel until it is
 * settled, as a campaign's do. Answers the calls the items go on with, their own or the earlier
 * ones.
 */
export async function placeAsClaims<T extends ClaimItem>(
	context: IExecuteFunctions,
	items: T[],
	place: PlaceClaim<T>,
	results: ItemResults,
): Promise<Array<Claimed<T>>> {
	const kept: Array<Claimed<T>> = [];
	let group: Array<Claimed<T>> = [];
	let groupStartsAt = Infinity;
	let keptForCancels = 0;
	const keep = async (change: number) => {
		keptForCancels += change;
		await keepForCancels(context, change);
	};
	const settleGroup = async () => {
		kept.push(...(await settle(context, group, results)));
		await keep(-keptForCancels);
		group = [];
		groupStartsAt = Infinity;
	};
	try {
		for (const item of items) {
			if (group.length && Date.now() >= groupStartsAt - SETTLE_BEFORE_MS) await settleGroup();
			const callAt = scheduleAhead(item);
			groupStartsAt = Math.min(groupStartsAt, callAt);
			await keep(1);
			const placed = await place(item, callAt - SEND_BY_MARGIN_MS);
			if (placed) group.push(placed);
			else await keep(-1);
		}
		if (group.length) await settleGroup();
	} finally {
		await keep(-keptForCancels);
	}
	return kept;
}

/** The item's call set to start CLAIM_LEAD_MS from now at the soonest; when it starts. */
function scheduleAhead(item: ClaimItem): number {
	const soonest = Date.now() + CLAIM_LEAD_MS;
	const { placement } = item;
	if (placement.startsAt !== undefined && placement.startsAt >= soonest) return placement.startsAt;
	// whole seconds: the schedule's format has no milliseconds
	const callAt = Math.ceil(soonest / 1000) * 1000;
	delete placement.body.delay;
	placement.body.schedule = scheduleOf(callAt);
	placement.startsAt = callAt;
	return callAt;
}

/** What settling did with a claim: the call the item goes on with, or the item's failure. */
type Settled<T extends ClaimItem> = { keep: Claimed<T> } | { fail: number; error: Error };

/**
 * One read of each agent's calls since the group's rivals could have been placed, then each
 * claim kept, or canceled for the earlier call of another execution, which the item goes on with.
 * The items are answered once every cancel was sent: a failure answered first would end the run
 * (Continue On Fail off) with the other claims still set to ring.
 */
async function settle<T extends ClaimItem>(
	context: IExecuteFunctions,
	group: Array<Claimed<T>>,
	results: ItemResults,
): Promise<Array<Claimed<T>>> {
	await sleep(READ_AFTER_MS);
	const settled: Array<Settled<T>> = [];
	for (const agentId of new Set(group.map((claim) => claim.item.agentId))) {
		const claims = group.filter((claim) => claim.item.agentId === agentId);
		let listed: IDataObject[];
		try {
			listed = await beforeDue(context, group, sameItemCalls(context, agentId, claims));
		} catch (error) {
			for (const claim of claims) settled.push(await giveUp(context, claim, error as Error));
			continue;
		}
		for (const claim of claims) {
			const earlier = earliestRival(claim, listed);
			settled.push(earlier ? await yieldTo(context, claim, earlier) : { keep: claim });
		}
	}
	for (const each of settled) if ('fail' in each) results.fail(each.fail, each.error);
	return settled.flatMap((each) => ('keep' in each ? [each.keep] : []));
}

/** The agent's calls that carry one of the claims' fingerprints, since the earliest rival time. */
async function sameItemCalls<T extends ClaimItem>(
	context: IExecuteFunctions,
	agentId: string,
	claims: Array<Claimed<T>>,
): Promise<IDataObject[]> {
	const fingerprints = new Set(claims.map((claim) => claim.item.trace.n8n_fingerprint));
	const since = Math.min(...claims.map(createdAtOf)) - RIVAL_WINDOW_MS;
	const listed: IDataObject[] = [];
	const complete = await scanCalls(
		context,
		{
			query: { agent_id: agentId },
			itemIndex: claims[0].item.itemIndex,
			since,
			maxPages: MAX_LOOK_UP_PAGES,
		},
		(call) => {
			if (fingerprints.has(traceOf(call).n8n_fingerprint ?? '')) listed.push(call);
			return false;
		},
	);
	if (!complete)
		throw new NodeOperationError(
			context.getNode(),
			`More than ${MAX_LOOK_UP_PAGES * 1000} calls of the agent in a minute: whether another Retry placed the same call could not be read`,
		);
	return listed;
}

/**
 * The read's answer, or an error once the first of the claims' calls is CANCEL_MARGIN_MS from its
 * start: a read slowed by the budgets (a 429, other workflows' draws) never lets a claim ring
 * unread. The read left behind is ignored.
 */
async function beforeDue<T extends ClaimItem>(
	context: IExecuteFunctions,
	claims: Array<Claimed<T>>,
	read: Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	const due = Math.min(...claims.map((claim) => claim.item.placement.startsAt ?? Infinity));
	const timer = new AbortController();
	// in timers Node keeps: a call scheduled weeks ahead would otherwise end the wait at once
	const late = sleepFor(Math.max(0, due - CANCEL_MARGIN_MS - Date.now()), timer.signal).then(
		() => {
			if (timer.signal.aborted) return [];
			throw new NodeOperationError(
				context.getNode(),
				`The agent's calls could not be read by ${new Date(due - CANCEL_MARGIN_MS).toISOString()}, ${CANCEL_MARGIN_MS / 1000} s before the first call was due: the read waited on the rate budgets or the service`,
			);
		},
		() => [] as IDataObject[],
	);
	read.catch(() => undefined);
	try {
		return await Promise.race([read, late]);
	} finally {
		timer.abort();
	}
}

const createdAtOf = (claim: Claimed<ClaimItem>): number =>
	Date.parse(String(claim.placement.created_at));

/** Calls in the order they were placed: by creation time, then by ID (the same on every read). */
function placedBefore(a: { at: number; id: string }, b: { at: number; id: string }): boolean {
	return a.at < b.at || (a.at === b.at && a.id < b.id);
}
const placedOf = (call: IDataObject) => ({
	at: Date.parse(String(call.created_at)),
	id: String(call.id),
});

/** The earliest call of another execution for the same item within the window, if any. */
function earliestRival<T extends ClaimItem>(
	claim: Claimed<T>,
	listed: IDataObject[],
): IDataObject | undefined {
	const own = { at: createdAtOf(claim), id: String(claim.placement.call_id) };
	return listed
		.filter(
			(call) =>
				!canceledBeforeRinging(call) &&
				traceOf(call).n8n_fingerprint === claim.item.trace.n8n_fingerprint &&
				placedOf(call).at >= own.at - RIVAL_WINDOW_MS &&
				placedBefore(placedOf(call), own),
		)
		.sort((a, b) => (placedBefore(placedOf(a), placedOf(b)) ? -1 : 1))[0];
}

/** This claim's call canceled before it rings; the item goes on with the earlier call. */
async function yieldTo<T extends ClaimItem>(
	context: IExecuteFunctions,
	claim: Claimed<T>,
	earlier: IDataObject,
): Promise<Settled<T>> {
	const canceled = await cancelClaim(context, claim);
	// it rang already: the item keeps it
	if ('notScheduled' in canceled) return { keep: claim };
	if ('failed' in canceled)
		return failure(
			context,
			claim,
			'was placed, and another execution placed the same call earlier; canceling this one failed, so it may ring too',
			canceled.failed,
		);
	return {
		keep: {
			item: claim.item,
			placement: placementOf(earlier),
			origin: {
				already_placed: true,
				placed_by_execution: traceOf(earlier).n8n_execution_id ?? '',
			},
		},
	};
}

/** The claim's call canceled, urgently: its start is near. */
async function cancelClaim<T extends ClaimItem>(
	context: IExecuteFunctions,
	claim: Claimed<T>,
): Promise<CancelOutcome> {
	return await cancelScheduledCall(context, String(claim.placement.call_id), {
		itemIndex: claim.item.itemIndex,
		urgent: true,
	});
}

/** The list could not be read: the claim's call is canceled before it rings and the item fails. */
async function giveUp<T extends ClaimItem>(
	context: IExecuteFunctions,
	claim: Claimed<T>,
	error: Error,
): Promise<Settled<T>> {
	const canceled = await cancelClaim(context, claim);
	const unread = "whether another Retry placed this item's call could not be read";
	if ('canceled' in canceled)
		return failure(context, claim, `was canceled before it rang: ${unread}`, error);
	if ('notScheduled' in canceled)
		return failure(context, claim, `was placed and rang; ${unread}`, error);
	return failure(
		context,
		claim,
		`was placed; ${unread}, and canceling it failed, so it may ring (${(canceled.failed as Error).message})`,
		error,
	);
}

/** The item's failure: what happened to the claim's call, and why. */
function failure<T extends ClaimItem>(
	context: IExecuteFunctions,
	claim: Claimed<T>,
	what: string,
	cause: unknown,
): Settled<T> {
	const { itemIndex } = claim.item;
	return {
		fail: itemIndex,
		error: new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: call ${String(claim.placement.call_id)} ${what}`,
			{ itemIndex, description: (cause as Error).message },
		),
	};
}
