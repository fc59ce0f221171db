import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import type { CampaignCall } from './campaign/calls';
import {
	cancelScheduled,
	haltAmong,
	haltTagOfCampaign,
	haltTagOfNode,
	type Halt,
} from './campaign/halt';
import { neverCalledOf, readCampaigns, type CampaignMatch } from './campaign/progress';
import { CAMPAIGN_TARGET_FIELDS, campaignTargetOf } from './campaign/target';

/** The halt tag's colour in the CRM's tag list: a neutral grey. */
const HALT_COLOR = '#9e9e9e';

function haltTagOf(match: CampaignMatch): string {
	return 'campaign' in match
		? haltTagOfCampaign(match.campaign)
		: haltTagOfNode(match.workflowId, match.node);
}

/** The halt, left once: a tag already there (an earlier Cancel Campaign) is kept. */
async function halt(
	context: IExecuteFunctions,
	match: CampaignMatch,
	itemIndex: number,
): Promise<Halt & { created: boolean }> {
	const name = haltTagOf(match);
	const found = await haltAmong(context, [name], itemIndex);
	if (found) return { ...found, created: false };
	const what =
		'campaign' in match
			? `campaign ${match.campaign}`
			: `${match.node} of workflow ${match.workflowId}`;
	const label = `n8n Run Campaign halted (${what}) at ${new Date().toISOString()}`;
	await apiRequest.call(context, 'createTag', {
		body: { name, color: HALT_COLOR, label },
		itemIndex,
	});
	return { tag: name, label, created: true };
}

const callOf = (call: CampaignCall): IDataObject => ({
	call_id: call.id,
	to_number: call.person,
	call_at: new Date(call.callAt).toISOString(),
});

export const cancelCampaign: Operation = {
	option: {
		name: 'Cancel Campaign',
		value: 'cancelCampaign',
		action: 'Cancel call campaign',
		description:
			'Halt a Run Campaign everywhere: cancel its scheduled calls, and no run of it places another call',
	},
	kind: 'write',
	// its first write, always sent: the halt tag; then the scheduled calls' cancels
	endpoint: 'createTag',
	example: { agentId: sampleById('agent'), campaign: '0123456789abcdef' },
	fields: CAMPAIGN_TARGET_FIELDS,
	// as an AI Agent's tool, the model gives the campaign the conversation names
	modelFills: ['campaign'],
	execute: perItem(async function (itemIndex) {
		const { agentId, match, since } = campaignTargetOf(this, itemIndex);
		// the halt first: a step that places after it sees it and cancels; one before, this read sees
		const { tag, created } = await halt(this, match, itemIndex);
		const campaigns = await readCampaigns(this, agentId, match, since, itemIndex);
		const outcome = await cancelScheduled(
			this,
			campaigns.flatMap((read) => read.calls),
		);
		const gone = new Set(outcome.canceled.map((call) => call.id));
		const neverCalled = campaigns.map((read) =>
			neverCalledOf({ ...read, calls: read.calls.filter((call) => !gone.has(call.id)) }),
		);
		return {
			...match,
			halted_by_tag: tag,
			tag_created: created,
			campaigns: campaigns.map((read) => read.campaign),
			calls_canceled: outcome.canceled.length,
			calls_rang: outcome.rang.length,
			calls_not_canceled: outcome.failed.length,
			people_never_called: neverCalled.includes(null)
				? null
				: neverCalled.reduce((sum, count) => sum! + count!, 0),
			canceled: outcome.canceled.map(callOf),
			not_canceled: outcome.failed.map(({ call, why }) => ({ ...callOf(call), reason: why })),
		};
	}),
};
