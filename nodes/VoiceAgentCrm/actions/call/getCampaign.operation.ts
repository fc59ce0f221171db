import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { haltAmong, haltTagsOf } from './campaign/halt';
import { progressOf, readCampaigns } from './campaign/progress';
import { CAMPAIGN_TARGET_FIELDS, campaignTargetOf } from './campaign/target';

export const getCampaign: Operation = {
	option: {
		name: 'Get Campaign',
		value: 'getCampaign',
		action: 'Get progress of call campaign',
		description:
			'Get how far a Run Campaign is: people called by result, waiting for a redial, scheduled, not yet called',
	},
	kind: 'read',
	endpoint: 'listCalls',
	example: { agentId: sampleById('agent'), campaign: '0123456789abcdef' },
	fields: CAMPAIGN_TARGET_FIELDS,
	// as an AI Agent's tool, the model gives the campaign the conversation names
	modelFills: ['campaign'],
	execute: perItem(async function (itemIndex) {
		const { agentId, match, since } = campaignTargetOf(this, itemIndex);
		const campaigns = await readCampaigns(this, agentId, match, since, itemIndex);
		const halts = campaigns.length
			? await haltAmong(
					this,
					campaigns.flatMap((read) => haltTagsOf(read.campaign, read.workflowId, read.node)),
					itemIndex,
				)
			: undefined;
		if (!campaigns.length)
			return {
				...match,
				found: false,
				reason: `No call of this campaign by the agent since ${new Date(since).toISOString()}`,
			};
		return campaigns.map(
			(read): IDataObject => ({
				found: true,
				halted:
					!!halts && haltTagsOf(read.campaign, read.workflowId, read.node).includes(halts.tag),
				...progressOf(read),
			}),
		);
	}),
};
