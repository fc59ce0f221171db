import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dateTimeIn } from '../fields';
import type { Operation } from '../../../shared/operation';
import { ItemResults } from '../../../shared/operation';
import { waitSettingsOf, type WaitSettings } from './waitFields';
import { apiRequest } from '../../../transport/request';
import {
	callsPlacedEarlier,
	notePlacingExecution,
	retryTrace,
	type CallOrigin,
	type TracedItem,
} from './earlierCalls';
import { guardsOf, screenPlacements, type Guards } from './guards';
import { placeCall, type PlacementEndpoint } from './placement';
import { placeAsClaims } from './retryClaim';
import { placementTrace, withTrace } from './trace';
import { awaitCalls, FALLBACK_MAX_CALL_MS, WAIT_MARGIN_MS, type AwaitedCall } from './wait';
import { putExecutionToWaitForCalls, resumeUrlOf } from './waitByWebhook';
import { refuseUnreachableWebhookUrl } from '../../../shared/webhookReach';

/** What one item asks to place: the API body, and when the call is due (its delay or schedule). */
export interface PlacementRequest {
	body: IDataObject;
	/** Epoch ms when the call is to be placed; undefined places it now. */
	startsAt?: number;
}

/** When a call with this delay (minutes) or checked schedule is due; undefined for now. */
export function startsAtOf(input: {
	delay?: number;
	scheduleTime?: unknown;
	scheduleZone?: string;
}): number | undefined {
	if (input.scheduleZone !== undefined)
		return dateTimeIn(input.scheduleTime, input.scheduleZone)?.toMillis();
	return input.delay ? Date.now() + input.delay * 60_000 : undefined;
}

export type BuildPlacement = (this: IExecuteFunctions, itemIndex: number) => PlacementRequest;

interface CheckedItem extends TracedItem {
	/** Undefined when the node does not wait. */
	settings?: WaitSettings;
	placement: PlacementRequest;
	guards: Guards;
}

/** An item's call, placed now or by an earlier attempt, with who placed it. */
interface ItemCall {
	item: CheckedItem;
	placement: IDataObject;
	origin: CallOrigin;
}

/**
 * The execute of a Place operation: check every item, look for the calls an earlier attempt
 * placed when this run may repeat one, place the others, and answer each item's call ID, or,
 * with "Wait for Outcome", wait for all the calls together.
 */
export function placementExecute(
	endpoint: PlacementEndpoint,
	build: BuildPlacement,
): Operation['execute'] {
	return async function (this: IExecuteFunctions, items: INodeExecutionData[]) {
		const results = new ItemResults(this, items.length);
		const checked = checkItems(this, items.length, build, results);
		const earlier = await callsPlacedEarlier(this, checked, results);
		notePlacingExecution(this);
		// a call an earlier attempt placed is not dialled again: only the new placements are screened
		const skipped = await screenPlacements(
			this,
			checked
				.filter((item) => !results.has(item.itemIndex) && !earlier.has(item.itemIndex))
				.map((item) => ({ ...item, body: item.placement.body })),
			results,
		);
		const waits = this.getNodeParameter('waitFor', 0, 'none') !== 'none';
		const maxDurations = waits ? await agentMaxDurations(this, checked, results) : new Map();
		// a Retry's placements are claims (retryClaim.ts), and the calls it goes on with may be
		// another execution's, whose events go to that execution: a Retry waits by polling
		const retry = this.getMode() === 'retry';
		const freeWorker =
			waits && !retry && earlier.size === 0 && checked[0]?.settings?.resumeByWebhook === true;
		const calls: ItemCall[] = [];
		const toPlace: CheckedItem[] = [];
		for (const item of checked) {
			if (results.has(item.itemIndex)) continue;
			const found = earlier.get(item.itemIndex);
			const skip = skipped.get(item.itemIndex);
			if (found) calls.push({ item, ...found });
			else if (skip) results.succeed(item.itemIndex, skip);
			else toPlace.push(item);
		}
		calls.push(...(await placeItems(this, endpoint, toPlace, results, freeWorker)));
		calls.sort((a, b) => a.item.itemIndex - b.item.itemIndex);
		if (!waits) {
			for (const call of calls)
				results.succeed(call.item.itemIndex, { ...call.placement, ...call.origin });
			return results.items();
		}
		const awaited = calls.map((call) => awaitedCall(call, maxDurations));
		if (freeWorker && awaited.length)
			return await putExecutionToWaitForCalls(this, awaited, results.byItem());
		const outcomes = await awaitCalls(this, awaited);
		for (const call of calls) {
			const outcome = outcomes.get(call.item.itemIndex)!;
			if ('record' in outcome)
				results.succeed(call.item.itemIndex, { ...outcome.record, ...call.origin });
			else results.fail(call.item.itemIndex, outcome.error, outcome.details);
		}
		return results.items();
	};
}

/**
 * Place the items no earlier attempt placed: a Retry's as claims (retryClaim.ts), the others one
 * after another. Answers the calls the items go on with; an item that failed is in `results`.
 */
