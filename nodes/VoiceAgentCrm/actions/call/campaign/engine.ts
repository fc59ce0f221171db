import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, type ApiContext } from '../../../transport/request';
import { fingerprintOf, scanCalls, type PlacementTrace } from '../placement/trace';
import { campaignCallOf, type CampaignCall, type CampaignTrace } from './calls';
import type { RowProblem } from './people';
import { planCampaign, type CampaignRules, type Person, type Placement, type Plan } from './plan';
import { scheduleOf } from './window';

/**
 * One step of a campaign, the same whether the run waits by polling or by the calls' webhooks:
 * read the campaign's calls from the service, decide (campaign/plan.ts), cancel the lost claims and
 * place what is due, then read again, so that a claim lost to a concurrent run is canceled before
 * its call rings (docs/decisions.md, "Campaigns").
 */

/** Every placement starts at least this long after it is sent: the time to see a lost claim and cancel it. */
const CLAIM_LEAD_MS = 20_000;

/** Pages of 1,000 calls read at most in one look at the agent's calls. */
const MAX_SCAN_PAGES = 20;

/** What a campaign run knows besides the calls: kept in the execution while it waits. */
export interface CampaignRun {
	campaign: string;
	workflowId: string;
	node: string;
	executionId: string;
	runIndex: number;
	agentId: string;
	fromNumber: string;
	/** The user's Additional Data and Metadata, as the API takes them. */
	extras: IDataObject;
	/** The execution's resume URL when the run waits by webhook. */
	webhookUrl?: string;
	people: Person[];
	problems: RowProblem[];
	rules: CampaignRules;
	/**
	 * How far back the next look reads: at first over Remember Calls For, then up to the oldest
	 * call still live (`currentCalls`).
	 */
	recentSince: number;
	/** Campaign calls created before `recentSince`, over when read: they change no more. */
	earlier: CampaignCall[];
}

/** Why a person's placement was refused by the service, by number. */
export type Refusals = Map<string, string>;

