import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { callingRuleText } from '../../../shared/callingRules/lawful';
import { byClaimOrder, type CampaignCall } from './calls';
import type { CampaignRun, Step } from './engine';
import type { Halt } from './halt';
import type { Person } from './plan';

/**
 * One output item per input item: each person's calls (last first in `call_id`, as every Place
 * operation answers), the final outcome, or why the person was not called.
 */

function attemptOf(call: CampaignCall): IDataObject {
	return {
		call_id: call.id,
		call_at: new Date(call.callAt).toISOString(),
		result: call.result ?? null,
		ended_at: call.endedAt ? new Date(call.endedAt).toISOString() : null,
	};
}

function reasonOf(attempts: CampaignCall[], run: CampaignRun): string {
	const last = attempts.at(-1)!;
	const tries = `${attempts.length} ${attempts.length === 1 ? 'try' : 'tries'}`;
	if (last.result === 'answered') return `Answered after ${tries}`;
	if (!run.rules.redialOn.includes(last.result!))
		return `Ended ${last.result} after ${tries}; Redial On does not include it`;
	return `Ended ${last.result} after ${tries}, the most Max Tries allows`;
}

function haltedReason(halt: Halt, tries: number, live: CampaignCall | undefined): string {
	const how = live
		? `its call ${live.id} ${live.callAt <= Date.now() ? 'had started' : `(set for ${new Date(live.callAt).toISOString()}) could not be canceled`} and goes on: Call → Get reads its outcome`
		: tries
			? `after ${tries} ${tries === 1 ? 'try' : 'tries'}, with no further call`
			: 'before the person was called';
	return `Cancel Campaign halted the campaign (tag ${halt.tag}): ${how}. To call again, delete that tag (Tag → Delete) and run the list again.`;
}

/** The reason of a person not done when a later run of the campaign took it over (`Step.followedBy`). */
function supersededReason(
	unfinished: string,
	live: CampaignCall | undefined,
	followers: string[],
): string {
	const call = live
		? `; call ${live.id} is under way, placed by execution ${live.executionId}, which follows it (Call → Get reads its outcome)`
		: '';
	const whose = followers.length
		? `the campaign's live calls are execution ${followers.join(', ')}'s, whose items give the outcome`
		: 'no call of it is live to send it an event';
	return `${unfinished}${call}. This execution ended early: ${whose}; running the same list again goes on with the campaign`;
}

/** Which calling rule applied to the person (`calling_rule`), on the day of the latest call or of this step. */
function callingRuleOf(person: Person, step: Step): string {
	if (!person.lawful) return 'not checked: Calling Hours is Only My Window';
	const callTimes = step.calls.filter((call) => call.person === person.key).map((c) => c.callAt);
	return callingRuleText(person.place, callTimes.length ? Math.max(...callTimes) : Date.now());
}

function personItem(person: Person, run: CampaignRun, step: Step): IDataObject {
	const who = {
		to_number: person.key,
		full_name: person.fullName,
		time_zone: person.place.zones[0],
		time_zones: person.place.zones,
		time_zone_source: person.place.timeZoneSource,
		calling_rule: callingRuleOf(person, step),
		campaign: run.campaign,
	};
	const heldBy = step.plan.heldElsewhere.get(person.key);
	if (heldBy)
		return {
			call_id: heldBy.id,
			campaign_status: 'skipped',
			skipped_for: 'called_by_another_campaign',
			from_earlier_run: heldBy.executionId !== run.executionId,
			result: null,
			reason: `Already called by ${heldBy.workflowId === run.workflowId ? 'this workflow from another list' : `a campaign of another workflow (${heldBy.workflowId})`} at ${new Date(heldBy.createdAt).toISOString()} (execution ${heldBy.executionId}), within Remember Calls For`,
			placed_by_execution: heldBy.executionId,
			tries: 0,
			attempts: [],
			...who,
		};
	const calls = step.plan.followed.filter((call) => call.person === person.key);
	const attempts = calls.filter((call) => call.stage === 'over').sort(byClaimOrder);
	const refusal = step.refusals.get(person.key);
	const last = attempts.at(-1);
	const liveCall = calls.find((call) => call.stage === 'live');
	const live = !!liveCall;
	const redial =
		!!last && run.rules.redialOn.includes(last.result!) && attempts.length < run.rules.maxTries;
	const done = !!last && !live && !redial;
	const halted = !done && !refusal ? step.halted : undefined;
	// a halted campaign ends without waiting for a live call: its item names the call, which rang
	const shown = halted && liveCall ? [...attempts, liveCall] : attempts;
	const noHours = !done && !refusal && !halted && step.plan.noHours.has(person.key);
	const unfinished = last
		? `Ended ${last.result} after ${attempts.length} of ${run.rules.maxTries} tries; the next call is due`
		: 'Not called yet';
	return {
		call_id: liveCall && (step.failure || halted) ? liveCall.id : (last?.id ?? null),
		campaign_status: refusal
			? 'refused'
			: done
				? 'called'
				: halted
					? 'halted'
					: noHours
						? 'skipped'
						: 'unfinished',
		skipped_for: noHours ? 'no_calling_hours' : null,
		from_earlier_run: done && attempts.every((call) => call.executionId !== run.executionId),
		result: last?.result ?? null,
		reason: refusal
			? `The service refused the call: ${refusal}`
			: done
				? reasonOf(attempts, run)
				: halted
					? haltedReason(halted, attempts.length, liveCall)
					: noHours
						? `No hour in the next two weeks in which a call may start in every zone of the person (${person.place.zones.join(', ')}): Call On, Call From and Call Until do not meet the calling rule; ${unfinished.toLowerCase()}`
						: step.failure
							? `${liveCall ? `Call ${liveCall.id} is scheduled for ${new Date(liveCall.callAt).toISOString()} and will ring; ` : ''}${unfinished}. The campaign stopped following its calls: ${step.failure}`
							: step.followedBy
								? supersededReason(unfinished, liveCall, step.followedBy)
								: unfinished,
		tries: shown.length,
		attempts: shown.map(attemptOf).reverse(),
		...who,
	};
}

/** The campaign's answer, one item per input item. */
export function campaignItems(run: CampaignRun, step: Step): INodeExecutionData[] {
	const slots: INodeExecutionData[] = [];
	// the same valid numbers are the same campaign: its rows not called were answered by that run too
	const ranBefore = step.calls.some(
		(call) => call.campaign === run.campaign && call.executionId !== run.executionId,
	);
	for (const person of run.people)
		slots[person.itemIndex] = {
			json: personItem(person, run, step),
			pairedItem: { item: person.itemIndex },
		};
	for (const problem of run.problems)
		slots[problem.itemIndex] = {
			json: {
				call_id: null,
				campaign_status: problem.status,
				skipped_for: problem.skippedFor ?? null,
				from_earlier_run: ranBefore,
				result: null,
				reason: problem.reason,
				tries: 0,
				attempts: [],
				to_number: problem.toNumber,
				full_name: problem.fullName,
				campaign: run.campaign,
			},
			pairedItem: { item: problem.itemIndex },
		};
	return slots.filter(Boolean);
}
