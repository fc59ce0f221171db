import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { emissionKey } from './claims';
import { needsOwnRead, readCall } from '../VoiceAgentCrm/shared/callTrigger/record';
import { apiList } from '../VoiceAgentCrm/transport/paging';
import {
	callIsWanted,
	eventItem,
	eventTime,
	horizonOf,
	recordShows,
	type Judge,
} from './callEvents';

/**
 * The recovery of lost deliveries. The service does not repeat a delivery: a call whose emitting
 * delivery was lost, or whose read failed, would never be emitted. So a delivery (of any call)
 * that comes at least SWEEP_EVERY_MS after the last sweep reads the newest calls (one list
 * request, SWEEP_CALLS calls) and emits each chosen event that is past its delivery's horizon by
 * RECOVERY_MARGIN_MS, happened while the workflow was active, and was never claimed.
 *
 * Past the horizon no delivery emits the event, and the margin leaves time for its claim to be
 * saved, so a sweep and a delivery do not both emit it. A claim can still be missing from the
 * static data because another process's save overwrote it (claims.ts): so a sweep only suspects
 * an event it finds unclaimed, and emits it if it is still unclaimed at a sweep at least a minute
 * later; meanwhile a process that knew the claim has written it back at its next delivery. What
 * is left: a claim overwritten just before every process that knew it stopped (queue mode, a
 * webhook process restarted within seconds of an emission): that event is emitted again, marked
 * `recovered`, with the same `emission_key`. The Recover Lost Deliveries option turns the sweep off.
 * The last sweep's time is in the static data, so one process of several sweeps in a minute.
 */
export const SWEEP_EVERY_MS = 60_000;
export const RECOVERY_MARGIN_MS = 60_000;
export const SWEEP_CALLS = 250;

/** Activation marks when the workflow started listening; calls before it are not recovered. */
export function markActive(staticData: IDataObject, now: number): void {
	if (typeof staticData.activeSince !== 'number') staticData.activeSince = now;
}

export function markInactive(staticData: IDataObject): void {
	delete staticData.activeSince;
	delete staticData.sweptAt;
	delete staticData.suspects;
}

function lastSweep(staticData: IDataObject): number {
	return typeof staticData.sweptAt === 'number' ? staticData.sweptAt : 0;
}

/** The events the sweep finds not emitted, emitted now (each item marked `recovered`). */
export async function recoveredItems(
	context: IWebhookFunctions,
	judge: Judge,
): Promise<INodeExecutionData[]> {
	// off: nothing is emitted but by its own delivery (the user chose never twice over never lost)
	if (!context.getNodeParameter('recoverLostDeliveries', true)) return [];
	const staticData = context.getWorkflowStaticData('node');
	const last = lastSweep(staticData);
	if (typeof staticData.activeSince !== 'number' || judge.now - last < SWEEP_EVERY_MS) return [];
	// taken before the request: a delivery to another process meanwhile does not sweep too
	staticData.sweptAt = judge.now;
	const activeSince = staticData.activeSince;
	const query: IDataObject = {};
	if (judge.agents.length === 1) query.agent_id = judge.agents[0];
	else if (!judge.agents.length && judge.settings.agentId) query.agent_id = judge.settings.agentId;
	let records: IDataObject[];
	try {
		records = await apiList.call(context, 'listCalls', {
			query,
			returnAll: false,
			limit: SWEEP_CALLS,
		});
	} catch {
		// the service is unreachable or refused the list: the next delivery sweeps again
		staticData.sweptAt = last;
		return [];
	}
	const suspects = (staticData.suspects ??= {}) as Record<string, number>;
	const seen = new Set<string>();
	const items: INodeExecutionData[] = [];
	// the list is newest first: emitted in the order the calls were made
	for (const listed of records.reverse()) {
		const callId = String(listed.id);
		const due = judge.events.filter((event) => {
			const at = eventTime(listed, event);
			return (
				at >= activeSince &&
				judge.now - at >= horizonOf(event, judge.settings) + RECOVERY_MARGIN_MS &&
				!judge.claims.has(callId, event) &&
				callIsWanted(listed, event, judge) &&
				recordShows(listed, event, judge)
			);
		});
		const confirmed = due.filter((event) => {
			const key = emissionKey(callId, event);
			seen.add(key);
			suspects[key] ??= judge.now;
			return judge.now - suspects[key] >= SWEEP_EVERY_MS;
		});
		if (!confirmed.length) continue;
		// a read that fails leaves the call unclaimed, for the next sweep
		const call = needsOwnRead(judge.settings.transcript)
			? await readCall(context, callId, judge.settings).catch(() => undefined)
			: listed;
		if (!call) continue;
		for (const event of confirmed) {
			// claimed by a delivery meanwhile (the read awaited); the rest are claimed once all are built
			if (judge.claims.has(callId, event)) continue;
			const item = await eventItem(context, call, event, judge);
			items.push({ ...item, json: { ...item.json, recovered: true } });
		}
	}
	// a suspect found claimed since, or gone from the list, is no longer one
	for (const key of Object.keys(suspects)) if (!seen.has(key)) delete suspects[key];
	// the sweep took its time: its save must not drop the claims made meanwhile
	judge.claims.writeBack();
	return items;
}
