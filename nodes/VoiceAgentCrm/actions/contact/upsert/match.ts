import type { IDataObject } from 'n8n-workflow';

import { emailKey, phoneKey, type MatchKey } from '../../../shared/contactDirectory';
import { CONTACT_FIELD_LABELS, contactBody, contactFieldsSchema } from '../fields';

/**
 * Create or Update's rules (docs/decisions.md, "Contact → Create or Update (issue 33)"): what a
 * row is, how it matches a contact, and what is written. Pure: the contacts it is given are what
 * the node read; the requests are `run.ts`'s.
 */

/** A row's fields, checked and in the API's names: only the fields the row supplies (a blank cell supplies nothing). */
export type ContactRow = IDataObject & { phone_number?: string; email?: string };

export type Decision =
	| { action: 'create'; body: IDataObject }
	| { action: 'update'; contact: IDataObject; body: IDataObject }
	| { action: 'unchanged'; contact: IDataObject }
	| { action: 'refused'; reason: string; contact?: IDataObject };

/** A parameter or cell that supplies nothing: missing, null, blank, or an empty list of custom fields. */
function blank(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && !value.trim()) ||
		(Array.isArray(value) && !value.length)
	);
}

/**
 * A row from its values by parameter name (`phoneNumber`, `email`, `fullName`, `country`,
 * `description`, `additionalData`): checked with Create's rules, or what is wrong with it, the
 * field named. A number is read as its text (a spreadsheet's phone column).
 */
export function rowOf(values: IDataObject): { row: ContactRow } | { reason: string } {
	const input: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (blank(value)) continue;
		input[name] = typeof value === 'number' ? String(value) : value;
	}
	const parsed = contactFieldsSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const [top, ...rest] = issue.path;
		const label = CONTACT_FIELD_LABELS[top as keyof typeof CONTACT_FIELD_LABELS] ?? String(top);
		const shown = JSON.stringify(input[String(top)]) ?? String(input[String(top)]);
		return {
			reason: `${[label, ...rest].join(' → ')}: ${issue.message} (got ${shown.slice(0, 80)})`,
		};
	}
	return { row: contactBody(parsed.data) as ContactRow };
}

/** Why a row cannot be matched at all, before any request: its key is missing. */
export function missingKey(key: MatchKey, row: ContactRow): string | undefined {
	if (key === 'phone' && row.phone_number === undefined)
		return 'Phone Number: needed to match on the phone number, and empty';
	if (key === 'email' && row.email === undefined)
		return 'Email: needed to match on the email, and empty';
	return undefined;
}

/**
 * What to do with a row, given the contacts its key matches and the contact that holds its phone
 * number (when another read told). The chosen key decides the contact; the other field is data.
 * - no match: create (a contact needs a phone number); a phone held by another contact refuses
 *   the row, since phone numbers are unique and contacts are never merged;
 * - one match: update the fields that differ, or nothing (`unchanged`); a phone held by another
 *   contact refuses the row;
 * - several contacts share the email: refused, as the events endpoint does not use such an email.
 */
export function decide(
	row: ContactRow,
	matches: IDataObject[],
	phoneHolder?: IDataObject,
): Decision {
	if (matches.length > 1)
		return {
			action: 'refused',
			reason: `Email: ${matches.length} contacts have this email (${matches
				.slice(0, 5)
				.map((contact) => String(contact.id))
				.join(', ')}); a shared email names no one contact`,
		};
	const [contact] = matches;
	if (phoneHolder && phoneHolder.id !== contact?.id)
		return {
			action: 'refused',
			reason: `Phone Number: contact ${String(phoneHolder.id)} already has this phone number (phone numbers are unique per contact; contacts are never merged)`,
			contact: phoneHolder,
		};
	if (!contact) {
		if (row.phone_number === undefined)
			return {
				action: 'refused',
				reason: 'Phone Number: no contact has this email, and creating one needs a phone number',
			};
		return { action: 'create', body: { ...row } };
	}
	const body = changes(row, contact);
	return Object.keys(body).length
		? { action: 'update', contact, body }
		: { action: 'unchanged', contact };
}

/** The row's fields whose value differs from the contact's: what a PATCH sends, nothing else. */
export function changes(row: ContactRow, contact: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const [field, value] of Object.entries(row)) {
		if (!sameValue(field, value, contact[field])) body[field] = value;
	}
	return body;
}

function sameValue(field: string, wanted: unknown, current: unknown): boolean {
	if (field === 'phone_number') return phoneKey(current) === wanted;
	if (field === 'email') return emailKey(current) === emailKey(wanted);
	if (field === 'additional_data') return JSON.stringify(current ?? []) === JSON.stringify(wanted);
	return (current ?? '') === wanted;
}
