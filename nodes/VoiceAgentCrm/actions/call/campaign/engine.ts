import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	cancelSignalOf,
	keepForCancels,
	pauseUnlessStopped,
	wasNotSentInTime,
	type ApiContext,
} from '../../../transport/request';
import { CANCEL_MARGIN_MS, cancelScheduledCall, placeCall } from '../placement/placement';
import { fingerprintOf, scanCalls, withTrace, type PlacementTrace } from '../placement/trace';
import { campaignCallOf, type CampaignCall, type CampaignTrace } from './calls';
import type { Halt } from './halt';
import type { RowProblem, SkipReason } from './people';
import { campaignRulesTrace } from './progress';
import {
	planCampaign,
	type CallMadeAt,
	type CampaignIdentity,
	type CampaignRules,
	type Person,
	type Placement,
	type Plan,
} from './plan';
import { scheduleOf } from './window';

/**
 * One step of a campaign, the same whether the run waits by polling or by the calls' webhooks:
 * read the campaign's calls from the service, decide (campaign/plan.ts), cancel the lost claims,
 * place what is due, then settle every placement before the step ends (docs/decisions.md,
 * "Campaigns"): a placement is kept only once a look that lists it, sent after every call created
 * as early could be listed, shows no earlier claim; a lost claim is canceled; one that no look
 * confirms is canceled before its start. So no step leaves a placement it has not confirmed.
 *
 * A Stop of the execution ends a step at once, wherever it is: what it placed is then the Stop's
 * to cancel (campaign/stop.ts reads the calls again and cancels every scheduled one, and its note
 * counts them), so the step sends nothing more, not even a cancel.
 */

/**
 * A look confirms a placement only when sent at least this long after the placement was answered:
 * every call created as early as it is then listed (ties of the creation time included).
 */
const CONFIRM_GAP_MS = 1_000;

/**
 * How long a claim takes to settle, from sending the placement to the look that confirms it, as
 * the run expects it: the first steps' (a lead of 20 s), then what its steps saw (`settledIn`),
 * within these bounds. The claim's safety does not rest on it (a placement no look confirmed is
 * canceled CANCEL_MARGIN_MS before its start); it sets how long a lane waits for its next call.
 */
const FIRST_SETTLE_MS = 7_500;
const LEAST_SETTLE_MS = 1_500;
const MOST_SETTLE_MS = 30_000;

const settleOf = (run: CampaignRun) => run.settleMs ?? FIRST_SETTLE_MS;

/**
 * A placement is planned to start this long after it is planned: the cancel's margin, and twice
 * the time to settle its claim (once to send it, the step's other placements before it included).
 */
const claimLeadOf = (run: CampaignRun) => CANCEL_MARGIN_MS + 2 * settleOf(run);

/**
 * A placement is not sent later than this before its start (its turn in the budget came too
 * late): a look still confirms it before it would be canceled.
 */
const leastLeadOf = (run: CampaignRun) => CANCEL_MARGIN_MS + settleOf(run);

/** Between two looks of a settlement. */
const LOOK_AGAIN_MS = 2_000;

/** What a campaign run knows besides the calls: kept in the execution while it waits. */
export interface CampaignRun extends CampaignIdentity {
	executionId: string;
	runIndex: number;
	agentId: string;
	fromNumber: string;
	/** The user's Additional Data and Metadata, as the API takes them. */
	extras: IDataObject;
	/** Remember Calls Of: whose campaign calls count, every workflow's (the default) or this one's. */
	rememberCallsOf: 'organization' | 'workflow';
	/** The execution's resume URL when the run waits by webhook. */
	webhookUrl?: string;
	people: Person[];
	problems: RowProblem[];
	rules: CampaignRules;
	/**
	 * How far back the next look reads: at first over Remember Calls For, then up to the oldest
	 * call still live (`horizonAfter`).
	 */
	recentSince: number;
	/** Campaign calls created before `recentSince`, over when read: they change no more. */
	earlier: CampaignCall[];
	/** Why the service refused a person's placement, by number: refused once, not placed again in the run. */
	refusals?: Record<string, string>;
	/** The people whose calls an earlier list of the node made, none this list's, as of the last plan. */
	fromEarlierLists?: number;
	/** The people a step's plan skips (another campaign's, no calling hours), as of the last plan. */
	skippedInSteps?: Partial<Record<SkipReason, number>>;
	/** When the organization's do-not-call list was last read; undefined when it is not honoured. */
	marksReadAt?: number;
	/** People marked do not call since the run started: their scheduled calls are canceled. */
	suppressed?: string[];
	/** With Max Calls per Person: each person's calls of the period when the run started (campaign/screen.ts). */
	callsInPeriod?: Record<string, CallMadeAt[]>;
	/** The campaign's calls that are scheduled or live, as the last look and this run's placements know them. */
	live?: CampaignCall[];
	/** How long the run's claims take to settle, as its steps saw it (`settledIn`); unset before the first. */
	settleMs?: number;
}

