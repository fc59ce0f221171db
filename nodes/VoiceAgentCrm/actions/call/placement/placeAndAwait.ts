import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dateTimeIn } from '../fields';
import type { Operation } from '../../../shared/operation';
import { ItemResults, perItem } from '../../../shared/operation';
import { waitSettingsOf, type WaitSettings } from './waitFields';
import { apiRequest } from '../../../transport/request';
import { placeCall, type PlacementEndpoint } from './placement';
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

/**
 * The execute of a Place operation: place each item's call and answer its call ID, or, with
 * "Wait for Outcome", place every call first and then wait for them together.
 */
export function placementExecute(
	endpoint: PlacementEndpoint,
	build: BuildPlacement,
): Operation['execute'] {
	const placeOnly = perItem(async function (itemIndex) {
		return await placeCall(this, endpoint, build.call(this, itemIndex).body, itemIndex);
	});
	return async function (this: IExecuteFunctions, items: INodeExecutionData[]) {
		if (this.getNodeParameter('waitFor', 0, 'none') === 'none')
			return await placeOnly.call(this, items);
		return await placeAndAwait(this, items.length, endpoint, build);
	};
}

interface CheckedItem {
	itemIndex: number;
	settings: WaitSettings;
	placement: PlacementRequest;
}

async function placeAndAwait(
	context: IExecuteFunctions,
	count: number,
	endpoint: PlacementEndpoint,
	build: BuildPlacement,
): Promise<INodeExecutionData[]> {
	const results = new ItemResults(context, count);
	const checked = checkItems(context, count, build, results);
	const maxDurations = await agentMaxDurations(context, checked, results);
	const awaited: AwaitedCall[] = [];
	for (const item of checked) {
		if (results.has(item.itemIndex)) continue;
		const placedAt = Date.now();
		try {
			if (item.settings.resumeByWebhook)
				await refuseUnreachableWebhookUrl(
					context,
					`${item.placement.body.webhook_url}`,
					item.itemIndex,
				);
			const placement = await placeCall(context, endpoint, item.placement.body, item.itemIndex);
			awaited.push(awaitedCall(item, placement, placedAt, maxDurations));
		} catch (error) {
			results.fail(item.itemIndex, error);
		}
	}
	if (awaited.length && awaited[0].settings.resumeByWebhook) {
		return await putExecutionToWaitForCalls(context, awaited, results.byItem());
	}
	const outcomes = await awaitCalls(context, awaited);
	for (const call of awaited) {
		const outcome = outcomes.get(call.itemIndex)!;
		if ('record' in outcome) results.succeed(call.itemIndex, outcome.record);
		else results.fail(call.itemIndex, outcome.error, outcome.details);
	}
	return results.items();
}

/** Every item checked before any request, so that bad input never leaves some calls placed. */
function checkItems(
	context: IExecuteFunctions,
	count: number,
	build: BuildPlacement,
	results: ItemResults,
): CheckedItem[] {
	const checked: CheckedItem[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const settings = waitSettingsOf(context, itemIndex)!;
			const placement = build.call(context, itemIndex);
			if (settings.resumeByWebhook)
				placement.body.webhook_url = resumeUrlFor(context, placement.body, itemIndex);
			checked.push({ itemIndex, settings, placement });
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
			item.settings.maxWaitMs !== undefined ||
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
					other.settings.maxWaitMs === undefined,
			)) {
				results.fail(same.itemIndex, error);
			}
		}
	}
	return durations;
}

function awaitedCall(
	item: CheckedItem,
	placement: IDataObject,
	placedAt: number,
	maxDurations: Map<string, number>,
): AwaitedCall {
	const startsAt = Math.max(placedAt, item.placement.startsAt ?? placedAt);
	const { maxWaitMs } = item.settings;
	const deadline =
		maxWaitMs !== undefined
			? placedAt + maxWaitMs
			: startsAt + maxDurations.get(String(item.placement.body.agent_id))! + WAIT_MARGIN_MS;
	return {
		itemIndex: item.itemIndex,
		callId: String(placement.call_id),
		placement,
		settings: item.settings,
		placedAt,
		startsAt,
		deadline,
	};
}
