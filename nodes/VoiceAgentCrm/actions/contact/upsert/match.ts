import type { IDataObject } from 'n8n-workflow';

import { cleanText, emailKey, phoneKey, type MatchKey } from '../../../shared/contactDirectory';
import { CONTACT_FIELD_LABELS, contactBody, contactFieldsSchemaFor } from '../fields';

/**
 * Create or Update's rules (docs/decisions.md, "Contact → Create or Update"): what a
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

/** What the user chose for blank cells and custom fields: the same for every row of a run. */
export interface RowRules {
	/** The fields (parameter names) a blank cell empties; a blank cell of any other field changes nothing. */
	clearBlank: ReadonlySet<string>;
	/** Whether the mapped custom fields replace the contact's whole list (else they are merged into it by field name). */
	replaceCustom: boolean;
	/** The country a national phone number is read in (ISO code), if the user chose one. */
	defaultCountry?: string;
}

export const DEFAULT_RULES: RowRules = { clearBlank: new Set(), replaceCustom: false };

/** The fields a blank cell may empty: a key (phone, email) is never emptied. */
export const CLEARABLE = ['fullName', 'country', 'description', 'additionalData'] as const;

/** A custom field as the API holds it. */
export interface CustomEntry extends IDataObject {
	type: string;
	field: string;
	/** Empty in a row: the field is to be removed (a blank cell the user chose to clear). */
	value: string;
}

/**
 * A cell's value as text where text is meant: text cleaned; a number, a boolean or a date written
 * as text (a spreadsheet's phone or plan column); anything else as is, for the rules to refuse.
 */
function cellText(value: unknown): unknown {
	if (typeof value === 'string') return cleanText(value);
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		return String(value);
	if (value instanceof Date) return value.toISOString();
	const toISO = (value as { toISO?: unknown } | null)?.toISO;
	if (typeof toISO === 'function') return String(toISO.call(value));
	return value;
}

/** A parameter or cell that supplies nothing: missing, null, blank once cleaned, or an empty list. */
function blank(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && !value) ||
		(Array.isArray(value) && !value.length)
	);
}

/**
 * The custom fields a row maps, cleaned: an entry with a blank value is left out (the stored
 * value stays), or kept with an empty value when the user clears blank custom fields. A value that
 * is not a list is returned as is, for the rules to refuse.
 */
function customEntries(value: unknown, rules: RowRules): unknown {
	if (!Array.isArray(value)) return value;
	const entries: unknown[] = [];
	for (const entry of value) {
		if (!entry || typeof entry !== 'object') {
			entries.push(entry);
			continue;
		}
		const { type, field, value: cell } = entry as IDataObject;
		const text = cellText(cell);
		if (blank(text) && !rules.clearBlank.has('additionalData')) continue;
		entries.push({
			type: cellText(type) || 'text',
			field: cellText(field),
			value: blank(text) ? '' : text,
		});
	}
	return entries;
}

/**
 * A row from its values by parameter name (`phoneNumber`, `email`, `fullName`, `country`,
 * `description`, `additionalData`): cleaned, checked with Create's rules, or what is wrong with
 * it, the field named. A blank value supplies nothing, unless the user clears that field: then
 * the row carries it empty.
 */
export function rowOf(
	values: IDataObject,
	rules: RowRules = DEFAULT_RULES,
): { row: ContactRow } | { reason: string } {
	const input: IDataObject = {};
	for (const [name, raw] of Object.entries(values)) {
		const value = name === 'additionalData' ? customEntries(raw, rules) : cellText(raw);
		if (!blank(value)) input[name] = value as IDataObject[string];
		else if (name !== 'additionalData' && rules.clearBlank.has(name)) input[name] = '';
	}
	const parsed = contactFieldsSchemaFor(rules.defaultCountry).safeParse(input);
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

/** A row's key value as the run compares it, or undefined when the row has none. */
export function keyOf(key: MatchKey, row: ContactRow): string | undefined {
	const value = key === 'phone' ? row.phone_number : row.email;
	if (value === undefined) return undefined;
	return key === 'phone' ? phoneKey(value) : emailKey(value);
}

/**
 * Two rows with the same key as one row: the later row's supplied values win (a blank cell
 * supplied nothing, so the earlier value stays); custom fields merge by field name.
 */
export function mergeRows(earlier: ContactRow, later: ContactRow): ContactRow {
	const merged: ContactRow = { ...earlier, ...later };
	if (earlier.additional_data && later.additional_data)
		merged.additional_data = withCustom(
			earlier.additional_data as CustomEntry[],
			later.additional_data as CustomEntry[],
			false,
			true,
		);
	return merged;
}

/**
 * The custom fields after a row's entries: each entry replaces the stored one of its field name
 * or is added; an emptied entry removes its field (or stays, as a removal, when `keepRemovals`:
 * two rows merged before they meet the contact). With `replace`, only the row's entries remain.
 */
export function withCustom(
	stored: unknown,
	entries: CustomEntry[],
	replace: boolean,
	keepRemovals = false,
): CustomEntry[] {
	const list: CustomEntry[] =
		replace || !Array.isArray(stored)
			? []
			: (stored as IDataObject[]).map((entry) => ({
					type: String(entry.type ?? ''),
					field: String(entry.field ?? ''),
					value: String(entry.value ?? ''),
				}));
	for (const entry of entries) {
		const at = list.findIndex((held) => held.field === entry.field);
		if (entry.value === '' && !keepRemovals) {
			if (at >= 0) list.splice(at, 1);
		} else if (at >= 0) list[at] = entry;
		else list.push(entry);
	}
	return list;
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
	replaceCustom = false,
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
		return { action: 'create', body: creation(row) };
	}
	const body = changes(row, contact, replaceCustom);
	return Object.keys(body).length
		? { action: 'update', contact, body }
		: { action: 'unchanged', contact };
}

/** A creation's body: the row without the fields it empties (a new contact has none to empty). */
function creation(row: ContactRow): IDataObject {
	const body: IDataObject = {};
	for (const [field, value] of Object.entries(row)) {
		if (field === 'additional_data') {
			const custom = (value as CustomEntry[]).filter((entry) => entry.value !== '');
			if (custom.length) body[field] = custom;
		} else if (value !== '') body[field] = value;
	}
	return body;
}

/**
 * The row's fields whose value differs from the contact's: what a PATCH sends, nothing else. The
 * custom fields are sent whole (the API replaces the list): the stored list with the row's entries
 * merged in, or the row's alone when `replaceCustom`.
 */
export function changes(row: ContactRow, contact: IDataObject, replaceCustom = false): IDataObject {
	const body: IDataObject = {};
	for (const [field, value] of Object.entries(row)) {
		const wanted =
			field === 'additional_data'
				? withCustom(contact.additional_data, value as CustomEntry[], replaceCustom)
				: value;
		if (!sameValue(field, wanted, contact[field])) body[field] = wanted;
	}
	return body;
}

function sameValue(field: string, wanted: unknown, current: unknown): boolean {
	if (field === 'phone_number') return phoneKey(current) === wanted;
	if (field === 'email') return emailKey(current) === emailKey(wanted);
	if (field === 'additional_data')
		return JSON.stringify(withCustom(current, [], false)) === JSON.stringify(wanted);
	return cleanText(String(current ?? '')) === wanted;
}