/** Why a person's placement was refused by the service, by number. */
export type Refusals = Map<string, string>;

/**
 * The campaign calls of the workflow to the run's people created since `since`, newest first.
 * Read to the end of the period however many calls the agent has: one listing request per 1,000,
 * paced by the listing budget (the first look over a week of 100,000 calls: 100 requests, 5
 * minutes at 20 a minute); later looks read back only to the oldest live call (`horizonAfter`).
 */
async function readCampaignCalls(
	context: ApiContext,
	run: CampaignRun,
	since: number,
): Promise<CampaignCall[]> {
	// the people marked since the start too: their scheduled calls are still to cancel
	const numbers = new Set([...run.people.map((person) => person.key), ...(run.suppressed ?? [])]);
	const ofWorkflow = run.rememberCallsOf === 'workflow';
	// every workflow's campaigns may use any agent: then the organization's calls are read
	const query = ofWorkflow ? { agent_id: run.agentId } : {};
	const found: CampaignCall[] = [];
	await scanCalls(context, { query, itemIndex: 0, since }, (record) => {
		const call = campaignCallOf(record);
		if (!call || !numbers.has(call.person)) return false;
		if (!ofWorkflow || call.workflowId === run.workflowId) found.push(call);
		return false;
	});
	return found;
}

/** How far before a look the next one reads back at the least: calls another run was placing then. */
const RECENT_MARGIN_MS = 5 * 60_000;

/** One look at the campaign's calls: what the list said, and when the look was sent. */
interface Look {
	calls: CampaignCall[];
	sentAt: number;
}

/** The run's calls now: those over before the run's horizon, kept, and the recent ones read again. */
async function look(context: ApiContext, run: CampaignRun): Promise<Look> {
	const sentAt = Date.now();
	const recent = await readCampaignCalls(context, run, run.recentSince);
	const seen = new Set(recent.map((call) => call.id));
	return { calls: [...recent, ...run.earlier.filter((call) => !seen.has(call.id))], sentAt };
}

/** The campaign's calls now, for what acts on them outside a step (a Stop, a halt). */
export async function currentCalls(context: ApiContext, run: CampaignRun): Promise<CampaignCall[]> {
	return (await look(context, run)).calls;
}

/**
 * The horizon after a look: up to the oldest call still live (or the margin), so that a long
 * campaign's looks read what may have changed, not every call it made.
 */
function horizonAfter(run: CampaignRun, { calls, sentAt }: Look) {
	const live = calls.filter((call) => call.stage === 'live').map((call) => call.createdAt);
	const recentSince = Math.max(run.recentSince, Math.min(sentAt - RECENT_MARGIN_MS, ...live));
	return { recentSince, earlier: calls.filter((call) => call.createdAt < recentSince) };
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
		n8n_campaign_rules: campaignRulesTrace(run),
	};
	return { ...trace, ...campaign };
}

/** The placement body: the call starts at `callAt`, an instant (campaign/window.ts). */
function bodyOf(run: CampaignRun, placement: Placement): IDataObject {
	const { person, callAt } = placement;
	return {
		agent_id: run.agentId,
		from_number: run.fromNumber,
		to_number: person.key,
		full_name: person.fullName,
		...(run.extras.additional_data ? { additional_data: run.extras.additional_data } : {}),
		schedule: scheduleOf(callAt),
		...(run.webhookUrl ? { webhook_url: run.webhookUrl } : {}),
		...(run.extras.metadata ? { metadata: run.extras.metadata } : {}),
	};
}

