/** Shared helpers of the events conformance tests. */
import { randomUUID } from 'node:crypto';

import type { Simulator } from '../server';
import type { Contact, Organization } from '../types';
import { api, type ApiAnswer } from './client';

export function postEvents(sim: Simulator, events: unknown[], key?: string | null): Promise<ApiAnswer> {
	return api(sim, 'POST', '/v1/events', { body: { events }, key });
}

/** Post one event and return its result. */
export async function postEvent(sim: Simulator, event: unknown): Promise<any> {
	const answer = await postEvents(sim, [event]);
	expect(answer.status).toBe(200);
	return answer.body.data.results[0];
}

/** A contact written straight into the store, for the resolution rules that need shared data. */
export function addContact(org: Organization, fields: Partial<Contact> = {}): Contact {
	const contact: Contact = {
		id: randomUUID(),
		created_at: new Date().toISOString(),
		phone_number: '',
		full_name: 'Test contact',
		country: '',
		email: '',
		description: '',
		additional_data: [],
		organization_id: org.id,
		external_ids: [],
		last_activity_at: 0,
		...fields,
	};
	org.contacts.set(contact.id, contact);
	return contact;
}

export function contactByEmail(org: Organization, email: string): Contact {
	const contact = [...org.contacts.values()].find((c) => c.email === email);
	if (!contact) throw new Error(`no contact with email ${email}`);
	return contact;
}

export const SUMMARY_KEYS = ['received', 'created', 'unresolved', 'pending', 'duplicate', 'rejected', 'invalid', 'contacts_created'];
