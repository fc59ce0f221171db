import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from '../../../transport/request';
import { scanCalls, traceOf } from '../placement/trace';
import { byClaimOrder, campaignCallOf, type CallResult, type CampaignCall } from './calls';
import type { CampaignRun } from './engine';
import type { SkipReason } from './people';

/**
 * A campaign read from the call list alone, by its key or by its workflow and node (Get Campaign,
 * Cancel Campaign): no state of its own. What the list cannot tell (how many people were listed,
 * the rules) each campaign call carries in `n8n_campaign_rules`, written at its placement.
 */

/** The run's list and rules as its calls carry them. */
export interface RulesTrace {
	/** People listed and called for (checked, each number once). */
	people: number;
	skipped: number;
	/** The people skipped by reason, as the run knew them at the call's placement. */
	skippedFor?: Partial<Record<SkipReason, number>>;
	invalid: number;
	/** People the run's list went on with whose calls are all of an earlier list of the node. */
	fromEarlierLists?: number;
	maxLive: number;
	redialOn: CallResult[];
	redialAfterMinutes: number;
	maxTries: number;
}

function skipCounts(run: CampaignRun): Partial<Record<SkipReason, number>> {
	const counts: Partial<Record<SkipReason, number>> = { ...run.skippedInSteps };
	for (const { skippedFor } of run.problems)
		if (skippedFor) counts[skippedFor] = (counts[skippedFor] ?? 0) + 1;
	return counts;
}

export function campaignRulesTrace(run: CampaignRun): string {
	const trace: RulesTrace = {
		people: run.people.length,
		skipped: run.problems.filter((problem) => problem.status === 'skipped').length,
		skippedFor: skipCounts(run),
		invalid: run.problems.filter((problem) => problem.status === 'invalid').length,
		fromEarlierLists: run.fromEarlierLists ?? 0,
		maxLive: run.rules.maxLive,
		redialOn: run.rules.redialOn,
		redialAfterMinutes: run.rules.redialAfterMs / 60_000,
		maxTries: run.rules.maxTries,
	};
	return JSON.stringify(trace);
}

function rulesOf(record: IDataObject): RulesTrace | undefined {
	try {
		return JSON.parse(traceOf(record).n8n_campaign_rules ?? '') as RulesTrace;
	} catch {
		return undefined;
	}
}

/** Which campaign calls are looked for: one campaign, or every campaign of a workflow's node. */
export type CampaignMatch = { campaign: string } | { workflowId: string; node: string };

/** Pages of 1,000 calls read at most, as one look of a campaign reads (campaign/engine.ts). */
const MAX_PAGES = 20;

/** One campaign as its calls tell it. */
export interface CampaignRead {
	campaign: string;
	workflowId: string;
	node: string;
	/** In claim order. */
	calls: CampaignCall[];
	/** The rules of the campaign's latest call, when one carries them. */
	rules?: RulesTrace;
}

/** The campaigns of the agent's calls since `since` that `match` names, the latest started first. */
export async function readCampaigns(
	context: ApiContext,
	agentId: string,
	match: CampaignMatch,
	since: number,
	itemIndex: number,
): Promise<CampaignRead[]> {
	const found: Array<{ call: CampaignCall; record: IDataObject }> = [];
	const complete = await scanCalls(
		context,
		{ query: { agent_id: agentId }, itemIndex, since, maxPages: MAX_PAGES },
		(record) => {
			const call = campaignCallOf(record);
			const matches =
				call &&
				('campaign' in match
					? call.campaign === match.campaign
					: call.workflowId === match.workflowId && traceOf(record).n8n_node === match.node);
			if (call && matches) found.push({ call, record });
			return false;
		},
	);
	if (!complete)
		throw new NodeOperationError(
			context.getNode(),
			`The agent has more than ${MAX_PAGES * 1000} calls in the period read, more than one look reads`,
			{ itemIndex, description: 'Lower Options → Look Back (Days).' },
		);
	found.sort((a, b) => byClaimOrder(a.call, b.call));
	const campaigns = new Map<string, CampaignRead>();
	for (const { call, record } of found) {
		const read = campaigns.get(call.campaign) ?? {
			campaign: call.campaign,
			workflowId: call.workflowId,
			node: traceOf(record).n8n_node ?? '',
			calls: [],
		};
		read.calls.push(call);
		read.rules = rulesOf(record) ?? read.rules;
		campaigns.set(call.campaign, read);
	}
	return [...campaigns.values()].reverse();
}

/**
 * People of the campaign with no call that rang, when its calls carry the list's size: those an
 * earlier list of the node called are on that list's calls.
 */
export function neverCalledOf(read: CampaignRead): number | null {
	if (!read.rules) return null;
	const rang = new Set(read.calls.filter((call) => call.stage !== 'canceled').map((c) => c.person));
	return Math.max(0, read.rules.people - rang.size - (read.rules.fromEarlierLists ?? 0));
}

const NO_SKIPS: Record<SkipReason, number> = {
	do_not_call: 0,
	listed_twice: 0,
	called_by_another_campaign: 0,
	no_calling_hours: 0,
};

/** Where each person of a campaign stands, and the campaign's counts, read from its calls. */
export function progressOf(read: CampaignRead): IDataObject {
	const { calls, rules } = read;
	const rang = calls.filter((call) => call.stage !== 'canceled');
	const byPerson = new Map<string, CampaignCall[]>();
	for (const call of rang) byPerson.set(call.person, [...(byPerson.get(call.person) ?? []), call]);
	const called: Record<CallResult, number> = {
		answered: 0,
		voicemail: 0,
		no_answer: 0,
		busy: 0,
		failed: 0,
		ended: 0,
	};
	const redialsAt: number[] = [];
	let inProgress = 0;
	for (const personCalls of byPerson.values()) {
		const last = personCalls.at(-1)!;
		if (last.stage === 'live') {
			if (!last.scheduled) inProgress++;
			continue;
		}
		const redial =
			!!rules && rules.redialOn.includes(last.result!) && personCalls.length < rules.maxTries;
		if (redial) redialsAt.push(last.endedAt! + rules.redialAfterMinutes * 60_000);
		else called[last.result!]++;
	}
	const scheduled = rang.filter((call) => call.stage === 'live' && call.scheduled);
	const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
	const earliest = (times: number[]) => (times.length ? Math.min(...times) : undefined);
	return {
		campaign: read.campaign,
		workflow_id: read.workflowId,
		node: read.node,
		people: rules?.people ?? null,
		called,
		waiting_for_redial: redialsAt.length,
		next_redial_due_at: iso(earliest(redialsAt)),
		scheduled: scheduled.length,
		next_call_at: iso(earliest(scheduled.map((call) => call.callAt))),
		ringing_or_in_progress: inProgress,
		not_yet_called: neverCalledOf(read),
		from_earlier_lists: rules ? (rules.fromEarlierLists ?? 0) : null,
		skipped: rules?.skipped ?? null,
		skipped_by_reason: rules ? { ...NO_SKIPS, ...rules.skippedFor } : null,
		invalid: rules?.invalid ?? null,
		max_live_calls: rules?.maxLive ?? null,
		live_calls: scheduled.length + inProgress,
		calls_made: rang.length,
		calls_canceled: calls.length - rang.length,
		started_at: iso(earliest(calls.map((call) => call.createdAt))),
	};
}