/** A refusal is an answer that says no (4xx); a lost answer may have placed the call, which a look tells. */
function refusalOf(error: unknown): string | undefined {
	const status = Number((error as NodeApiError).httpCode);
	if (!(status >= 400 && status < 500 && status !== 429)) return undefined;
	// the service's own words (the transport's headline is the general advice for the status)
	const said = (error as NodeApiError).errorResponse?.message;
	return typeof said === 'string' && said ? said : (error as Error).message;
}

/** A placement sent in this step, until a look confirms it or it is canceled. */
interface Sent {
	placement: Placement;
	/** Undefined when the answer was lost: a look finds the call by its trace, if it was made. */
	callId?: string;
	/** When the placement went to the transport (its turn in the budget still to come). */
	sentAt: number;
	answeredAt: number;
	/**
	 * Confirmed, canceled, past canceling (its cancel refused or not answered by its start: the
	 * next look tells what it did), or unknown (its answer lost and no look listed it).
	 */
	settled?: 'confirmed' | 'canceled' | 'pastCanceling' | 'unknown';
	/** How long it took to confirm, from `sentAt`; or that no look confirmed it by its deadline. */
	settledIn?: number | 'pastDeadline';
}

/** How a placement went: sent (its call maybe made), refused, or not sent at all. */
type Sending = { sent: Sent } | { refused: string } | { unsent: true };

async function place(
	context: ApiContext,
	run: CampaignRun,
	placement: Placement,
): Promise<Sending> {
	const body = bodyOf(run, placement);
	const trace = traceOfPlacement(run, placement, body);
	const sentAt = Date.now();
	try {
		const { placement: answer } = await placeCall(
			context,
			'placePhoneCall',
			withTrace(body, trace),
			trace,
			// a Stop's note is the campaign's own: it reads what was placed and cancels it (campaign/stop.ts)
			{ sendBy: placement.callAt - leastLeadOf(run), callerNotesStop: true },
		);
		const callId = String(answer.call_id);
		return { sent: { placement, callId, sentAt, answeredAt: Date.now() } };
	} catch (error) {
		if (wasNotSentInTime(error)) return { unsent: true };
		const refusal = refusalOf(error);
		return refusal ? { refused: refusal } : { sent: { placement, sentAt, answeredAt: Date.now() } };
	}
}

/**
 * Cancel a call, racing its start: a call still scheduled after a failed cancel is still a lost
 * claim at the next look.
 */
async function cancel(context: ApiContext, callId: string) {
	return await cancelScheduledCall(context, callId, { urgent: true, callerNotesStop: true });
}

/** The call a sent placement made, as a look lists it. */
function callOf(sent: Sent, run: CampaignRun, calls: CampaignCall[]): CampaignCall | undefined {
	const { person, attempt } = sent.placement;
	return calls.find((call) =>
		sent.callId
			? call.id === sent.callId
			: call.campaign === run.campaign &&
				call.executionId === run.executionId &&
				call.person === person.key &&
				call.attempt === attempt &&
				call.stage === 'live',
	);
}

/** The latest a placement is canceled when no look confirmed it. */
const deadlineOf = (sent: Sent) => sent.placement.callAt - CANCEL_MARGIN_MS;

/**
 * Cancel each open placement whose deadline passed; one whose call is not known is left as it
 * is. A cancel not answered is sent again until the call's start.
 */
async function cancelPastDeadline(context: ApiContext, open: Sent[]) {
	for (const sent of open.filter((each) => deadlineOf(each) <= Date.now())) {
		sent.settledIn = 'pastDeadline';
		if (!sent.callId) {
			sent.settled = 'unknown';
			continue;
		}
		const canceled = await cancel(context, sent.callId);
		if ('canceled' in canceled) sent.settled = 'canceled';
		else if ('notScheduled' in canceled || Date.now() >= sent.placement.callAt)
			sent.settled = 'pastCanceling';
	}
}

/** Whether the execution was stopped (a step in a webhook handler has no Stop). */
const isStopped = (context: ApiContext) => cancelSignalOf(context)?.aborted === true;