async function placeItems(
	context: IExecuteFunctions,
	endpoint: PlacementEndpoint,
	items: CheckedItem[],
	results: ItemResults,
	freeWorker: boolean,
): Promise<ItemCall[]> {
	const place = async (item: CheckedItem, sendBy?: number): Promise<ItemCall | undefined> => {
		// the resume URL of an execution that will not wait must not receive the call's events
		if (item.settings?.resumeByWebhook && !freeWorker) delete item.placement.body.webhook_url;
		try {
			if (freeWorker)
				await refuseUnreachableWebhookUrl(
					context,
					`${item.placement.body.webhook_url}`,
					item.itemIndex,
				);
			const placed = await placeCall(context, endpoint, item.placement.body, item.trace, {
				sendBy,
			});
			return { item, ...placed };
		} catch (error) {
			results.fail(item.itemIndex, error);
			return undefined;
		}
	};
	if (context.getMode() === 'retry') return await placeAsClaims(context, items, place, results);
	const placed: ItemCall[] = [];
	for (const item of items) {
		const call = await place(item);
		if (call) placed.push(call);
	}
	return placed;
}

/** The node's run in this execution (a loop runs it more than once). */
function runIndexOf(context: IExecuteFunctions): number {
	return Number(context.evaluateExpression('{{ $runIndex }}', 0)) || 0;
}

/**
 * Every item checked and its body built, traced, before any request, so that bad input never
 * leaves some calls placed.
 */
function checkItems(
	context: IExecuteFunctions,
	count: number,
	build: BuildPlacement,
	results: ItemResults,
): CheckedItem[] {
	const checked: CheckedItem[] = [];
	const runIndex = count ? runIndexOf(context) : 0;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const settings = waitSettingsOf(context, itemIndex);
			const placement = build.call(context, itemIndex);
			const trace = placementTrace(context, itemIndex, runIndex, placement.body);
			placement.body = withTrace(placement.body, { ...trace, ...retryTrace(context) });
			if (settings?.resumeByWebhook)
				placement.body.webhook_url = resumeUrlFor(context, placement.body, itemIndex);
			checked.push({
				itemIndex,
				agentId: String(placement.body.agent_id),
				trace,
				settings,
				placement,
				guards: guardsOf(context, itemIndex, placement.startsAt),
			});
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	return checked;
}

/** The call's own webhook URL is the execution's resume URL; a URL of the user's own cannot share it. */
function resumeUrlFor(context: IExecuteFunctions, body: IDataObject, itemIndex: number): string {
	if (body.webhook_url) {
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: Additional Fields → Webhook URL must be empty when Wait Options → Free the Worker While Waiting is on`,
			{
				itemIndex,
				description:
					"A call has one webhook URL of its own, and this mode uses it to resume the execution. The agent's own webhook still receives the call's events.",
			},
		);
	}
	return resumeUrlOf(context, itemIndex);
}

/**
 * The agents' `max_call_duration_ms`, read once per distinct agent and only for items whose
 * maximum wait is derived. An agent that cannot be read fails its items before any call is placed.
 */
async function agentMaxDurations(
	context: IExecuteFunctions,
	checked: CheckedItem[],
	results: ItemResults,
): Promise<Map<string, number>> {
	const durations = new Map<string, number>();
	for (const item of checked) {
		const agentId = String(item.placement.body.agent_id);
		if (
			item.settings?.maxWaitMs !== undefined ||
			durations.has(agentId) ||
			results.has(item.itemIndex)
		)
			continue;
		try {
			const { payload } = await apiRequest.call(context, 'getAgent', {
				params: { agentId },
				itemIndex: item.itemIndex,
			});
			const maxMs = Number((payload as IDataObject).max_call_duration_ms);
			durations.set(agentId, Number.isFinite(maxMs) && maxMs > 0 ? maxMs : FALLBACK_MAX_CALL_MS);
		} catch (error) {
			for (const same of checked.filter(
				(other) =>
					String(other.placement.body.agent_id) === agentId &&
					other.settings?.maxWaitMs === undefined,
			)) {
				results.fail(same.itemIndex, error);
			}
		}
	}
	return durations;
}

/** A call to wait for; a call an earlier attempt placed is waited for from now, as if placed now. */
function awaitedCall(
	{ item, placement, origin }: ItemCall,
	maxDurations: Map<string, number>,
): AwaitedCall {
	const placedAt = Date.now();
	const startsAt = Math.max(placedAt, item.placement.startsAt ?? placedAt);
	const settings = item.settings!;
	const deadline =
		settings.maxWaitMs !== undefined
			? placedAt + settings.maxWaitMs
			: startsAt + maxDurations.get(item.agentId)! + WAIT_MARGIN_MS;
	return {
		itemIndex: item.itemIndex,
		callId: String(placement.call_id),
		placement: { ...placement, ...origin },
		settings,
		placedAt,
		startsAt,
		deadline,
	};
}
