import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, despiteTheStop, noteStop } from '../../../transport/request';
import type { CampaignCall } from './calls';
import { currentCalls, type CampaignRun, type Step } from './engine';
import { cancelScheduled, type Cancellation } from './halt';
import { callsOfRun } from './plan';

/**
 * A Stop of the execution (the editor's Stop, the REST API's, an execution timeout) while the
 * campaign runs in it: before the node ends, every scheduled call of the campaign that has not
 * started ringing is canceled, whichever execution placed it, since the stopped execution is the
 * operator's handle on the campaign (a run of the same list still going on places them again).
 *
 * n8n saves a stopped execution as it was at the Stop and drops the node's later error, so the
 * note in the execution's custom data is written at the Stop, from the campaign's last look: what
 * is being canceled and what rang already. The cancels' own answers follow in the node's error
 * and n8n's log (and in the custom data again, where n8n saves it later).
 */

/** People listed by number in a note, at most; the note keeps within n8n's 512 characters. */
const NAMED_IN_NOTE = 4;

function numbersOf(calls: CampaignCall[]): string {
	const byStart = (a: CampaignCall, b: CampaignCall) =>
		a.callAt - b.callAt || a.person.localeCompare(b.person);
	const numbers = [...calls].sort(byStart).map((call) => call.person);
	const more = numbers.length - NAMED_IN_NOTE;
	return numbers.slice(0, NAMED_IN_NOTE).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function calls(count: number): string {
	return `${count} ${count === 1 ? 'call' : 'calls'}`;
}

const scheduledOf = (step: Step | undefined) =>
	(step?.plan.followed ?? []).filter((call) => call.stage === 'live' && call.scheduled);

const rungOf = (step: Step | undefined) =>
	(step?.plan.followed ?? []).filter((call) => call.stage !== 'canceled' && !call.scheduled);

const WHAT_NEXT =
	'Call → Get Campaign shows what is left; running the same list again goes on with the campaign.';

/** The note written at the Stop, from the last look (the cancels have not been sent yet). */
function noteAtTheStop(run: CampaignRun, last: Step | undefined): string {
	const scheduled = scheduledOf(last);
	const rang = rungOf(last);
	const canceling = !last
		? 'canceling every call it scheduled that had not rung (it was taking its first step)'
		: scheduled.length
			? `canceling the calls it scheduled that had not rung, ${scheduled.length} at its last look (${numbersOf(scheduled)})`
			: 'no call of it was scheduled at its last look';
	return `Run Campaign ${run.campaign} was stopped: ${canceling}; ${calls(rang.length)} had rung already${rang.length ? ` (${numbersOf(rang)})` : ''}. ${WHAT_NEXT}`;
}

/** What the cancels came to, for the error and the note. */
function reportAfter(run: CampaignRun, outcome: Cancellation, readFailed?: string): string {
	const { canceled, rang, failed } = outcome;
	const parts = [
		`${calls(canceled.length)} canceled before ringing${canceled.length ? ` (${numbersOf(canceled)})` : ''}`,
		`${calls(rang.length)} had rung already${rang.length ? ` (${numbersOf(rang)})` : ''}`,
	];
	if (failed.length)
		parts.push(
			`${calls(failed.length)} could not be canceled (${failed
				.slice(0, NAMED_IN_NOTE)
				.map(({ call, why }) => `${call.person}, call ${call.id}: ${why}`)
				.join('; ')})`,
		);
	const read = readFailed
		? ` The calls could not be read again after the Stop (${readFailed}): these are the calls of the last look.`
		: '';
	return `Run Campaign ${run.campaign} was stopped: ${parts.join(', ')}.${read}`;
}

async function cancelAfterTheStop(
	context: IExecuteFunctions,
	run: CampaignRun,
	last: Step | undefined,
): Promise<NodeOperationError> {
	const cleanup = despiteTheStop(context);
	// should the read fail: the last look's calls, and what the stopped step placed since (run.live)
	const known = new Set(last?.calls.map((call) => call.id));
	let seen = [...(last?.calls ?? []), ...(run.live ?? []).filter((call) => !known.has(call.id))];
	let readFailed: string | undefined;
	try {
		// read again: a placement on its way at the Stop is in the list now
		seen = await currentCalls(cleanup, run);
	} catch (error) {
		readFailed = (error as Error).message;
	}
	const outcome = await cancelScheduled(cleanup, callsOfRun(run, seen).followed);
	const report = reportAfter(run, outcome, readFailed);
	noteStop(context, report);
	context.logger.warn(`Voice Agent CRM: ${report}`, {
		campaign: run.campaign,
		executionId: run.executionId,
		canceled: outcome.canceled.map((call) => call.id),
	});
	return new NodeOperationError(context.getNode(), report, {
		description: `${outcome.failed.length ? 'A call that could not be canceled may still ring: cancel it with Call → Cancel Scheduled Call, or the whole campaign with Call → Cancel Campaign. ' : ''}${WHAT_NEXT}`,
	});
}

/**
 * Run the campaign's steps (`work`, which reports each step it took to `seen`); on a Stop, cancel
 * what the campaign scheduled and end with what that came to.
 */
export async function untilStopped(
	context: IExecuteFunctions,
	run: CampaignRun,
	work: (seen: (step: Step) => void) => Promise<Step>,
): Promise<Step> {
	const stop = cancelSignalOf(context);
	let last: Step | undefined;
	const noteNow = () => noteStop(context, noteAtTheStop(run, last));
	stop?.addEventListener('abort', noteNow, { once: true });
	try {
		const step = await work((step) => (last = step)).catch((error: unknown) => {
			if (!stop?.aborted) throw error;
			return undefined;
		});
		if (step && (step.plan.finished || !stop?.aborted)) return step;
		throw await cancelAfterTheStop(context, run, last);
	} finally {
		stop?.removeEventListener('abort', noteNow);
	}
}