/** What a step that a Stop ended throws: the Stop's cleanup takes over (campaign/stop.ts). */
function stoppedInStep(context: ApiContext): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		'The execution was stopped during a campaign step',
	);
}

/**
 * `work`, while canceling each open placement at its deadline: a look slowed by the budget or
 * the service never lets an unconfirmed call ring. A Stop ends the wait at once, as an error.
 */
async function withDeadlines<T>(
	context: ApiContext,
	sent: Sent[],
	work: Promise<T>,
): Promise<{ value: T } | { error: unknown }> {
	const outcome = work.then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
	const stop = cancelSignalOf(context);
	for (;;) {
		const open = sent.filter((each) => !each.settled);
		if (!open.length) return await outcome;
		if (isStopped(context)) return { error: stoppedInStep(context) };
		const wake = new AbortController();
		const onStop = () => wake.abort();
		stop?.addEventListener('abort', onStop, { once: true });
		const deadline = sleep(Math.max(0, Math.min(...open.map(deadlineOf)) - Date.now()), wake.signal)
			.then(() => undefined)
			.catch(() => undefined);
		const first = await Promise.race([outcome, deadline]);
		stop?.removeEventListener('abort', onStop);
		wake.abort();
		if (first) return first;
		if (isStopped(context)) continue;
		await cancelPastDeadline(context, open);
	}
}

/**
 * The time to settle a claim after a step: doubled when a placement passed its deadline
 * unconfirmed (a slow look, a budget spent, a listing that lags), else the slowest confirmation,
 * or half the time before when that was slower still: the lead shrinks a step at a time.
 */
function settleAfter(run: CampaignRun, sent: Sent[]): number {
	const before = settleOf(run);
	const times = sent.map((each) => each.settledIn).filter((time) => time !== undefined);
	if (times.includes('pastDeadline')) return Math.min(MOST_SETTLE_MS, 2 * before);
	const slowest = Math.max(...times.filter((time) => typeof time === 'number'));
	if (!Number.isFinite(slowest)) return before;
	return Math.min(MOST_SETTLE_MS, Math.max(LEAST_SETTLE_MS, slowest, before / 2));
}

/**
 * Settle this step's placements: look until each is confirmed or canceled. Nothing is placed
 * while settling. Answers the last look, or throws the look's error when no look succeeded
 * after the placements (each open one canceled at its deadline by then). A Stop ends it at once:
 * the open placements are left in `run.live` for the Stop's cleanup (`leftToTheStop`).
 */
async function settle(
	context: ApiContext,
	run: CampaignRun,
	sent: Sent[],
	lost: Sent[],
): Promise<Look> {
	let last: Look | undefined;
	let failure: unknown;
	const stop = cancelSignalOf(context);
	const pause = async (ms: number) =>
		await withDeadlines(context, sent, pauseUnlessStopped(Math.max(0, ms), stop));
	for (;;) {
		const open = sent.filter((each) => !each.settled);
		if (isStopped(context)) {
			leftToTheStop(run, open);
			throw stoppedInStep(context);
		}
		if (!open.length) {
			run.settleMs = settleAfter(run, sent);
			lost.push(...sent.filter((each) => each.settled === 'unknown'));
			if (last) return last;
			throw failure;
		}
		const lookAt = Math.max(...open.map((each) => each.answeredAt)) + CONFIRM_GAP_MS;
		const waited = await pause(lookAt - Date.now());
		if ('error' in waited || !sent.some((each) => !each.settled) || isStopped(context)) continue;
		const looked = await withDeadlines(context, sent, look(context, run));
		if ('error' in looked) {
			failure = looked.error;
			await pause(LOOK_AGAIN_MS);
			continue;
		}
		last = looked.value;
		Object.assign(run, horizonAfter(run, last));
		const plan = planOf(run, last.calls);
		const canceled = new Set<string>();
		for (const call of plan.cancel)
			if (!('failed' in (await cancel(context, call.id)))) canceled.add(call.id);
		const losing = new Set(plan.cancel.map((call) => call.id));
		for (const each of sent.filter((one) => !one.settled)) {
			const call = callOf(each, run, last.calls);
			if (!call) continue;
			each.callId = call.id;
			// a lost claim whose cancel was not answered stays open: sent again, at the latest by its deadline
			if (call.stage === 'canceled' || canceled.has(call.id)) each.settled = 'canceled';
			else if (!losing.has(call.id) && last.sentAt >= each.answeredAt + CONFIRM_GAP_MS) {
				each.settled = 'confirmed';
				each.settledIn = Date.now() - each.sentAt;
			}
		}
		if (sent.some((each) => !each.settled)) await pause(LOOK_AGAIN_MS);
	}
}

