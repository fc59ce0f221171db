import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { callsOfPeriod, MAX_COUNT_PAGES } from '../../../shared/callsPerPerson';
import { marksOfNumbers, type Mark } from '../../../shared/doNotCall';
import { guardsOf, type Guards } from '../placement/guards';
import type { CampaignRun } from './engine';
import type { Person } from './plan';
import type { RowProblem } from './people';

/**
 * Run Campaign's checks before any placement (docs/campaigns.md, "Do not call and calls per
 * person"), with the Place operations' options and reads (placement/guards.ts): a person on a
 * do-not-call list is skipped on their item; with Max Calls per Person, every call the
 * organization made to the person in the period (any workflow, any agent) counts, and the
 * campaign's calls wait until the cap allows them (campaign/plan.ts).
 */

const OPTIONS = { name: 'campaignOptions', label: 'Options' };

/** The run's checks, read from the first item as every campaign option is; an error names the field. */
export function campaignGuardsOf(context: IExecuteFunctions): Guards {
	return guardsOf(context, 0, undefined, OPTIONS);
}

function skipped(person: Person, reason: string): RowProblem {
	return {
		itemIndex: person.itemIndex,
		status: 'skipped',
		skippedFor: 'do_not_call',
		reason,
		toNumber: person.key,
		fullName: person.fullName,
	};
}

/** The organization's marks of the run's people, read now (the list's read time kept). */
async function readMarks(context: IExecuteFunctions, run: CampaignRun) {
	run.marksReadAt = Date.now();
	const numbers = run.people.map((person) => person.key);
	return await marksOfNumbers(context, numbers, run.people[0].itemIndex);
}

/** Takes out of the run the people `why` names a reason for, answered as skipped with it. */
function skipPeople(run: CampaignRun, why: (person: Person) => string | undefined): void {
	const kept: Person[] = [];
	for (const person of run.people) {
		const reason = why(person);
		if (reason) run.problems.push(skipped(person, reason));
		else kept.push(person);
	}
	run.people = kept;
}

/** The people on a do-not-call list, out of the run and answered as skipped. */
async function withoutSuppressed(context: IExecuteFunctions, run: CampaignRun, guards: Guards) {
	const marks = guards.organizationList ? await readMarks(context, run) : new Map<string, Mark>();
	skipPeople(run, (person) => {
		const mark = marks.get(person.key);
		if (mark)
			return `On the organization's do-not-call list (contact ${mark.contactId}, marked on ${mark.markedOn}): not called`;
		if (guards.given?.numbers.has(person.key))
			return `On Options → Do Not Call → Numbers Not to Call (scrubbed on ${guards.given.scrubbedOn.toISODate()}): not called`;
		return undefined;
	});
}

/** The calls of the cap's period to the run's people, for the plan to count (campaign/plan.ts). */
async function countCalls(context: IExecuteFunctions, run: CampaignRun, guards: Guards) {
	const cap = guards.cap!;
	const periodMs = cap.hours * 3_600_000;
	const period = await callsOfPeriod(context, Date.now() - periodMs, run.people[0].itemIndex);
	if (!period.complete)
		throw new NodeOperationError(
			context.getNode(),
			`The calls of the last ${cap.hours} hours could not all be read, so Max Calls per Person could not be checked and no call was placed`,
			{
				description: `The organization placed more than ${MAX_COUNT_PAGES * 1000} calls in the period, more than the node reads to count them. Shorten the period.`,
			},
		);
	run.rules.cap = { calls: cap.calls, periodMs };
	run.callsInPeriod = {};
	for (const person of run.people) {
		const made = period.byNumber.get(person.key);
		if (made)
			run.callsInPeriod[person.key] = made.map((call) => ({
				id: call.call_id,
				at: Date.parse(call.created_at),
			}));
	}
}

/** The run's people screened: one read of each list and of the period's calls, before any placement. */
export async function screenCampaign(
	context: IExecuteFunctions,
	run: CampaignRun,
	guards: Guards,
): Promise<void> {
	if (!run.people.length) return;
	await withoutSuppressed(context, run, guards);
	if (guards.cap && run.people.length) await countCalls(context, run, guards);
}

/** How often a campaign that holds its worker reads the organization's list again. */
const MARKS_READ_EVERY_MS = 24 * 3_600_000;

/** Time until the list is due to be read again (≤ 0: due); Infinity when it is not honoured. */
export function marksDueIn(run: CampaignRun, now: number): number {
	return run.marksReadAt === undefined ? Infinity : run.marksReadAt + MARKS_READ_EVERY_MS - now;
}

/**
 * People marked do not call while the campaign runs, read again once a day (an opt-out must be
 * honoured within 10 business days): out of the run, answered as skipped, and their scheduled
 * calls canceled by the next step (campaign/plan.ts).
 */
export async function honourNewMarks(context: IExecuteFunctions, run: CampaignRun): Promise<void> {
	if (marksDueIn(run, Date.now()) > 0 || !run.people.length) return;
	const marks = await readMarks(context, run);
	if (!marks.size) return;
	run.suppressed = [...(run.suppressed ?? []), ...marks.keys()];
	skipPeople(run, (person) => {
		const mark = marks.get(person.key);
		return (
			mark &&
			`Marked do not call while the campaign ran (contact ${mark.contactId}, marked on ${mark.markedOn}): no call after the mark was read`
		);
	});
}
