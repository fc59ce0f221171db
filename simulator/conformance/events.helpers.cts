/** Shared helpers of the events conformance tests. */

import type { Simulator } from '../server.cts';
export { addContact, contactByEmail } from '../seed.cts';
import { api, type ApiAnswer } from '../client.cts';

export function postEvents(
	sim: Simulator,
	events: unknown[],
	key?: string | null,
): Promise<ApiAnswer> {
	return api(sim, 'POST', '/v1/events', { body: { events }, key });
}

/** Post one event and return its result. */
export async function postEvent(sim: Simulator, event: unknown): Promise<any> {
	const answer = await postEvents(sim, [event]);
	expect(answer.status).toBe(200);
	return answer.body.data.results[0];
}

export const SUMMARY_KEYS = [
	'received',
	'created',
	'unresolved',
	'pending',
	'duplicate',
	'rejected',
	'invalid',
	'contacts_created',
];
