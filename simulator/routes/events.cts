/** `POST /v1/events`: batches of business events, on the events budgets (not the org budget). */
import { ingestEvents } from '../events/ingest.cts';
import { hasContactIdentifier, isPlainObject } from '../events/validateEvent.cts';
import type { BudgetName } from '../rateLimit.cts';
import { apiError, envelope, type RouteDef, type SimRequest } from '../server.cts';

export const MAX_EVENTS_PER_REQUEST = 100;

function batchOf(body: unknown): unknown[] | undefined {
	return isPlainObject(body) && Array.isArray(body.events) ? body.events : undefined;
}

/** An anonymous event: a session_id and none of the data that identifies a contact. */
function isAnonymous(event: unknown): boolean {
	return (
		isPlainObject(event) &&
		typeof event.session_id === 'string' &&
		!hasContactIdentifier(event.contact)
	);
}

/** Requests that carry anonymous events also draw on the extra, smaller anonymous budget. */
function eventsBudgets(req: SimRequest): BudgetName[] {
	return batchOf(req.body)?.some(isAnonymous) ? ['events', 'eventsAnonymous'] : ['events'];
}

/**
 * Decision (reference silent): the body check counts the array's length only; an item that is
 * not an object is answered `invalid` on its own, as "a malformed event does not reject the others".
 */
function ingest(req: SimRequest) {
	if (!req.org.eventsAddon) {
		return apiError(403, 'Forbidden: the events add-on is not enabled for this organization');
	}
	const events = batchOf(req.body);
	if (!events || events.length < 1 || events.length > MAX_EVENTS_PER_REQUEST) {
		return apiError(
			400,
			`Body must be {"events": [...]} with 1 to ${MAX_EVENTS_PER_REQUEST} event objects`,
		);
	}
	return envelope(ingestEvents(req.org, req.sim.clock, events));
}

export const eventsRoutes: RouteDef[] = [
	{ method: 'POST', pattern: '/v1/events', budgets: eventsBudgets, handler: ingest },
];
