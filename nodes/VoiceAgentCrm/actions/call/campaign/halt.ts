import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type ApiContext } from '../../../transport/request';
import { cancelScheduledCall } from '../placement/placement';
import type { CampaignCall } from './calls';
import { campaignStep, currentCalls, type CampaignRun, type Step } from './engine';
import { callsOfRun } from './plan';
import { sleepFor } from './sleep';

/**
 * Halting a campaign everywhere (Call → Cancel Campaign). The service's state is the only store
 * every step of a campaign shares (another execution, a worker, a webhook handler), so the halt is
 * a tag of the organization: its name says which campaign, or which workflow's node, is halted.
 * Every step reads the tag list before it places, and again after it placed: either that read
 * sees the halt and the step cancels what it placed, or the placement came before the tag, so
 * before Cancel Campaign's own read of the calls, which cancels it (docs/decisions.md).
 */

const HALT_PREFIX = 'n8n-campaign-halted-';

/** The tag that halts one campaign: the key each of its items carries in `campaign`. */
export function haltTagOfCampaign(campaign: string): string {
	return `${HALT_PREFIX}${campaign}`;
}

/** The tag that halts every campaign of a workflow's node. */
export function haltTagOfNode(workflowId: string, node: string): string {
	const key = createHash('sha256').update(JSON.stringify({ workflowId, node })).digest('hex');
	return `${HALT_PREFIX}node-${key.slice(0, 16)}`;
}

/** A halt found in the tag list: the tag's name and its label (who halted what, when). */
export interface Halt {
	tag: string;
	label: string;
}

/** The first of the tags `names` in the organization's tag list (one read). */
export async function haltAmong(
	context: ApiContext,
	names: string[],
	itemIndex?: number,
): Promise<Halt | undefined> {
	const { payload } = await apiRequest.call(context, 'listTags', { itemIndex });
	const tag = (payload as IDataObject[]).find((each) => names.includes(String(each.name)));
	return tag ? { tag: String(tag.name), label: String(tag.label ?? '') } : undefined;
}

/** The tags that halt a campaign: its own, its workflow's node's. */
export function haltTagsOf(campaign: string, workflowId: string, node: string): string[] {
	return [haltTagOfCampaign(campaign), haltTagOfNode(workflowId, node)];
}

/** The halt of the run's campaign, if Cancel Campaign left one. */
async function haltOf(context: ApiContext, run: CampaignRun): Promise<Halt | undefined> {
	return await haltAmong(context, haltTagsOf(run.campaign, run.workflowId, run.node));
}

/** What canceling a campaign's calls came to. */
export interface Cancellation {
	canceled: CampaignCall[];
	/** Calls that had started ringing (or ended) before their cancel. */
	rang: CampaignCall[];
	failed: Array<{ call: CampaignCall; why: string }>;
}

/**
 * Cancel every scheduled call among `calls`; the others rang already. A cancel answered 409 came
 * after the call started (or after another run canceled it): it counts as rung, as the service
 * no longer holds it scheduled.
 */
export async function cancelScheduled(
	context: ApiContext,
	calls: CampaignCall[],
): Promise<Cancellation> {
	const outcome: Cancellation = { canceled: [], rang: [], failed: [] };
	for (const call of calls) {
		if (call.stage === 'canceled') continue;
		if (!call.scheduled) {
			outcome.rang.push(call);
			continue;
		}
		const canceled = await cancelScheduledCall(context, call.id, { callerNotesStop: true });
		if ('canceled' in canceled) outcome.canceled.push(call);
		else if ('notScheduled' in canceled) outcome.rang.push(call);
		else outcome.failed.push({ call, why: (canceled.failed as Error).message });
	}
	return outcome;
}

/** The step of a halted campaign: its scheduled calls canceled, nothing placed, the run over. */
async function haltedStep(context: ApiContext, run: CampaignRun, halt: Halt): Promise<Step> {
	const refusals = new Map(Object.entries(run.refusals ?? {}));
	const calls = await currentCalls(context, run);
	const { canceled } = await cancelScheduled(context, callsOfRun(run, calls).followed);
	const gone = new Set(canceled.map((call) => call.id));
	const after = calls.map((call) =>
		gone.has(call.id) ? { ...call, stage: 'canceled' as const, scheduled: false } : call,
	);
	const { heldElsewhere, followed } = callsOfRun(run, after);
	const plan = {
		place: [],
		cancel: [],
		heldElsewhere,
		followed,
		fromEarlierLists: 0,
		noHours: new Set<string>(),
		finished: true,
	};
	return { plan, calls: after, refusals, halted: halt };
}

