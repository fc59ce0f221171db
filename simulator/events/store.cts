/** Where accepted events live: `org.events`, indexed by `event_id` and by distinct name. */
import { randomUUID } from 'node:crypto';

import type { Organization, StoredEvent } from '../types.cts';
import type { ParsedEvent } from './validateEvent.cts';

export type StoredStatus = StoredEvent['status'];

export type StoredEventFilter = Partial<
	Pick<
		StoredEvent,
		'status' | 'contact_id' | 'session_id' | 'event_id' | 'event_name' | 'company_id'
	>
>;

/** Events the organization holds (created, pending and unresolved), for tests to inspect. */
export function storedEvents(org: Organization, filter: StoredEventFilter = {}): StoredEvent[] {
	return org.events.filter((event) =>
		Object.entries(filter).every(([key, value]) => event[key as keyof StoredEvent] === value),
	);
}

export function isDuplicate(org: Organization, eventId: string | null): boolean {
	return eventId !== null && org.eventIds.has(eventId);
}

/** A name the organization has not used yet counts against its distinct-name cap. */
export function exceedsNameCap(org: Organization, eventName: string): boolean {
	return !org.eventNames.has(eventName) && org.eventNames.size >= org.eventNameCap;
}

export function storeEvent(
	org: Organization,
	event: ParsedEvent,
	receivedAt: string,
	outcome: { status: StoredStatus; contactId: string | null; reason?: string },
): StoredEvent {
	const stored: StoredEvent = {
		id: randomUUID(),
		event_id: event.eventId,
		event_name: event.eventName,
		occurred_at: event.occurredAt,
		received_at: receivedAt,
		contact_id: outcome.contactId,
		session_id: event.sessionId,
		params: event.params,
		value: event.value,
		currency: event.currency,
		company_id: event.group?.id ?? null,
		status: outcome.status,
		reason: outcome.reason ?? null,
	};
	org.events.push(stored);
	if (stored.event_id !== null) org.eventIds.set(stored.event_id, stored);
	org.eventNames.add(stored.event_name);
	return stored;
}

/** Retention: a removed event leaves no trace, so its event_id may be sent again. */
export function removeEvent(org: Organization, stored: StoredEvent): void {
	const at = org.events.indexOf(stored);
	if (at >= 0) org.events.splice(at, 1);
	if (stored.event_id !== null && org.eventIds.get(stored.event_id) === stored)
		org.eventIds.delete(stored.event_id);
}
