/** Events ingestion, contact resolution: the order of identifiers, rules 1 to 5, companies. */
import { randomUUID } from 'node:crypto';

import { storedEvents } from '../events/store.cts';
import { startSimulator, type Simulator } from '../index.cts';
import type { Contact } from '../types.cts';
import { addContact, contactByEmail, postEvent, postEvents } from './events.helpers.cts';

describe('POST /v1/events: contact resolution', () => {
	let sim: Simulator;
	let maria: Contact;
	let john: Contact;
	beforeEach(async () => {
		sim = await startSimulator();
		maria = contactByEmail(sim.org, 'maria@example.test');
		john = contactByEmail(sim.org, 'john@example.test');
	});
	afterEach(() => sim.stop());

	const send = (contact: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
		postEvent(sim, { event_name: 'purchase', contact, ...extra });

	describe('identifiers, first match wins', () => {
		it('contact_id finds the contact and wins over a phone of another contact', async () => {
			const result = await send({ contact_id: maria.id, phone: john.phone_number });
			expect(result).toMatchObject({
				status: 'created',
				contact: { id: maria.id, matched_by: 'contact_id', created: false },
			});
			expect(result).not.toHaveProperty('conflict');
			expect(storedEvents(sim.org, { contact_id: maria.id })).toHaveLength(1);
		});

		it('an unknown contact_id is reported in conflict and the next identifier is tried', async () => {
			const unknown = randomUUID();
			const result = await send({ contact_id: unknown, email: 'john@example.test' });
			expect(result).toMatchObject({
				status: 'created',
				contact: { id: john.id, matched_by: 'email', created: false },
				conflict: { contact_id_not_found: unknown },
			});
		});

		it('a contact of another organization is not found', async () => {
			const foreign = [...sim.otherOrg.contacts.values()][0];
			const result = await send({ contact_id: foreign.id });
			expect(result).toMatchObject({
				status: 'unresolved',
				reason: 'not_found',
				conflict: { contact_id_not_found: foreign.id },
			});
			expect(sim.otherOrg.events).toHaveLength(0);
		});

		it('external_id is linked the first time it comes with data that finds the contact, then finds it alone', async () => {
			const unknownAlone = await send({ external_id: 'crm-42' });
			expect(unknownAlone).toMatchObject({ status: 'unresolved', reason: 'not_found' });
			const linking = await send({ external_id: 'crm-42', email: 'maria@example.test' });
			expect(linking.contact).toEqual({ id: maria.id, matched_by: 'email', created: false });
			expect(maria.external_ids).toEqual(['crm-42']);
			const alone = await send({ external_id: 'crm-42' });
			expect(alone.contact).toEqual({ id: maria.id, matched_by: 'external_id', created: false });
			// external_id comes before phone
			const withPhone = await send({ external_id: 'crm-42', phone: john.phone_number });
			expect(withPhone.contact).toEqual({
				id: maria.id,
				matched_by: 'external_id',
				created: false,
			});
		});

		it('phone is compared by its last 10 digits', async () => {
			// +1 415 555 0123 written without the country code and with separators
			const result = await send({ phone: '(415) 555-0123' });
			expect(result.contact).toEqual({ id: john.id, matched_by: 'phone', created: false });
		});

		it('email is compared without regard to case', async () => {
			const result = await send({ email: 'MARIA@Example.TEST' });
			expect(result.contact).toEqual({ id: maria.id, matched_by: 'email', created: false });
		});
	});

	describe('rules', () => {
		it('rule 1: a shared phone goes to the contact with the most recent conversation or call', async () => {
			const older = addContact(sim.org, {
				phone_number: '+447700900123',
				last_activity_at: sim.clock.now() - 10_000,
			});
			const recent = addContact(sim.org, {
				phone_number: '+44 7700 900123',
				last_activity_at: sim.clock.now() - 1_000,
			});
			const result = await send({ phone: '+447700900123' });
			expect(result.contact).toEqual({ id: recent.id, matched_by: 'phone', created: false });
			expect(result.conflict.phone_shared_by.sort()).toEqual([older.id, recent.id].sort());
		});

		it('rule 2: an email shared by several contacts is not used; alone it leaves the event unresolved', async () => {
			const first = addContact(sim.org, { email: 'team@acme.test' });
			const second = addContact(sim.org, { email: 'TEAM@acme.test' });
			const contactsBefore = sim.org.contacts.size;
			const res = await postEvents(sim, [
				{ event_name: 'purchase', event_id: 'amb-1', contact: { email: 'team@acme.test' } },
			]);
			const [result] = res.body.data.results;
			expect(result).toEqual({
				index: 0,
				event_id: 'amb-1',
				event_name: 'purchase',
				status: 'unresolved',
				reason: 'ambiguous_email',
				conflict: { email_shared: [first.id, second.id] },
			});
			expect(res.body.data.summary).toMatchObject({
				unresolved: 1,
				created: 0,
				contacts_created: 0,
			});
			expect(sim.org.contacts.size).toBe(contactsBefore);
			expect(storedEvents(sim.org, { event_id: 'amb-1' })[0]).toMatchObject({
				status: 'unresolved',
				contact_id: null,
				reason: 'ambiguous_email',
			});
		});

		it('rule 2: with a shared email the phone decides', async () => {
			addContact(sim.org, { email: 'team@acme.test' });
			addContact(sim.org, { email: 'team@acme.test' });
			const result = await send({ email: 'team@acme.test', phone: maria.phone_number });
			expect(result).toMatchObject({
				status: 'created',
				contact: { id: maria.id, matched_by: 'phone' },
				conflict: { email_shared: expect.any(Array) },
			});
			expect(maria.email).toBe('maria@example.test');
		});

		it('rule 3: phone and email of different contacts: the phone wins and conflict says so', async () => {
			const result = await send({ phone: maria.phone_number, email: 'john@example.test' });
			expect(result).toMatchObject({
				status: 'created',
				contact: { id: maria.id, matched_by: 'phone', created: false },
				conflict: { email_points_to: john.id },
			});
			expect(maria.email).toBe('maria@example.test');
		});

		it('rule 4: nothing matches: a contact is created from the event, named after contact.name', async () => {
			const res = await postEvents(sim, [
				{
					event_name: 'signup',
					contact: {
						email: 'new@example.test',
						phone: '+33612345678',
						name: 'Nina Noor',
						country: 'FR',
					},
				},
			]);
			const [result] = res.body.data.results;
			expect(result.contact).toEqual({ id: expect.any(String), matched_by: null, created: true });
			expect(res.body.data.summary).toMatchObject({ created: 1, contacts_created: 1 });
			expect(sim.org.contacts.get(result.contact.id)).toMatchObject({
				full_name: 'Nina Noor',
				email: 'new@example.test',
				phone_number: '+33612345678',
				country: 'FR',
				organization_id: sim.org.id,
			});
			// the next event finds it
			expect((await send({ email: 'new@example.test' })).contact).toEqual({
				id: result.contact.id,
				matched_by: 'email',
				created: false,
			});
		});

		it('rule 4: without a name the contact is named after the email, else the phone', async () => {
			const byEmail = await send({ email: 'only@example.test' });
			const byPhone = await send({ phone: '+33699999999' });
			expect(sim.org.contacts.get(byEmail.contact.id)!.full_name).toBe('only@example.test');
			expect(sim.org.contacts.get(byPhone.contact.id)!.full_name).toBe('+33699999999');
		});

		it('rule 4: create_contact false leaves the event unresolved with not_found', async () => {
			const contactsBefore = sim.org.contacts.size;
			const result = await send(
				{ email: 'nobody@example.test' },
				{ create_contact: false, event_id: 'nf-1' },
			);
			expect(result).toEqual({
				index: 0,
				event_id: 'nf-1',
				event_name: 'purchase',
				status: 'unresolved',
				reason: 'not_found',
			});
			expect(sim.org.contacts.size).toBe(contactsBefore);
			expect(storedEvents(sim.org, { event_id: 'nf-1', status: 'unresolved' })).toHaveLength(1);
			// existing contacts still receive events with create_contact false
			expect((await send({ email: 'maria@example.test' }, { create_contact: false })).status).toBe(
				'created',
			);
		});

		it('rule 4: the plan contact quota: contact_limit_reached, stored without a contact', async () => {
			sim.org.contactQuota = sim.org.contacts.size;
			const res = await postEvents(sim, [
				{ event_name: 'signup', event_id: 'q-1', contact: { email: 'over@example.test' } },
				{ event_name: 'signup', contact: { email: 'maria@example.test' } },
			]);
			const [overQuota, existing] = res.body.data.results;
			expect(overQuota).toEqual({
				index: 0,
				event_id: 'q-1',
				event_name: 'signup',
				status: 'unresolved',
				reason: 'contact_limit_reached',
			});
			expect(existing.status).toBe('created');
			expect(res.body.data.summary).toMatchObject({
				unresolved: 1,
				created: 1,
				contacts_created: 0,
			});
			expect(storedEvents(sim.org, { event_id: 'q-1' })[0]).toMatchObject({
				status: 'unresolved',
				reason: 'contact_limit_reached',
			});
		});

		it('rule 5: a found contact gets an empty phone or email filled in, never overwritten, never merged', async () => {
			const noEmail = addContact(sim.org, { phone_number: '+491701234567' });
			await send({ phone: '+491701234567', email: 'filled@example.test' });
			expect(noEmail.email).toBe('filled@example.test');
			const noPhone = addContact(sim.org, { email: 'nophone@example.test' });
			await send({ email: 'nophone@example.test', phone: '+491709999999' });
			expect(noPhone.phone_number).toBe('+491709999999');
			const contactsBefore = sim.org.contacts.size;
			await send({ phone: maria.phone_number, email: 'another@example.test' });
			expect(maria.email).toBe('maria@example.test');
			expect(sim.org.contacts.size).toBe(contactsBefore);
		});
	});

	describe('companies (group)', () => {
		it('the first event with a group id creates the company and links the contact; later ones update it', async () => {
			await send(
				{ email: 'maria@example.test' },
				{ group: { id: 'acme-1', name: 'Acme', properties: { plan: 'pro', seats: 5 } } },
			);
			expect(sim.org.companies.get('acme-1')).toEqual({
				id: 'acme-1',
				name: 'Acme',
				properties: { plan: 'pro', seats: 5 },
				contact_ids: [maria.id],
			});
			await send(
				{ email: 'john@example.test' },
				{ group: { id: 'acme-1', name: 'Acme Inc', properties: { seats: 8, region: 'EU' } } },
			);
			expect(sim.org.companies.get('acme-1')).toEqual({
				id: 'acme-1',
				name: 'Acme Inc',
				properties: { plan: 'pro', seats: 8, region: 'EU' },
				contact_ids: [maria.id, john.id],
			});
			expect(storedEvents(sim.org, { contact_id: john.id })[0].company_id).toBe('acme-1');
		});
	});
});
