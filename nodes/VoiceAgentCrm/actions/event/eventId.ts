import type { IDataObject } from 'n8n-workflow';
import { createHash } from 'node:crypto';

/**
 * When the node gives an event without an ID one derived from its content.
 * - `whenTimed` (default): only events that say when they happened. Two rows with the same name,
 *   contact, time and params are the same event, so a derived ID only stops repeats. Without a
 *   time, two identical rows may be two real events (a second identical purchase next week), and
 *   an ID made from their content would drop the second one as a duplicate.
 * - `always`: every event; for sources where identical rows are always repeats of one event.
 * - `never`: events without an ID are sent without one (and a failed batch of them is not repeated).
 */
export type DeriveIds = 'whenTimed' | 'always' | 'never';

export const DERIVED_ID_PREFIX = 'n8n_';

/** Keys sorted at every level, so that the same content always gives the same text. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		let fields = '';
		for (const key of Object.keys(value).sort()) {
			const field = (value as IDataObject)[key];
			if (field === undefined) continue;
			fields += `${fields === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(field)}`;
		}
		return `{${fields}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** What says how to file the event, not what happened: left out of its ID. */
const NOT_CONTENT = new Set(['event_id', 'create_contact']);

/**
 * A stable ID from what the event says happened: its normalized name and the instant it
 * happened (however the time zone is written; `checkEvent` gives it in UTC), its contact, session, params, value, currency
 * and company. `create_contact` is left out: it says how to file the event, not what happened.
 */
export function derivedEventId(
	event: IDataObject,
	normalizedName: string,
	occurredAtUtc: string | undefined,
): string {
	// copied key by key: deleting keys would slow every later read of the object
	const content: IDataObject = {};
	for (const key of Object.keys(event)) if (!NOT_CONTENT.has(key)) content[key] = event[key];
	content.event_name = normalizedName;
	content.occurred_at = occurredAtUtc ?? event.occurred_at;
	const canonical = canonicalJson(content);
	return `${DERIVED_ID_PREFIX}${createHash('sha256').update(canonical).digest('hex')}`;
}

export function shouldDerive(mode: DeriveIds, event: IDataObject): boolean {
	if (event.event_id !== undefined || mode === 'never') return false;
	return mode === 'always' || (event.occurred_at !== undefined && event.occurred_at !== null);
}
