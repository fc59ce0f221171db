import type { IDataObject } from 'n8n-workflow';

import { recordIsFinished } from '../../../shared/callVocabulary';
import { traceOf } from '../placement/trace';

/**
 * A campaign's calls as the service lists them: the call list is the campaign's memory
 * (docs/decisions.md, "Campaigns"). Each campaign call carries, besides the placement trace, who it
 * is for and where it stands in the campaign, in its metadata.
 */
export interface CampaignTrace {
	/** The campaign: the workflow, the node and the people listed (campaign/people.ts). */
	n8n_campaign: string;
	/** The person: the number called, E.164. */
	n8n_person: string;
	/** 1 for the first call to the person, 2 for the first redial… */
	n8n_attempt: string;
	/** The slot of Max Live Calls the call takes (0 … M-1). */
	n8n_lane: string;
	/** When the call was set to start (ISO), inside the calling window. */
	n8n_call_at: string;
	/** The run's list size and rules, for Get Campaign's counts (campaign/progress.ts). */
	n8n_campaign_rules: string;
}

/** A call's result as the campaign reads it: the API's `call_result`, or `ended` for none. */
export type CallResult = 'answered' | 'voicemail' | 'no_answer' | 'busy' | 'failed' | 'ended';

const RESULT_OF_STATUS: Record<string, CallResult> = {
	completed: 'ended',
	voice_mail: 'voicemail',
	'no-answer': 'no_answer',
	busy: 'busy',
	failed: 'failed',
};

export interface CampaignCall {
	id: string;
	campaign: string;
	person: string;
	attempt: number;
	lane: number;
	workflowId: string;
	/** The node that placed it: one node's runs share their people (campaign/plan.ts `callsOfRun`). */
	node: string;
	executionId: string;
	createdAt: number;
	callAt: number;
	/** Live takes a slot: scheduled, queued, ringing or talking. A canceled call never rang. */
	stage: 'live' | 'over' | 'canceled';
	/** Not yet due: a call the campaign can still cancel before it rings. */
	scheduled: boolean;
	result?: CallResult;
	endedAt?: number;
}

/** The campaign call a listed record is, or undefined for any other call. */
export function campaignCallOf(record: IDataObject): CampaignCall | undefined {
	const trace = traceOf(record);
	if (!trace.n8n_campaign || !trace.n8n_person) return undefined;
	const status = String(record.call_status ?? '');
	const stage = status === 'incomplete' ? 'canceled' : recordIsFinished(record) ? 'over' : 'live';
	const createdAt = Date.parse(String(record.created_at));
	return {
		id: String(record.id),
		campaign: trace.n8n_campaign,
		person: trace.n8n_person,
		attempt: Number(trace.n8n_attempt) || 1,
		lane: Number(trace.n8n_lane) || 0,
		workflowId: trace.n8n_workflow_id ?? '',
		node: trace.n8n_node ?? '',
		executionId: trace.n8n_execution_id ?? '',
		createdAt,
		callAt: Date.parse(trace.n8n_call_at ?? '') || createdAt,
		stage,
		scheduled: status === 'scheduled',
		...(stage === 'over'
			? {
					result: (record.call_result as CallResult | null) ?? RESULT_OF_STATUS[status] ?? 'ended',
					endedAt: Date.parse(String(record.finished_at)) || createdAt,
				}
			: {}),
	};
}

/** Calls in the order that decides every claim: earliest created first, then the smaller ID. */
export function byClaimOrder(a: CampaignCall, b: CampaignCall): number {
	return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
