import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { agentLocator } from '../../../shared/locators';
import { NON_EMPTY, numberWithin, UUID, validateItem } from '../../../shared/validation';
import { DEFAULT_REMEMBER_DAYS } from './fields';
import type { CampaignMatch } from './progress';

/**
 * Which campaign Get Campaign and Cancel Campaign act on: the agent whose calls hold it, and the
 * campaign's key (the `campaign` every Run Campaign item carries) or its workflow and node.
 */

const BY_NODE = { show: { campaignBy: ['node'] } };

export const CAMPAIGN_TARGET_FIELDS: INodeProperties[] = [
	agentLocator(),
	{
		displayName: 'Campaign By',
		name: 'campaignBy',
		type: 'options',
		options: [
			{
				name: 'Campaign Key',
				value: 'key',
				description: 'The `campaign` each Run Campaign item carries: one list of one node',
			},
			{
				name: 'Workflow and Node',
				value: 'node',
				description: "Every campaign a workflow's Run Campaign node ran, whatever its list",
			},
		],
		default: 'key',
	},
	{
		displayName: 'Campaign',
		name: 'campaign',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 9f2c4b1a7d3e8f60',
		description:
			'The campaign key, 16 hex characters: the `campaign` of any item Run Campaign answered',
		displayOptions: { show: { campaignBy: ['key'] } },
	},
	{
		displayName: 'Workflow ID',
		name: 'workflowId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 8x1lT2aBcD3eF4gH',
		description: 'The ID of the workflow that runs the campaign (in its URL)',
		displayOptions: BY_NODE,
	},
	{
		displayName: 'Node Name',
		name: 'nodeName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Run Campaign',
		description: 'The name of its Run Campaign node',
		displayOptions: BY_NODE,
	},
	{
		displayName: 'Look Back (Days)',
		name: 'lookBackDays',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30 },
		default: DEFAULT_REMEMBER_DAYS,
		description:
			"How far back the campaign's calls are read: the campaign's Remember Calls For (Days)",
	},
];

const CAMPAIGN_KEY_EXPECTED = 'must be a campaign key, 16 hex characters like 9f2c4b1a7d3e8f60';

const SETTINGS = {
	agentId: UUID,
	lookBackDays: numberWithin(1, 30, 'must be a number of days from 1 to 30'),
};
const BY_KEY = z.object({
	...SETTINGS,
	campaign: z.string().regex(/^[0-9a-f]{16}$/, CAMPAIGN_KEY_EXPECTED),
});
const BY_WORKFLOW_AND_NODE = z.object({ ...SETTINGS, workflowId: NON_EMPTY, nodeName: NON_EMPTY });

const LABELS = {
	agentId: 'Agent',
	lookBackDays: 'Look Back (Days)',
	campaign: 'Campaign',
	workflowId: 'Workflow ID',
	nodeName: 'Node Name',
};

export interface CampaignTarget {
	agentId: string;
	match: CampaignMatch;
	since: number;
}

/** The item's campaign, checked before any request. */
export function campaignTargetOf(context: IExecuteFunctions, itemIndex: number): CampaignTarget {
	const text = (name: string) => String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const settings = {
		agentId: context.getNodeParameter('agentId', itemIndex, '', { extractValue: true }),
		lookBackDays: context.getNodeParameter('lookBackDays', itemIndex, DEFAULT_REMEMBER_DAYS),
	};
	const since = (days: number) => Date.now() - days * 86_400_000;
	if (context.getNodeParameter('campaignBy', itemIndex, 'key') === 'node') {
		const input = { ...settings, workflowId: text('workflowId'), nodeName: text('nodeName') };
		const target = validateItem(context, BY_WORKFLOW_AND_NODE, input, itemIndex, LABELS);
		return {
			agentId: target.agentId,
			match: { workflowId: target.workflowId, node: target.nodeName },
			since: since(target.lookBackDays),
		};
	}
	const input = { ...settings, campaign: text('campaign') };
	const target = validateItem(context, BY_KEY, input, itemIndex, LABELS);
	return {
		agentId: target.agentId,
		match: { campaign: target.campaign },
		since: since(target.lookBackDays),
	};
}
