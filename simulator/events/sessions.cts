/**
 * Anonymous events (a session_id and no contact data): kept `pending` up to 30 days, moved to the
 * contact when the session is identified, capped per organization and calendar day (UTC).
 */
import type { SimClock } from '../clock.cts';
import type { Contact, Organization, StoredEvent } from '../types.cts';
import { linkContact } from './companies.cts';
import { removeEvent, storeEvent } from './store.cts';
import type { ParsedEvent } from './validateEvent.cts';

export const PENDING_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The contact a session was identified with, if it still exists. */
export function identifiedContact(org: Organization, sessionId: string): Contact | undefined {
	const contactId = org.sessions.get(sessionId);
	return contactId === undefined ? undefined : org.contacts.get(contactId);
}

function utcDay(at: number): string {
	return new Date(at).toISOString().slice(0, 10);
}

/**
 * Decision (reference silent on what counts): the daily cap counts the events kept pending, by
 * arrival day; session-only events of an identified session go to a contact and do not count.
 */
export function anonymousCapReached(org: Organization, now: number): boolean {
	return (org.anonymousPerDay.get(utcDay(now)) ?? 0) >= org.anonymousDailyCap;
}

export function keepPending(org: Organization, clock: SimClock, event: ParsedEvent): StoredEvent {
	const now = clock.now();
	const day = utcDay(now);
	org.anonymousPerDay.set(day, (org.anonymousPerDay.get(day) ?? 0) + 1);
	const stored = storeEvent(org, event, clock.iso(now), { status: 'pending', contactId: null });
	clock.schedule(now + PENDING_RETENTION_MS, () => {
		if (stored.status === 'pending') removeEvent(org, stored);
	});
	return stored;
}

/**
 * An event with the session_id and contact data identifies the session: its pending events move
 * to the contact with their original occurred_at. Decision (reference silent): a session is
 * identified once; a later event that finds another contact does not move it.
 */
export function identifySession(org: Organization, sessionId: string, contactId: string): void {
	if (identifiedContact(org, sessionId)) return;
	org.sessions.set(sessionId, contactId);
	for (const event of org.events) {
		if (event.session_id !== sessionId || event.status !== 'pending') continue;
		event.status = 'created';
		event.contact_id = contactId;
		if (event.company_id !== null) linkContact(org, event.company_id, contactId);
	}
}
