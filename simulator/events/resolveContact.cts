/**
 * Contact resolution of an event that carries contact data, following the reference's order
 * (first match wins: contact_id, external_id, phone by its last 10 digits, email ignoring case)
 * and its rules 1 to 5. Session-only events are resolved by `sessions.cts`.
 */
import { randomUUID } from 'node:crypto';

import type { Contact, Organization } from '../types.cts';
import { digitsOf, type ContactData } from './validateEvent.cts';

export type MatchedBy = 'contact_id' | 'external_id' | 'phone' | 'email' | 'session';
export type UnresolvedReason = 'contact_limit_reached' | 'ambiguous_email' | 'not_found';

/** What was ambiguous. Decision (reference silent on the values): ids of the contacts involved. */
export interface Conflict {
	phone_shared_by?: string[];
	email_shared?: string[];
	email_points_to?: string;
	contact_id_not_found?: string;
}

export type Resolution =
	| { contact: Contact; matchedBy: MatchedBy | null; created: boolean; conflict: Conflict }
	| { contact: null; reason: UnresolvedReason; conflict: Conflict };

const COMPARED_PHONE_DIGITS = 10;

export function resolveContact(
	org: Organization,
	data: ContactData,
	createContact: boolean,
	now: number,
): Resolution {
	const conflict: Conflict = {};
	const byId = findByContactId(org, data.contactId, conflict);
	if (byId) return found(org, byId, 'contact_id', data, conflict);
	const byExternalId = findByExternalId(org, data.externalId);
	if (byExternalId) return found(org, byExternalId, 'external_id', data, conflict);

	const byPhone = findByPhone(org, data.phone, conflict);
	const byEmail = findByEmail(org, data.email, conflict);
	if (byPhone) {
		// rule 3: the phone wins over an email that belongs to someone else
		if (byEmail && byEmail.id !== byPhone.id) conflict.email_points_to = byEmail.id;
		return found(org, byPhone, 'phone', data, conflict);
	}
	if (byEmail) return found(org, byEmail, 'email', data, conflict);

	// rule 2: a shared email is not used; when it was all there was to go on, say so
	if (conflict.email_shared && data.phone === undefined)
		return { contact: null, reason: 'ambiguous_email', conflict };
	// rule 4: only a phone or an email can create a contact. Decision (reference silent): an unknown
	// contact_id or external_id alone cannot, and is answered like a refused creation (`not_found`).
	if ((data.phone === undefined && data.email === undefined) || !createContact) {
		return { contact: null, reason: 'not_found', conflict };
	}
	if (org.contacts.size >= org.contactQuota)
		return { contact: null, reason: 'contact_limit_reached', conflict };
	return { contact: createContactFrom(org, data, now), matchedBy: null, created: true, conflict };
}

/**
 * Decision (the brief asks to decide): an unknown contact_id is reported in `conflict` and the
 * next identifier is tried, so that an event with a stale id but a good phone still lands.
 */
function findByContactId(
	org: Organization,
	contactId: string | undefined,
	conflict: Conflict,
): Contact | undefined {
	if (contactId === undefined) return undefined;
	// UUIDs compare without regard to case; the simulator stores them in lowercase
	const contact = org.contacts.get(contactId.toLowerCase());
	if (!contact) conflict.contact_id_not_found = contactId;
	return contact;
}

function findByExternalId(org: Organization, externalId: string | undefined): Contact | undefined {
	if (externalId === undefined) return undefined;
	return [...org.contacts.values()].find((contact) => contact.external_ids.includes(externalId));
}

function phoneKey(phone: string): string {
	return digitsOf(phone).slice(-COMPARED_PHONE_DIGITS);
}

/** Rule 1: among contacts sharing the phone, the most recent conversation or call wins. */
function findByPhone(
	org: Organization,
	phone: string | undefined,
	conflict: Conflict,
): Contact | undefined {
	if (phone === undefined) return undefined;
	const key = phoneKey(phone);
	const sharing = [...org.contacts.values()].filter(
		(contact) => contact.phone_number && phoneKey(contact.phone_number) === key,
	);
	if (sharing.length > 1) conflict.phone_shared_by = sharing.map((contact) => contact.id);
	// ties keep the earliest stored contact, so the choice is stable
	return sharing.reduce<Contact | undefined>(
		(best, contact) => (!best || contact.last_activity_at > best.last_activity_at ? contact : best),
		undefined,
	);
}

/** Rule 2: an email shared by several contacts is not used. */
function findByEmail(
	org: Organization,
	email: string | undefined,
	conflict: Conflict,
): Contact | undefined {
	if (email === undefined) return undefined;
	const wanted = email.trim().toLowerCase();
	const sharing = [...org.contacts.values()].filter(
		(contact) => contact.email.trim().toLowerCase() === wanted,
	);
	if (sharing.length > 1) {
		conflict.email_shared = sharing.map((contact) => contact.id);
		return undefined;
	}
	return sharing[0];
}

function found(
	org: Organization,
	contact: Contact,
	matchedBy: MatchedBy,
	data: ContactData,
	conflict: Conflict,
): Resolution {
	fillEmptyFields(contact, data, conflict);
	linkExternalId(org, contact, data.externalId);
	return { contact, matchedBy, created: false, conflict };
}

/**
 * Rule 5: contacts are never merged; a found contact only gets its phone or email when empty.
 * An email that is already in conflict (shared, or another contact's) is not copied around.
 */
function fillEmptyFields(contact: Contact, data: ContactData, conflict: Conflict): void {
	if (!contact.phone_number && data.phone !== undefined) contact.phone_number = data.phone.trim();
	if (
		!contact.email &&
		data.email !== undefined &&
		!conflict.email_shared &&
		!conflict.email_points_to
	) {
		contact.email = data.email.trim();
	}
}

/**
 * The external_id is linked the first time it arrives with data that finds the contact.
 * Decision: an external_id already linked to another contact stays with that one.
 */
function linkExternalId(org: Organization, contact: Contact, externalId: string | undefined): void {
	if (externalId === undefined || contact.external_ids.includes(externalId)) return;
	if (findByExternalId(org, externalId)) return;
	contact.external_ids.push(externalId);
}

/** Rule 4: named from contact.name, else the email, else the phone. */
function createContactFrom(org: Organization, data: ContactData, now: number): Contact {
	const contact: Contact = {
		id: randomUUID(),
		created_at: new Date(now).toISOString(),
		phone_number: data.phone?.trim() ?? '',
		full_name: data.name?.trim() || data.email?.trim() || data.phone?.trim() || '',
		country: data.country ?? '',
		email: data.email?.trim() ?? '',
		description: '',
		additional_data: [],
		organization_id: org.id,
		// Decision: an external_id sent with the creating event is linked to the new contact.
		external_ids: data.externalId === undefined ? [] : [data.externalId],
		// no conversation or call yet
		last_activity_at: 0,
	};
	org.contacts.set(contact.id, contact);
	return contact;
}
