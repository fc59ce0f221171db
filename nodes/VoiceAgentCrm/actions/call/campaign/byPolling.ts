import type { IExecuteFunctions } from 'n8n-workflow';

import { cancelSignalOf } from '../../../transport/request';
import type { CampaignRun, Step } from './engine';
import { sleepUnlessHalted, stepUnlessHalted } from './halt';
import { honourNewMarks, marksDueIn } from './screen';
import { untilStopped } from './stop';

/**
 * A campaign that holds its worker: it looks at its calls every 15 s while one is ringing or in
 * progress (a look is one listing request per 1,000 calls: at most 4 a minute of the 20 the
 * listing budget allows), and sleeps until the next scheduled call starts when none is, reading
 * Cancel Campaign's halt meanwhile (halt.ts: a minute apart in the first hour asleep, then further
 * apart). A Stop ends the sleep or the step, and cancels what the campaign scheduled
 * (campaign/stop.ts).
 */
const LOOK_EVERY_MS = 15_000;

function nextLookIn(step: Step, now: number): number {
	const live = step.plan.followed.filter((call) => call.stage === 'live');
	const startsLater = live.map((call) => call.callAt).filter((at) => at > now);
	if (!live.length || startsLater.length < live.length) return LOOK_EVERY_MS;
	return Math.min(...startsLater) - now + LOOK_EVERY_MS;
}

/** Whether the run may end its polling before the campaign is finished (a wait for events after). */
export type EnoughPolling = (step: Step) => boolean;

/** The steps, a look every so often, until the campaign is finished (or a Stop rejects the sleep). */
async function stepsUntilFinished(
	context: IExecuteFunctions,
	run: CampaignRun,
	seen: (step: Step) => void,
	enough: EnoughPolling,
): Promise<Step> {
	const stop = cancelSignalOf(context);
	let step = await stepUnlessHalted(context, run);
	seen(step);
	// since when the looks have been sleeps past a call's start, not 15 s looks at a call on its way
	let asleepSince: number | undefined;
	while (!step.plan.finished && !enough(step)) {
		// a scheduled call waits no longer than the next read of the do-not-call list, which may cancel it
		const now = Date.now();
		const sleepMs = Math.max(0, Math.min(nextLookIn(step, now), marksDueIn(run, now)));
		asleepSince = sleepMs > LOOK_EVERY_MS ? (asleepSince ?? now) : undefined;
		const halted = await sleepUnlessHalted(
			context,
			run,
			{ ms: sleepMs, asleepSince: asleepSince ?? now },
			stop,
		);
		if (!halted) await honourNewMarks(context, run);
		step = halted ?? (await stepUnlessHalted(context, run, step));
		seen(step);
	}
	return step;
}

export async function runByPolling(
	context: IExecuteFunctions,
	run: CampaignRun,
	enough: EnoughPolling = () => false,
): Promise<Step> {
	return await untilStopped(context, run, (seen) => stepsUntilFinished(context, run, seen, enough));
}
