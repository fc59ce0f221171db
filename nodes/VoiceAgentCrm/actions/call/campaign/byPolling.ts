import type { IExecuteFunctions } from 'n8n-workflow';

import { cancelSignalOf } from '../../../transport/request';
import { campaignStep, type CampaignRun, type Step } from './engine';
import { sleepFor } from './sleep';

/**
 * A campaign that holds its worker: it looks at its calls every 15 s while one is ringing or in
 * progress (a look is one listing request per 1,000 calls: at most 4 a minute of the 20 the
 * listing budget allows), and sleeps until the next scheduled call starts when none is.
 */
const LOOK_EVERY_MS = 15_000;

function nextLookIn(run: CampaignRun, step: Step, now: number): number {
	const live = step.calls.filter((call) => call.campaign === run.campaign && call.stage === 'live');
	const startsLater = live.map((call) => call.callAt).filter((at) => at > now);
	if (!live.length || startsLater.length < live.length) return LOOK_EVERY_MS;
	return Math.min(...startsLater) - now + LOOK_EVERY_MS;
}

export async function runByPolling(context: IExecuteFunctions, run: CampaignRun): Promise<Step> {
	const stop = cancelSignalOf(context);
	let step = await campaignStep(context, run);
	while (!step.plan.finished) {
		await sleepFor(nextLookIn(run, step, Date.now()), stop);
		if (stop?.aborted) break;
		step = await campaignStep(context, run, step.refusals);
	}
	return step;
}
