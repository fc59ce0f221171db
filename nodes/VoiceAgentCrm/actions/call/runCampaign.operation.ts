import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { defaultCountryField } from '../../shared/fields';
import { agentLocator, fromNumberLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { ItemResults, sampleById } from '../../shared/operation';
import { refuseUnreachableWebhookUrl } from '../../shared/webhookReach';
import { fullNameField, toNumberField } from './fields';
import { runByPolling } from './campaign/byPolling';
import { mayWaitForEvents, waitForCampaign } from './campaign/byWebhook';
import { CAMPAIGN_FIELDS, DEFAULT_REMEMBER_DAYS } from './campaign/fields';
import { campaignItems } from './campaign/outcome';
import { campaignGuardsOf, screenCampaign } from './campaign/screen';
import { startRun } from './campaign/start';
import { resumeUrlOf } from './placement/waitByWebhook';

/**
 * Not an AI Agent's tool: a campaign calls many people for days, while a tool call should be one
 * bounded action that answers at once; each tool call would be a campaign of its own
 * (docs/forms.md, "As an AI Agent's tool").
 */
function refuseAsTool(context: IExecuteFunctions): void {
	if (!context.getNode().type.endsWith('Tool')) return;
	throw new NodeOperationError(
		context.getNode(),
		'Run Campaign is not offered to an AI Agent: a tool call must not start a campaign that calls people for days',
		{
			description:
				'Give the agent Call → Place AI Call to call one person, and Call → Get Campaign or Call → Cancel Campaign to watch or halt a campaign; run campaigns from a workflow (e.g. one the agent starts with Execute Workflow).',
		},
	);
}

export const runCampaign: Operation = {
	option: {
		name: 'Run Campaign',
		value: 'runCampaign',
		action: 'Run call campaign',
		description:
			'Call a list of people in their calling hours, a few at a time, redialling who did not answer, never anyone twice',
	},
	toolDescription:
		'Not available to an AI Agent: refuses every call. To call one person use Place AI Call; to watch or halt a campaign use Get Campaign or Cancel Campaign.',
	kind: 'write',
	endpoint: 'placePhoneCall',
	example: {
		agentId: sampleById('agent'),
		fromNumber: sampleById('phoneNumber'),
		toNumber: '+442079460199',
		fullName: 'Jane Doe',
		callDays: [1, 2, 3, 4, 5, 6, 7],
		callFrom: '00:00',
		callUntil: '24:00',
		redialOn: [],
	},
	fields: [
		agentLocator(),
		fromNumberLocator(),
		toNumberField,
		defaultCountryField,
		fullNameField,
		...CAMPAIGN_FIELDS,
	],
	async execute(items) {
		refuseAsTool(this);
		const options = this.getNodeParameter('campaignOptions', 0, {}) as {
			resumeByWebhook?: boolean;
			rememberDays?: number;
		};
		const webhookUrl = options.resumeByWebhook ? resumeUrlOf(this, 0) : undefined;
		let run;
		try {
			run = startRun(this, items.length, webhookUrl);
			await screenCampaign(this, run, campaignGuardsOf(this));
		} catch (error) {
			// the run's settings and checks are every item's: with Continue On Fail each item answers their error
			const results = new ItemResults(this, items.length);
			for (const itemIndex of items.keys()) results.fail(itemIndex, error);
			return results.items();
		}
		if (!webhookUrl) return campaignItems(run, await runByPolling(this, run));
		if (run.people.length) await refuseUnreachableWebhookUrl(this, webhookUrl, 0);
		const step = await runByPolling(this, run, (step) => mayWaitForEvents(run, step));
		if (step.plan.finished) return campaignItems(run, step);
		return await waitForCampaign(this, run, step, options.rememberDays ?? DEFAULT_REMEMBER_DAYS);
	},
};
