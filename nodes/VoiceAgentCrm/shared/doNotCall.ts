import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ContactDirectory, phoneKey, RequestCount } from './contactDirectory';
import { E164 } from './validation';

/**
 * The do-not-call lists a placement honours (docs/calls.md, "Do not call and calls per person"):
 * - the organization's: the contacts whose Additional Data carries the field `do_not_call`, its
 *   value the date the person was marked. Every workflow of the organization reads the same
 *   contacts, so a mark made anywhere holds everywhere (the API has no endpoint that tags a contact);
 * - a list the user gives, with the date it was scrubbed against the registry.
 */

/** The Additional Data field that puts a contact on the organization's list. */
export const DO_NOT_CALL_FIELD = 'do_not_call';

/** A list scrubbed longer ago than this before the call protects no one (issue 41). */
export const MAX_SCRUB_AGE_DAYS = 31;

function entriesOf(contact: IDataObject | undefined): IDataObject[] {
	const entries = contact?.additional_data;
	return Array.isArray(entries) ? (entries as IDataObject[]) : [];
}

/** The date the contact was marked do-not-call, or undefined for a contact not on the list. */
export function markedOn(contact: IDataObject | undefined): string | undefined {
	const mark = entriesOf(contact).find(
		(entry) => entry?.field === DO_NOT_CALL_FIELD && String(entry.value ?? '').trim() !== '',
	);
	return mark ? String(mark.value) : undefined;
}

/**
 * The contact's Additional Data with the mark in it: the API replaces the whole array, so every
 * other entry is sent back as it was; a contact already marked keeps its first date.
 */
export function withMark(contact: IDataObject | undefined, date: string): IDataObject[] {
	if (markedOn(contact) !== undefined) return entriesOf(contact);
	const others = entriesOf(contact).filter((entry) => entry?.field !== DO_NOT_CALL_FIELD);
	return [...others, { type: 'date', field: DO_NOT_CALL_FIELD, value: date }];
}

/** A contact on the organization's list, as a placement reports it. */
export interface Mark {
	contactId: string;
	markedOn: string;
}

/**
 * The marks of the organization's list for these numbers (E.164), by number; a number with no
 * marked contact has none. Read with the contact directory: one listing request per number up to
 * 20 numbers, else per number or the whole contact list, whichever is fewer requests.
 */
export async function marksOfNumbers(
	context: IExecuteFunctions,
	numbers: string[],
	itemIndex: number,
): Promise<Map<string, Mark>> {
	const distinct = [...new Set(numbers.map(phoneKey))];
	const directory = await ContactDirectory.open(
		context,
		new RequestCount(),
		itemIndex,
		distinct.length,
	);
	const marks = new Map<string, Mark>();
	for (const number of distinct) {
		for (const contact of await directory.find('phone', number)) {
			const date = markedOn(contact);
			if (date !== undefined) marks.set(number, { contactId: String(contact.id), markedOn: date });
		}
	}
	return marks;
}

/** A list of numbers the user gave, and the day it was scrubbed. */
export interface GivenList {
	numbers: Set<string>;
	scrubbedOn: DateTime;
}

/**
 * The numbers of a list given as text (separated by commas, semicolons or line breaks: a number
 * may be written with spaces) or as an array from an expression; each in E.164, or the problem
 * with the first that is not.
 */
export function numbersOfList(value: unknown): { numbers: Set<string> } | { problem: string } {
	const written = Array.isArray(value)
		? value.map((entry) => String(entry ?? ''))
		: String(value ?? '').split(/[,;\n\r]+/);
	const numbers = new Set<string>();
	for (const text of written.map((entry) => entry.trim()).filter(Boolean)) {
		const parsed = E164.safeParse(text);
		if (!parsed.success)
			return { problem: `"${text.slice(0, 40)}" ${parsed.error.issues[0].message}` };
		numbers.add(parsed.data);
	}
	return { numbers };
}

/** Why a list scrubbed on this day cannot be used for a call at `callAt`; undefined when it can. */
export function staleListProblem(scrubbedOn: DateTime, callAt: DateTime): string | undefined {
	// calendar days, in the workflow's zone: a list scrubbed yesterday is 1 day old all day
	const days = Math.round(
		callAt.startOf('day').diff(scrubbedOn.setZone(callAt.zone).startOf('day'), 'days').days,
	);
	if (days < 0) return `${scrubbedOn.toISODate()} is after the call; give the day it was scrubbed`;
	if (days > MAX_SCRUB_AGE_DAYS)
		return `${scrubbedOn.toISODate()} is ${days} days before the call: a list scrubbed more than ${MAX_SCRUB_AGE_DAYS} days before a call does not protect it; scrub the list again and give the new date`;
	return undefined;
}