/**
 * The step's open placements, added to the run's live calls as scheduled: should the Stop's
 * own read of the calls fail, it cancels these too (campaign/stop.ts).
 */
function leftToTheStop(run: CampaignRun, open: Sent[]): void {
	const known = new Set(run.live?.map((call) => call.id));
	const placed = open.flatMap(({ placement, callId, answeredAt }): CampaignCall[] =>
		callId && !known.has(callId)
			? [
					{
						id: callId,
						campaign: run.campaign,
						person: placement.person.key,
						attempt: placement.attempt,
						lane: placement.lane,
						workflowId: run.workflowId,
						node: run.node,
						executionId: run.executionId,
						createdAt: answeredAt,
						callAt: placement.callAt,
						stage: 'live',
						scheduled: true,
					},
				]
			: [],
	);
	run.live = [...(run.live ?? []), ...placed];
}

function planOf(run: CampaignRun, calls: CampaignCall[]): Plan {
	return planCampaign({
		campaign: run.campaign,
		workflowId: run.workflowId,
		node: run.node,
		startedAt: run.startedAt,
		people: run.people,
		calls,
		rules: run.rules,
		now: Date.now(),
		leadMs: claimLeadOf(run),
		refused: new Set(Object.keys(run.refusals ?? {})),
		callsInPeriod: run.callsInPeriod,
		suppressed: new Set(run.suppressed),
	});
}

export interface Step {
	plan: Plan;
	calls: CampaignCall[];
	refusals: Refusals;
	/** With Continue On Fail: why the campaign stopped following its calls (the calls named). */
	failure?: string;
	/** Set when Cancel Campaign halted the campaign (campaign/halt.ts): nothing more is placed. */
	halted?: Halt;
	/**
	 * Freeing the worker: the executions that follow the campaign's live calls, when none of them
	 * is this execution's (campaign/byWebhook.ts): it hears no more and ends.
	 */
	followedBy?: string[];
}

/** When a call rings, for a message: now for a call past its start, else its start. */
function ringsAt(call: CampaignCall): string {
	return call.scheduled
		? `rings at ${new Date(call.callAt).toISOString()}`
		: 'ringing or in progress';
}

/**
 * The error of a step that failed after the campaign placed calls: what failed, then every call
 * that will ring all the same (item, call ID, when), and what running the same list again does.
 */
function failedWithLiveCalls(
	context: ApiContext,
	run: CampaignRun,
	error: unknown,
	lost: Sent[],
): NodeOperationError {
	const live = run.live ?? [];
	const itemOf = new Map(run.people.map((person) => [person.key, person.itemIndex]));
	const lines = [
		...live.map(
			(call) =>
				`Item ${itemOf.get(call.person)} (${call.person}): call ${call.id}, ${ringsAt(call)}`,
		),
		...lost.map(
			({ placement }) =>
				`Item ${placement.person.itemIndex} (${placement.person.key}): placed for ${new Date(placement.callAt).toISOString()}, its answer lost (Call → Get Many → Filters → Placed by Execution finds it)`,
		),
	];
	const cause = (error as Error).message.replace(/\.$/, '');
	return new NodeOperationError(
		context.getNode(),
		`${cause}. ${lines.length} ${lines.length === 1 ? 'call' : 'calls'} of the campaign will ring all the same; running the same list again goes on with them and calls nobody twice`,
		{
			description: [
				...lines,
				'Running the same list again (or a Retry) waits for these calls, places what is still owed and skips who was called.',
				(error as NodeOperationError).description ?? '',
			]
				.filter(Boolean)
				.join('\n'),
		},
	);
}

/**
 * What the last look of a run listed, in this process: the items of a step that fails before
 * its own look come from it (a run's saved state keeps only its live calls, `live`).
 */
