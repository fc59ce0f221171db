import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	callingRuleText,
	isLawfulAt,
	nextLawfulOpening,
	placeOfNumber,
} from '../../../shared/callingRules/lawful';
import {
	callsOfPeriod,
	MAX_COUNT_PAGES,
	type CallMade,
	type CallsOfPeriod,
} from '../../../shared/callsPerPerson';
import { contactsWithIds, phoneKey } from '../../../shared/contactDirectory';
import {
	markedOn,
	marksOfNumbers,
	MAX_SCRUB_AGE_DAYS,
	numbersOfList,
	staleListProblem,
	type GivenList,
	type Mark,
} from '../../../shared/doNotCall';
import type { ItemResults } from '../../../shared/operation';
import { failItem } from '../../../shared/validation';

/**
 * The checks a Place operation makes before it dials (docs/calls.md, "Do not call and calls per
 * person"): the do-not-call lists skip a number, Max Calls per Person fails it. Run Campaign reads
 * the same options and lists (campaign/screen.ts).
 */

// ---------------------------------------------------------------------------------------------
// The options, in the Place operations' Additional Fields

/** The collection of options that holds the checks, and how an error names it. */
export interface GuardOptions {
	name: string;
	label: string;
}

const ADDITIONAL_FIELDS: GuardOptions = { name: 'additionalFields', label: 'Additional Fields' };

export const doNotCallField: INodeProperties = {
	displayName: 'Do Not Call',
	name: 'doNotCall',
	type: 'fixedCollection',
	placeholder: 'Add Do Not Call Lists',
	default: {},
	description:
		"The do-not-call lists the call honours; a number on one is skipped, and its item says so. Without this option the organization's list is honoured.",
	options: [
		{
			displayName: 'Lists',
			name: 'lists',
			values: [
				{
					displayName: 'List Scrubbed On',
					name: 'scrubbedOn',
					type: 'dateTime',
					default: '',
					description: `The day Numbers Not to Call was scrubbed against the registry; required with numbers. A list scrubbed more than ${MAX_SCRUB_AGE_DAYS} days before the call is refused.`,
				},
				{
					displayName: 'Numbers Not to Call',
					name: 'numbers',
					type: 'string',
					default: '',
					placeholder: 'e.g. +14155550123, +34910000100',
					description:
						'Numbers in E.164 separated by commas or line breaks, or a list from an expression; a number on it is not called',
				},
				{
					displayName: "Skip Numbers on the Organization's List",
					name: 'organizationList',
					type: 'boolean',
					default: true,
					description:
						'Whether to skip a number whose contact was marked with Contact → Mark Do Not Call. Costs contact listing requests: one per distinct number up to 20 (beyond, one per number or one per 1,000 contacts, whichever is fewer); to a contact, one per 1,000 contacts until the contacts called are found.',
				},
			],
		},
	],
};

export const maxCallsPerPersonField: INodeProperties = {
	displayName: 'Max Calls per Person',
	name: 'maxCallsPerPerson',
	type: 'fixedCollection',
	placeholder: 'Add Max Calls per Person',
	default: {},
	description: `Fail, before dialling, an item whose number the organization already called this many times in the period (every workflow and agent, read from the call list). Costs one call listing request per 1,000 calls of the period, at most ${MAX_COUNT_PAGES}, each time the node runs.`,
	options: [
		{
			displayName: 'Cap',
			name: 'cap',
			values: [
				{
					displayName: 'Calls',
					name: 'calls',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 3,
					description: 'Calls at most to one number in the period, e.g. 3',
				},
				{
					displayName: 'Period (Hours)',
					name: 'hours',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 24,
					description: 'The period, counted back from now, in hours, e.g. 24',
				},
			],
		},
	],
};

