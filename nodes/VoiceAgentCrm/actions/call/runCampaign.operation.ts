import { defaultCountryField } from '../../shared/fields';
import { agentLocator, fromNumberLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { ItemResults, sampleById } from '../../shared/operation';
import { refuseUnreachableWebhookUrl } from '../../shared/webhookReach';
import { fullNameField, toNumberField } from './fields';
import { runByPolling } from './campaign/byPolling';
import { waitForCampaign } from './campaign/byWebhook';
import { campaignStep } from './campaign/engine';
import { CAMPAIGN_FIELDS, DEFAULT_REMEMBER_DAYS } from './campaign/fields';
import { campaignItems } from './campaign/outcome';
import { startRun } from './campaign/start';
import { resumeUrlOf } from './placement/waitByWebhook';

export const runCampaign: Operation = {
	option: {
		name: 'Run Campaign',
		value: 'runCampaign',
		action: 'Run call campaign',
		description:
			'Call a list of people in their calling hours, a few at a time, redialling who did not answer, never anyone twice',
	},
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
		const options = this.getNodeParameter('campaignOptions', 0, {}) as {
			resumeByWebhook?: boolean;
			rememberDays?: number;
		};
		const webhookUrl = options.resumeByWebhook ? resumeUrlOf(this, 0) : undefined;
		let run;
		try {
			run = startRun(this, items.length, webhookUrl);
		} catch (error) {
			// the run's settings are every item's: with Continue On Fail each item answers their error
			const results = new ItemResults(this, items.length);
			for (const itemIndex of items.keys()) results.fail(itemIndex, error);
			return results.items();
		}
		if (!webhookUrl) return campaignItems(run, await runByPolling(this, run));
		if (run.people.length) await refuseUnreachableWebhookUrl(this, webhookUrl, 0);
		const step = await campaignStep(this, run);
		if (step.plan.finished) return campaignItems(run, step);
		return await waitForCampaign(this, run, step, options.rememberDays ?? DEFAULT_REMEMBER_DAYS);
	},
};