const lastListed = new WeakMap<CampaignRun, CampaignCall[]>();

/** Whether the node answers items instead of failing (Continue On Fail); a webhook handler does not. */
function continuesOnFail(context: ApiContext): boolean {
	return 'continueOnFail' in context && context.continueOnFail();
}

/**
 * Asked before a step places again after settling what it placed (campaign/halt.ts reads the
 * halt): false ends the step with nothing more placed.
 */
export type MayPlaceAgain = () => Promise<boolean>;

/** The step's work: look, cancel, place and settle until a look leaves nothing to place now. */
async function lookAndAct(
	context: ApiContext,
	run: CampaignRun,
	refusals: Record<string, string>,
	lost: Sent[],
	mayPlaceAgain: MayPlaceAgain,
): Promise<{ plan: Plan; calls: CampaignCall[] }> {
	let seen = await look(context, run);
	for (let round = 0; ; round++) {
		if (isStopped(context)) throw stoppedInStep(context);
		Object.assign(run, horizonAfter(run, seen));
		lastListed.set(run, seen.calls);
		const plan = planOf(run, seen.calls);
		run.live = plan.followed.filter((call) => call.stage === 'live');
		// what the next placements carry for Get Campaign: the skips known only to a step
		run.skippedInSteps = {
			called_by_another_campaign: plan.heldElsewhere.size,
			no_calling_hours: plan.noHours.size,
		};
		run.fromEarlierLists = plan.fromEarlierLists;
		for (const call of plan.cancel) await cancel(context, call.id);
		if (!plan.place.length) return { plan, calls: seen.calls };
		// a placement canceled by another (Cancel Campaign) is placed anew only if no halt came since
		if (round > 0 && !(await mayPlaceAgain())) return { plan, calls: seen.calls };
		const sent: Sent[] = [];
		// each placement keeps a request of the budget for its cancel until it is settled
		try {
			for (const placement of plan.place) {
				await keepForCancels(context, 1);
				const sending = await place(context, run, placement);
				if ('sent' in sending) sent.push(sending.sent);
				else await keepForCancels(context, -1);
				if ('refused' in sending) refusals[placement.person.key] = sending.refused;
			}
			seen = sent.length ? await settle(context, run, sent, lost) : await look(context, run);
		} finally {
			await keepForCancels(context, -sent.length);
		}
	}
}

/**
 * Look, decide, act, until nothing is left to do now: each placement settled before the next
 * decision, so that a lane freed by a lost claim is filled by a decision that saw it lost. A
 * failure once the campaign has calls that will ring names them (`failedWithLiveCalls`); with
 * Continue On Fail the step ends the run with the people's items and that failure instead.
 */
export async function campaignStep(
	context: ApiContext,
	run: CampaignRun,
	mayPlaceAgain: MayPlaceAgain = async () => await Promise.resolve(true),
): Promise<Step> {
	const refusals = (run.refusals ??= {});
	const stepOf = (plan: Plan, calls: CampaignCall[], failure?: string): Step => ({
		plan,
		calls,
		refusals: new Map(Object.entries(refusals)),
		...(failure ? { failure } : {}),
	});
	if (!run.people.length) {
		const plan = {
			place: [],
			cancel: [],
			heldElsewhere: new Map(),
			followed: [],
			fromEarlierLists: 0,
			noHours: new Set<string>(),
			finished: true,
		};
		return stepOf(plan, []);
	}
	const lost: Sent[] = [];
	const taken = await lookAndAct(context, run, refusals, lost, mayPlaceAgain).then(
		(acted) => ({ acted }),
		(error: unknown) => ({ error }),
	);
	if ('acted' in taken) return stepOf(taken.acted.plan, taken.acted.calls);
	// after a Stop, the Stop's cleanup names and cancels the calls (campaign/stop.ts)
	if (isStopped(context) || (!run.live?.length && !lost.length)) throw taken.error;
	const failed = failedWithLiveCalls(context, run, taken.error, lost);
	if (!continuesOnFail(context)) throw failed;
	const calls = lastListed.get(run) ?? run.live ?? [];
	const plan = { ...planOf(run, calls), place: [], cancel: [], finished: true };
	return stepOf(plan, calls, failed.message);
}
