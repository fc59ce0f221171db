/**
 * One batch of `POST /v1/events`: each event is validated and answered on its own, in request
 * order, and the batch is summarized by status.
 */
import type { SimClock } from '../clock.cts';
import type { Contact, Organization } from '../types.cts';
import { applyGroup } from './companies.cts';
import { resolveContact, type Conflict, type MatchedBy } from './resolveContact.cts';
import {
	anonymousCapReached,
	identifiedContact,
	identifySession,
	keepPending,
} from './sessions.cts';
import { exceedsNameCap, isDuplicate, storeEvent } from './store.cts';
import { validateEvent, type ParsedEvent } from './validateEvent.cts';

export type EventStatus =
	| 'created'
	| 'pending'
	| 'unresolved'
	| 'duplicate'
	| 'rejected'
	| 'invalid';
export type RejectedReason = 'no_identity' | 'anonymous_daily_limit' | 'event_name_limit';

export interface EventResult {
	index: number;
	event_id: string | null;
	event_name?: string;
	original_event_name?: string;
	status: EventStatus;
	reason?: string;
	errors?: string[];
	contact?: { id: string; matched_by: MatchedBy | null; created: boolean };
	conflict?: Conflict;
}

export interface BatchSummary {
	received: number;
	created: number;
	unresolved: number;
	pending: number;
	duplicate: number;
	rejected: number;
	invalid: number;
	contacts_created: number;
}

export interface BatchAnswer {
	summary: BatchSummary;
	results: EventResult[];
}

export function ingestEvents(org: Organization, clock: SimClock, events: unknown[]): BatchAnswer {
	const results = events.map((raw, index) => ingestEvent(org, clock, raw, index));
	return { summary: summarize(results), results };
}

function ingestEvent(org: Organization, clock: SimClock, raw: unknown, index: number): EventResult {
	const validation = validateEvent(raw, clock.now());
	const result: EventResult = {
		index,
		event_id: validation.eventId,
		...(validation.eventName !== undefined ? { event_name: validation.eventName } : {}),
		...(validation.originalEventName !== undefined
			? { original_event_name: validation.originalEventName }
			: {}),
		status: 'invalid',
	};
	const event = validation.event;
	if (!event) return { ...result, errors: validation.errors };

	// an id already stored (by an earlier request or earlier in this one) is never stored twice
	if (isDuplicate(org, event.eventId)) return { ...result, status: 'duplicate' };
	const identified = hasContactData(event);
	if (!identified && event.sessionId === null) return rejected(result, 'no_identity');
	if (exceedsNameCap(org, event.eventName)) return rejected(result, 'event_name_limit');
	return identified
		? withContactData(org, clock, event, result)
		: sessionOnly(org, clock, event, result);
}

function hasContactData(event: ParsedEvent): boolean {
	const { contactId, externalId, phone, email } = event.contact;
	return [contactId, externalId, phone, email].some((field) => field !== undefined);
}

function rejected(result: EventResult, reason: RejectedReason): EventResult {
	return { ...result, status: 'rejected', reason };
}

function withContactData(
	org: Organization,
	clock: SimClock,
	event: ParsedEvent,
	result: EventResult,
): EventResult {
	const resolution = resolveContact(org, event.contact, event.createContact, clock.now());
	const conflict =
		Object.keys(resolution.conflict).length > 0 ? { conflict: resolution.conflict } : {};
	if (!resolution.contact) {
		storeEvent(org, event, clock.iso(), {
			status: 'unresolved',
			contactId: null,
			reason: resolution.reason,
		});
		if (event.group) applyGroup(org, event.group, null);
		return { ...result, status: 'unresolved', reason: resolution.reason, ...conflict };
	}
	const answer = storeOnContact(
		org,
		clock,
		event,
		result,
		resolution.contact,
		resolution.matchedBy,
		resolution.created,
	);
	if (event.sessionId !== null) identifySession(org, event.sessionId, resolution.contact.id);
	return { ...answer, ...conflict };
}

function sessionOnly(
	org: Organization,
	clock: SimClock,
	event: ParsedEvent,
	result: EventResult,
): EventResult {
	const sessionId = event.sessionId!;
	const contact = identifiedContact(org, sessionId);
	if (contact) return storeOnContact(org, clock, event, result, contact, 'session', false);
	if (anonymousCapReached(org, clock.now())) return rejected(result, 'anonymous_daily_limit');
	keepPending(org, clock, event);
	if (event.group) applyGroup(org, event.group, null);
	return { ...result, status: 'pending' };
}

function storeOnContact(
	org: Organization,
	clock: SimClock,
	event: ParsedEvent,
	result: EventResult,
	contact: Contact,
	matchedBy: MatchedBy | null,
	created: boolean,
): EventResult {
	storeEvent(org, event, clock.iso(), { status: 'created', contactId: contact.id });
	if (event.group) applyGroup(org, event.group, contact.id);
	return {
		...result,
		status: 'created',
		contact: { id: contact.id, matched_by: matchedBy, created },
	};
}

function summarize(results: EventResult[]): BatchSummary {
	const count = (status: EventStatus) =>
		results.filter((result) => result.status === status).length;
	return {
		received: results.length,
		created: count('created'),
		unresolved: count('unresolved'),
		pending: count('pending'),
		duplicate: count('duplicate'),
		rejected: count('rejected'),
		invalid: count('invalid'),
		contacts_created: results.filter((result) => result.contact?.created).length,
	};
}