function tooManyCalls(context: ApiContext, since: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The agent has more than ${MAX_SCAN_PAGES * 1000} calls since ${new Date(since).toISOString()}, more than the campaign reads in one look, so it placed no further call`,
		{
			description:
				'Lower Options → Remember Calls For (Days), or run the campaign with an agent of its own. Calls it placed before are listed by Call → Get Many → Filters → Placed by Workflow; running the same list again goes on with them.',
		},
	);
}

/** The campaign calls of the workflow to the run's people created since `since`, newest first. */
async function readCampaignCalls(
	context: ApiContext,
	run: CampaignRun,
	since: number,
): Promise<CampaignCall[]> {
	const numbers = new Set(run.people.map((person) => person.key));
	const found: CampaignCall[] = [];
	const complete = await scanCalls(
		context,
		{ query: { agent_id: run.agentId }, itemIndex: 0, since, maxPages: MAX_SCAN_PAGES },
		(record) => {
			const call = campaignCallOf(record);
			if (call && call.workflowId === run.workflowId && numbers.has(call.person)) found.push(call);
			return false;
		},
	);
	if (!complete) throw tooManyCalls(context, since);
	return found;
}

/** How far before a look the next one reads back at the least: calls another run was placing then. */
const RECENT_MARGIN_MS = 5 * 60_000;

/**
 * The run's calls now: those over before the last look's horizon, kept, and the recent ones read
 * again. The horizon then moves up to the oldest call still live (or the margin), so that a long
 * campaign's looks read what may have changed, not every call it made.
 */
async function currentCalls(context: ApiContext, run: CampaignRun): Promise<CampaignCall[]> {
	const recent = await readCampaignCalls(context, run, run.recentSince);
	const seen = new Set(recent.map((call) => call.id));
	const calls = [...recent, ...run.earlier.filter((call) => !seen.has(call.id))];
	const live = calls.filter((call) => call.stage === 'live').map((call) => call.createdAt);
	run.recentSince = Math.max(run.recentSince, Math.min(Date.now() - RECENT_MARGIN_MS, ...live));
	run.earlier = calls.filter((call) => call.createdAt < run.recentSince);
	return calls;
}

function traceOfPlacement(run: CampaignRun, placement: Placement, body: IDataObject) {
	const itemIndex = placement.person.itemIndex;
	const trace: PlacementTrace = {
		n8n_execution_id: run.executionId,
		n8n_workflow_id: run.workflowId,
		n8n_node: run.node,
		n8n_run: String(run.runIndex),
		n8n_item: String(itemIndex),
		n8n_fingerprint: fingerprintOf(run.workflowId, run.node, itemIndex, body),
	};
	const campaign: CampaignTrace = {
		n8n_campaign: run.campaign,
		n8n_person: placement.person.key,
		n8n_attempt: String(placement.attempt),
		n8n_lane: String(placement.lane),
		n8n_call_at: new Date(placement.callAt).toISOString(),
	};
	return { ...trace, ...campaign };
}

/** The placement body: the call starts at `callAt`, an instant (campaign/window.ts). */
function bodyOf(run: CampaignRun, placement: Placement): IDataObject {
	const { person, callAt } = placement;
	const body: IDataObject = {
		agent_id: run.agentId,
		from_number: run.fromNumber,
		to_number: person.key,
		full_name: person.fullName,
		...(run.extras.additional_data ? { additional_data: run.extras.additional_data } : {}),
		schedule: scheduleOf(callAt),
		...(run.webhookUrl ? { webhook_url: run.webhookUrl } : {}),
	};
	const metadata = {
		...((run.extras.metadata as IDataObject) ?? {}),
		...traceOfPlacement(run, placement, body),
	};
	return { ...body, metadata };
}

/** A refusal is an answer that says no (4xx); a lost answer may have placed the call, which the next look tells. */
function refusalOf(error: unknown): string | undefined {
	const status = Number((error as NodeApiError).httpCode);
	if (!(status >= 400 && status < 500 && status !== 429)) return undefined;
	// the service's own words (the transport's headline is the general advice for the status)
	const said = (error as NodeApiError).errorResponse?.message;
	return typeof said === 'string' && said ? said : (error as Error).message;
}

async function place(
	context: ApiContext,
	run: CampaignRun,
	placement: Placement,
	refusals: Refusals,
) {
	try {
		const { payload } = await apiRequest.call(context, 'placePhoneCall', {
			body: bodyOf(run, placement),
			itemIndex: placement.person.itemIndex,
		});
		context.logger.info(
			`Voice Agent CRM: placed call ${String((payload as IDataObject).call_id)}`,
			{
				callId: (payload as IDataObject).call_id,
				executionId: run.executionId,
				workflowId: run.workflowId,
				node: run.node,
				item: placement.person.itemIndex,
				campaign: run.campaign,
			},
		);
	} catch (error) {
		// a start that passed while the request waited for its turn is refused for the time, not the person: the next step sets a new one
		const refusal = Date.now() < placement.callAt ? refusalOf(error) : undefined;
		if (refusal) refusals.set(placement.person.key, refusal);
	}
}

/**
 * Cancel a lost claim's call. A failed cancel is left to the next look: a call still scheduled
 * is still a lost claim then; one answered 409 rang already or was canceled by another run.
 */
async function cancel(context: ApiContext, call: CampaignCall) {
	await apiRequest
		.call(context, 'cancelCall', { params: { callId: call.id } })
		.catch(() => undefined);
}

export interface Step {
	plan: Plan;
	calls: CampaignCall[];
	refusals: Refusals;
}

/** Rounds of look, act, look again in one step: each round settles the claims the last one made. */
const MAX_ROUNDS = 3;

/** Look, decide, act, until nothing is left to do now. */
export async function campaignStep(
	context: ApiContext,
	run: CampaignRun,
	refusals: Refusals = new Map(),
): Promise<Step> {
	if (!run.people.length) {
		const plan = { place: [], cancel: [], heldElsewhere: new Map(), finished: true };
		return { plan, calls: [], refusals };
	}
	for (let round = 1; ; round++) {
		const calls = await currentCalls(context, run);
		const plan = planCampaign({
			campaign: run.campaign,
			people: run.people,
			calls,
			rules: run.rules,
			now: Date.now(),
			leadMs: CLAIM_LEAD_MS,
			refused: new Set(refusals.keys()),
		});
		if (round === MAX_ROUNDS || (!plan.cancel.length && !plan.place.length))
			return { plan, calls, refusals };
		for (const call of plan.cancel) await cancel(context, call);
		for (const placement of plan.place) await place(context, run, placement, refusals);
	}
}