export const lawfulHoursField: INodeProperties = {
	displayName: 'Only in Lawful Calling Hours',
	name: 'lawfulHoursOnly',
	type: 'boolean',
	default: false,
	description:
		"Whether to refuse, before dialling, a call that would start outside the calling hours of the person's place (its state, province or country, read from the number; see the package's calling rules). An aid, not legal advice.",
};

// ---------------------------------------------------------------------------------------------
// An item's checks, read before any request

export interface Cap {
	calls: number;
	hours: number;
}

export interface Guards {
	organizationList: boolean;
	given?: GivenList;
	cap?: Cap;
	/** Only in Lawful Calling Hours: when the call would start (epoch ms). */
	lawfulAt?: number;
}

/** The day a date field names, in the workflow's zone. */
function dayOf(value: unknown, zone: string): DateTime | undefined {
	let parsed: DateTime | undefined;
	if (DateTime.isDateTime(value)) parsed = value;
	else if (value instanceof Date) parsed = DateTime.fromJSDate(value, { zone });
	else if (typeof value === 'string' && value.trim())
		parsed = DateTime.fromISO(value.trim(), { zone });
	return parsed?.isValid ? parsed : undefined;
}

function positive(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/**
 * The item's checks from its Additional Fields (or the collection given), or its error naming the field. A given list needs
 * its scrub date, no more than 31 days before the call (`callAt`, epoch ms; now when undefined).
 */
export function guardsOf(
	context: IExecuteFunctions,
	itemIndex: number,
	callAt: number | undefined,
	collection: GuardOptions = ADDITIONAL_FIELDS,
): Guards {
	const DO_NOT_CALL = `${collection.label} → Do Not Call`;
	const MAX_CALLS = `${collection.label} → Max Calls per Person`;
	const options = context.getNodeParameter(collection.name, itemIndex, {}) as IDataObject;
	const lists = (options.doNotCall as { lists?: IDataObject } | undefined)?.lists ?? {};
	const capValues = (options.maxCallsPerPerson as { cap?: IDataObject } | undefined)?.cap;
	const problems: string[] = [];
	const guards: Guards = { organizationList: lists.organizationList !== false };

	const listed = numbersOfList(lists.numbers);
	if ('problem' in listed) problems.push(`${DO_NOT_CALL} → Numbers Not to Call: ${listed.problem}`);
	else if (listed.numbers.size) {
		const scrubbedOn = dayOf(lists.scrubbedOn, context.getTimezone());
		const callDay = DateTime.fromMillis(callAt ?? Date.now(), { zone: context.getTimezone() });
		const stale = scrubbedOn && staleListProblem(scrubbedOn, callDay);
		if (!scrubbedOn)
			problems.push(
				`${DO_NOT_CALL} → List Scrubbed On: required with Numbers Not to Call, the day the list was scrubbed (got ${JSON.stringify(lists.scrubbedOn ?? '')})`,
			);
		else if (stale) problems.push(`${DO_NOT_CALL} → List Scrubbed On: ${stale}`);
		else guards.given = { numbers: listed.numbers, scrubbedOn };
	}

	if (capValues) {
		const calls = positive(capValues.calls);
		const hours = positive(capValues.hours);
		if (!calls || !Number.isInteger(calls))
			problems.push(
				`${MAX_CALLS} → Calls: must be a whole number, 1 or more (got ${JSON.stringify(capValues.calls)})`,
			);
		if (!hours)
			problems.push(
				`${MAX_CALLS} → Period (Hours): must be a number of hours above 0 (got ${JSON.stringify(capValues.hours)})`,
			);
		if (calls && hours) guards.cap = { calls, hours };
	}
	if (options.lawfulHoursOnly === true) guards.lawfulAt = callAt ?? Date.now();
	if (problems.length) failItem(context, itemIndex, problems);
	return guards;
}

// ---------------------------------------------------------------------------------------------
// Screening the items before any placement

export interface ScreenedItem {
	itemIndex: number;
	/** The placement's body: `to_number` (Place AI Call) or `contact_id` (to a contact). */
	body: IDataObject;
	guards: Guards;
}

/** What a skipped item answers: a placement's fields with no call, and why. */
function skippedItem(
	item: ScreenedItem,
	number: string,
	found: { list: 'organization'; mark: Mark } | { list: 'given'; scrubbedOn: DateTime },
): IDataObject {
	return {
		call_id: null,
		agent_id: item.body.agent_id,
		contact_id:
			found.list === 'organization' ? found.mark.contactId : (item.body.contact_id ?? null),
		created_at: null,
		already_placed: false,
		placed_by_execution: '',
		status: 'skipped',
		reason: 'do_not_call',
		list: found.list,
		phone_number: number,
		...(found.list === 'organization'
			? { marked_on: found.mark.markedOn }
			: { scrubbed_on: found.scrubbedOn.toISODate() }),
	};
}

function capReached(
	context: IExecuteFunctions,
	item: ScreenedItem,
	number: string,
	made: CallMade[],
	inRun: number[],
): NodeOperationError {
	const { calls, hours } = item.guards.cap!;
	const listed = [
		...made.map((call) => `${call.call_id} at ${call.created_at}`),
		...inRun.map((itemIndex) => `item ${itemIndex} of this run`),
	];
	return new NodeOperationError(
		context.getNode(),
		`Item ${item.itemIndex}: ${number} was already called ${listed.length} times in the last ${hours} hours (Max Calls per Person: ${calls}), so no call was placed`,
		{
			itemIndex: item.itemIndex,
			description: `The calls already made: ${listed.join('; ')}. A workflow that loops back into this node stops here; call the person again after the period, or raise the cap.`,
		},
	);
}

function notCounted(context: IExecuteFunctions, item: ScreenedItem): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Item ${item.itemIndex}: the calls of the last ${item.guards.cap!.hours} hours could not all be read, so Max Calls per Person could not be checked and no call was placed`,
		{
			itemIndex: item.itemIndex,
			description: `The organization placed more than ${MAX_COUNT_PAGES * 1000} calls in the period, more than the node reads to count them. Shorten the period.`,
		},
	);
}

/** Why a call to `number` may not start at `at` under the calling rules; undefined when it may. */
function outsideLawfulHours(number: string, at: number): string | undefined {
	const place = placeOfNumber(number);
	if (!place.known)
		return `${place.reason}, so its calling hours cannot be checked and no call was placed`;
	if (isLawfulAt(place, at)) return undefined;
	const next = nextLawfulOpening(place, at);
	const when = next === undefined ? 'none in the next two weeks' : new Date(next).toISOString();
	return `a call to ${number} at ${new Date(at).toISOString()} is outside the lawful calling hours of its place (${callingRuleText(place, at)}), so no call was placed; the next lawful time: ${when}`;
}

/** The number each item calls (E.164); for a call to a contact, read from the contact list. */
async function numbersOf(
	context: IExecuteFunctions,
	items: ScreenedItem[],
	results: ItemResults,
): Promise<{ numbers: Map<number, string>; contacts: Map<string, IDataObject> }> {
	const numbers = new Map<number, string>();
	const byContact = items.filter((item) => item.body.to_number === undefined);
	let contacts = new Map<string, IDataObject>();
	if (byContact.length) {
		try {
			contacts = await contactsWithIds(
				context,
				byContact.map((item) => String(item.body.contact_id)),
				byContact[0].itemIndex,
			);
		} catch (error) {
			for (const item of byContact) results.fail(item.itemIndex, error);
		}
	}
	for (const item of items) {
		const phone = item.body.to_number ?? contacts.get(String(item.body.contact_id))?.phone_number;
		// a contact the list does not have: its placement answers the API's 404
		if (phone !== undefined) numbers.set(item.itemIndex, phoneKey(phone));
	}
	return { numbers, contacts };
}

/**
 * Screen the items about to be placed, in order: a number on a do-not-call list is skipped (its
 * output item, by item index), a number the organization already called the cap's number of times
 * fails its item; the calls this run is about to place count towards the cap. One read of each
 * list per run of the node; a read that fails fails the items that needed it, before any call.
 */
export async function screenPlacements(
	context: IExecuteFunctions,
	items: ScreenedItem[],
	results: ItemResults,
): Promise<Map<number, IDataObject>> {
	const skipped = new Map<number, IDataObject>();
	const guarded = items.filter(
		({ guards }) =>
			guards.organizationList || guards.given || guards.cap || guards.lawfulAt !== undefined,
	);
	if (!guarded.length) return skipped;
	const { numbers, contacts } = await numbersOf(context, guarded, results);
	const open = (item: ScreenedItem) => !results.has(item.itemIndex) && numbers.has(item.itemIndex);

	const marks = new Map<string, Mark>();
	const byNumber = guarded.filter(
		(item) => open(item) && item.guards.organizationList && item.body.to_number !== undefined,
	);
	if (byNumber.length) {
		try {
			const read = await marksOfNumbers(
				context,
				byNumber.map((item) => numbers.get(item.itemIndex)!),
				byNumber[0].itemIndex,
			);
			for (const [number, mark] of read) marks.set(number, mark);
		} catch (error) {
			for (const item of byNumber) results.fail(item.itemIndex, error);
		}
	}
	for (const contact of contacts.values()) {
		const date = markedOn(contact);
		if (date !== undefined)
			marks.set(phoneKey(contact.phone_number), { contactId: String(contact.id), markedOn: date });
	}

	const capped = guarded.filter((item) => open(item) && item.guards.cap);
	let calls: CallsOfPeriod | undefined;
	const now = Date.now();
	if (capped.length) {
		const longest = Math.max(...capped.map((item) => item.guards.cap!.hours));
		try {
			calls = await callsOfPeriod(context, now - longest * 3_600_000, capped[0].itemIndex);
		} catch (error) {
			for (const item of capped) results.fail(item.itemIndex, error);
		}
	}

	const placedByRun = new Map<string, number[]>();
	for (const item of guarded) {
		if (!open(item)) continue;
		const number = numbers.get(item.itemIndex)!;
		const mark = item.guards.organizationList ? marks.get(number) : undefined;
		if (mark) {
			skipped.set(item.itemIndex, skippedItem(item, number, { list: 'organization', mark }));
			continue;
		}
		if (item.guards.given?.numbers.has(number)) {
			const { scrubbedOn } = item.guards.given;
			skipped.set(item.itemIndex, skippedItem(item, number, { list: 'given', scrubbedOn }));
			continue;
		}
		if (item.guards.lawfulAt !== undefined) {
			const outside = outsideLawfulHours(number, item.guards.lawfulAt);
			if (outside) {
				results.fail(
					item.itemIndex,
					new NodeOperationError(context.getNode(), `Item ${item.itemIndex}: ${outside}`, {
						itemIndex: item.itemIndex,
						description:
							'Only in Lawful Calling Hours is on: schedule the call for a lawful time (Additional Fields → Schedule), or turn the option off if the law of the place allows the call.',
					}),
				);
				continue;
			}
		}
		const inRun = placedByRun.get(number) ?? [];
		if (item.guards.cap) {
			// a cap whose read failed has failed its item: `open` passed only the read ones
			const period = calls!;
			const since = now - item.guards.cap.hours * 3_600_000;
			const made = (period.byNumber.get(number) ?? []).filter(
				(call) => Date.parse(call.created_at) >= since,
			);
			if (made.length + inRun.length >= item.guards.cap.calls) {
				results.fail(item.itemIndex, capReached(context, item, number, made, inRun));
				continue;
			}
			if (!period.complete) {
				results.fail(item.itemIndex, notCounted(context, item));
				continue;
			}
		}
		placedByRun.set(number, [...inRun, item.itemIndex]);
	}
	return skipped;
}