/** Whether the step placed calls: live campaign calls the step before did not have. */
function placedIn(step: Step, run: CampaignRun, before: Step | undefined): boolean {
	const known = new Set(before?.calls.map((call) => call.id));
	return step.calls.some(
		(call) => call.campaign === run.campaign && call.stage === 'live' && !known.has(call.id),
	);
}

/**
 * How often a run that holds its worker reads the halt before a step: a halt ends it within
 * this much (or at its next placement, which always reads it).
 */
const HALT_LOOK_EVERY_MS = 60_000;

/** When each run in this process last read the halt before a step. */
const haltReadAt = new WeakMap<CampaignRun, number>();

function haltReadDue(run: CampaignRun): boolean {
	return Date.now() - (haltReadAt.get(run) ?? -Infinity) >= HALT_LOOK_EVERY_MS;
}

const HOUR_MS = 3_600_000;

/**
 * How long a run asleep lets pass between reads of the halt: a minute in its first hour asleep,
 * then a twelfth of the time it has slept, at most 6 hours. Cancel Campaign cancels the scheduled
 * calls itself; these reads only end the execution. A sleep of 27 days costs 220 tag reads (not
 * the 40,000 a minute apart would), and a campaign asleep for an hour ends within 5 minutes.
 */
function asleepReadEveryMs(asleepMs: number): number {
	if (asleepMs < HOUR_MS) return HALT_LOOK_EVERY_MS;
	return Math.min(asleepMs / 12, 6 * HOUR_MS);
}

/**
 * Sleep `ms` (ended early by `signal`), reading the halt as asleepReadEveryMs says, counting the
 * time asleep from `asleepSince` (the sleeps between the daily reads of the do-not-call list are
 * one sleep): a campaign asleep until a call hours ahead ends soon after Cancel Campaign instead
 * of at that call. The halted step when a halt came, else undefined.
 */
export async function sleepUnlessHalted(
	context: ApiContext,
	run: CampaignRun,
	{ ms, asleepSince }: { ms: number; asleepSince: number },
	signal?: AbortSignal,
): Promise<Step | undefined> {
	const until = Date.now() + ms;
	for (let left = ms; left > 0 && !signal?.aborted; left = until - Date.now()) {
		const lastRead = haltReadAt.get(run) ?? asleepSince;
		const readIn = lastRead + asleepReadEveryMs(Date.now() - asleepSince) - Date.now();
		await sleepFor(Math.min(left, Math.max(0, readIn)), signal);
		// at the end of the sleep the step reads the halt itself
		if (until <= Date.now() || signal?.aborted || !run.people.length) continue;
		haltReadAt.set(run, Date.now());
		const halt = await haltOf(context, run);
		if (halt) return await haltedStep(context, run, halt);
	}
	return undefined;
}

/**
 * One step of the campaign unless it is halted. The halt is read after every step that placed
 * calls (those are canceled if it is there: the placement may have come after the halt), and
 * before a step at most once a minute (a webhook's step, whose run is new each time, every time),
 * and before a step places anew after settling its placements (one of them lost or canceled:
 * Cancel Campaign cancels what it finds scheduled). Costs one tag list read per placing step and
 * per placing anew, and one a minute, on the organization budget.
 */
export async function stepUnlessHalted(
	context: ApiContext,
	run: CampaignRun,
	before?: Step,
): Promise<Step> {
	if (!run.people.length) return await campaignStep(context, run);
	if (haltReadDue(run)) {
		haltReadAt.set(run, Date.now());
		const halt = await haltOf(context, run);
		if (halt) return await haltedStep(context, run, halt);
	}
	// a step that places again (its placements lost or canceled) reads the halt before each round
	let halt: Halt | undefined;
	const step = await campaignStep(context, run, async () => !(halt = await haltOf(context, run)));
	if (!halt && placedIn(step, run, before)) halt = await haltOf(context, run);
	return halt ? await haltedStep(context, run, halt) : step;
}
