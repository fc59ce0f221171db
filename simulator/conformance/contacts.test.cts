import { randomUUID } from 'node:crypto';

import { startSimulator, type Simulator } from '../index.cts';
import { insertContacts } from '../routes/contacts.cts';
import { tagContact } from '../routes/crm.cts';
import type { Contact, Organization } from '../types.cts';
import { api } from '../client.cts';

const contactByPhone = (org: Organization, phone: string): Contact =>
	[...org.contacts.values()].find((contact) => contact.phone_number === phone)!;

const badRequest = { statusCode: 400, message: expect.any(String) };
const notFound = { statusCode: 404, message: expect.any(String) };

describe('Contacts', () => {
	let sim: Simulator;
	let maria: Contact;
	beforeEach(async () => {
		sim = await startSimulator();
		maria = contactByPhone(sim.org, '+34600000001');
	});
	afterEach(() => sim.stop());

	describe('GET /v1/contacts', () => {
		it('answers {data, pagination: {total_rows}} without the bookkeeping fields', async () => {
			const res = await api(sim, 'GET', '/v1/contacts');
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ data: expect.any(Array), pagination: { total_rows: 3 } });
			expect(Object.keys(res.body.data[0]).sort()).toEqual([
				'additional_data',
				'country',
				'created_at',
				'description',
				'email',
				'full_name',
				'id',
				'organization_id',
				'phone_number',
			]);
		});

		it.each([
			['full_name', 'GARCÍA'],
			['email', 'MARIA@'],
			['phone_number', '6000000'],
		])('matches %s partially and case-insensitively', async (field, needle) => {
			const res = await api(sim, 'GET', '/v1/contacts', { query: { [field]: needle } });
			expect(res.body.data.map((c: Contact) => c.id)).toEqual([maria.id]);
			expect(res.body.pagination.total_rows).toBe(1);
		});

		it('combines filters: every one must match', async () => {
			const res = await api(sim, 'GET', '/v1/contacts', {
				query: { full_name: 'maría', email: 'john' },
			});
			expect(res.body).toEqual({ data: [], pagination: { total_rows: 0 } });
		});

		it('returns 100 contacts by default and reports the total', async () => {
			insertContacts(sim, sim.org, 150);
			const res = await api(sim, 'GET', '/v1/contacts');
			expect(res.body.data).toHaveLength(100);
			expect(res.body.pagination.total_rows).toBe(153);
		});

		it('accepts limit 1000 and answers 400 above it', async () => {
			expect((await api(sim, 'GET', '/v1/contacts', { query: { limit: 1000 } })).status).toBe(200);
			const res = await api(sim, 'GET', '/v1/contacts', { query: { limit: 1001 } });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(/limit/);
		});

		it('answers 400 for a limit or offset that is not a whole number', async () => {
			expect((await api(sim, 'GET', '/v1/contacts', { query: { limit: 'ten' } })).body).toEqual(
				badRequest,
			);
			expect((await api(sim, 'GET', '/v1/contacts', { query: { offset: -1 } })).status).toBe(400);
			expect((await api(sim, 'GET', '/v1/contacts', { query: { limit: 0 } })).status).toBe(400);
		});

		it('pages through 25,000 contacts with limit and offset, within the listing budget', async () => {
			insertContacts(sim, sim.org, 24_997);
			const seen = new Set<string>();
			for (let offset = 0; ; offset += 1000) {
				const res = await api(sim, 'GET', '/v1/contacts', { query: { limit: 1000, offset } });
				expect(res.status).toBe(200);
				for (const contact of res.body.data) seen.add(contact.id);
				if (offset + 1000 >= res.body.pagination.total_rows) break;
				if (res.headers.get('x-ratelimit-remaining-heavy') === '0') await sim.clock.advance(60_000);
			}
			expect(seen.size).toBe(25_000);
		});

		it('draws on the listing budget: -Heavy headers, then 429', async () => {
			const small = await startSimulator({ limits: { listing: 2 } });
			try {
				const first = await api(small, 'GET', '/v1/contacts');
				expect(first.headers.get('x-ratelimit-limit-heavy')).toBe('2');
				expect(first.headers.get('x-ratelimit-remaining-heavy')).toBe('1');
				await api(small, 'GET', '/v1/contacts');
				const rejected = await api(small, 'GET', '/v1/contacts');
				expect(rejected.status).toBe(429);
				expect(rejected.body).toEqual({ statusCode: 429, message: expect.any(String) });
			} finally {
				await small.stop();
			}
		});

		it('answers 401 without a key and never lists another organization', async () => {
			expect((await api(sim, 'GET', '/v1/contacts', { key: null })).status).toBe(401);
			const other = await api(sim, 'GET', '/v1/contacts', { key: sim.otherOrg.apiKey });
			expect(other.body.data.every((c: Contact) => c.organization_id === sim.otherOrg.id)).toBe(
				true,
			);
		});
	});

	describe('POST /v1/contacts (inferred)', () => {
		it('creates a contact: 201 {statusCode, data: Contact}', async () => {
			const res = await api(sim, 'POST', '/v1/contacts', {
				body: {
					phone_number: '+5215512345678',
					full_name: 'Rosa Díaz',
					additional_data: [{ type: 'text', field: 'plan', value: 'gold' }],
				},
			});
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				statusCode: 201,
				data: {
					id: expect.stringMatching(/^[0-9a-f-]{36}$/),
					created_at: expect.any(String),
					phone_number: '+5215512345678',
					full_name: 'Rosa Díaz',
					country: '',
					email: '',
					description: '',
					additional_data: [{ type: 'text', field: 'plan', value: 'gold' }],
					organization_id: sim.org.id,
				},
			});
		});

		it('answers 400 without phone_number or when it is not E.164', async () => {
			expect(
				(await api(sim, 'POST', '/v1/contacts', { body: { full_name: 'No Phone' } })).body,
			).toEqual(badRequest);
			const local = await api(sim, 'POST', '/v1/contacts', {
				body: { phone_number: '600 000 002' },
			});
			expect(local.status).toBe(400);
			expect(local.body.message).toMatch(/phone_number.*E\.164/);
		});

		it('answers 409 on a duplicate phone number', async () => {
			const res = await api(sim, 'POST', '/v1/contacts', {
				body: { phone_number: maria.phone_number },
			});
			expect(res.status).toBe(409);
			expect(res.body).toEqual({ statusCode: 409, message: expect.any(String) });
		});

		it('answers 400 for an unknown field or a body that is not an object', async () => {
			const unknown = await api(sim, 'POST', '/v1/contacts', {
				body: { phone_number: '+34600000099', name: 'x' },
			});
			expect(unknown.status).toBe(400);
			expect(unknown.body.message).toMatch(/name/);
			expect((await api(sim, 'POST', '/v1/contacts', { body: ['x'] })).status).toBe(400);
		});
	});

	describe('PATCH /v1/contacts/{contactId}', () => {
		it('changes only the supplied fields and answers the bare contact', async () => {
			const res = await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
				body: { description: 'Prefers mornings' },
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ ...visible(maria), description: 'Prefers mornings' });
			expect(res.body.full_name).toBe('María García');
		});

		it('replaces additional_data as a whole, no merge', async () => {
			await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
				body: { additional_data: [{ type: 'text', field: 'a', value: '1' }] },
			});
			const res = await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
				body: { additional_data: [{ type: 'date', field: 'b', value: '2024-01-01' }] },
			});
			expect(res.body.additional_data).toEqual([{ type: 'date', field: 'b', value: '2024-01-01' }]);
		});

		it.each([
			[
				'an additional_data item without value',
				{ additional_data: [{ type: 'text', field: 'a' }] },
				/additional_data\[0\]\.value/,
			],
			[
				'additional_data that is not an array',
				{ additional_data: { type: 'text' } },
				/additional_data/,
			],
			['a number where a string is expected', { full_name: 42 }, /full_name/],
			['a malformed email', { email: 'not-an-email' }, /email/],
			['a phone number that is not E.164', { phone_number: '0034600' }, /phone_number/],
		])('answers 400 for %s', async (_case, body, message) => {
			const res = await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, { body });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(message);
		});

		it("answers 400 for a malformed id, 404 for an unknown one or another organization's", async () => {
			expect((await api(sim, 'PATCH', '/v1/contacts/not-a-uuid', { body: {} })).body).toEqual(
				badRequest,
			);
			expect((await api(sim, 'PATCH', `/v1/contacts/${randomUUID()}`, { body: {} })).body).toEqual(
				notFound,
			);
			const foreign = [...sim.otherOrg.contacts.values()][0];
			const res = await api(sim, 'PATCH', `/v1/contacts/${foreign.id}`, {
				body: { full_name: 'Hijack' },
			});
			expect(res.status).toBe(404);
			expect(foreign.full_name).not.toBe('Hijack');
		});

		it('answers 409 when the update would duplicate a phone number, 200 for its own number', async () => {
			const john = contactByPhone(sim.org, '+14155550123');
			const clash = await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
				body: { phone_number: john.phone_number },
			});
			expect(clash.status).toBe(409);
			expect(clash.body).toEqual({ statusCode: 409, message: expect.any(String) });
			expect(
				(
					await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
						body: { phone_number: maria.phone_number },
					})
				).status,
			).toBe(200);
		});

		it('another organization may hold the same phone number', async () => {
			const [foreign] = insertContacts(sim, sim.otherOrg, 1);
			const res = await api(sim, 'PATCH', `/v1/contacts/${maria.id}`, {
				body: { phone_number: foreign.phone_number },
			});
			expect(res.status).toBe(200);
			expect(res.body.phone_number).toBe(foreign.phone_number);
		});
	});

	describe('DELETE /v1/contacts/{contactId}', () => {
		it('deletes: {statusCode: 200, data: true}, then 404', async () => {
			const res = await api(sim, 'DELETE', `/v1/contacts/${maria.id}`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ statusCode: 200, data: true });
			expect((await api(sim, 'DELETE', `/v1/contacts/${maria.id}`)).body).toEqual(notFound);
		});

		it("answers 400 for a malformed id and 404 for another organization's contact", async () => {
			expect((await api(sim, 'DELETE', '/v1/contacts/123')).body).toEqual(badRequest);
			const foreign = [...sim.otherOrg.contacts.values()][0];
			expect((await api(sim, 'DELETE', `/v1/contacts/${foreign.id}`)).status).toBe(404);
			expect(sim.otherOrg.contacts.has(foreign.id)).toBe(true);
		});
	});

	describe('GET /v1/contacts/{contactId}/tags', () => {
		it("lists the contact's tags in {statusCode, data}", async () => {
			const vip = [...sim.org.tags.values()][0];
			tagContact(sim.org, maria.id, vip.id);
			const res = await api(sim, 'GET', `/v1/contacts/${maria.id}/tags`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ statusCode: 200, data: [vip] });
		});

		it('answers an empty list for an untagged contact, 404 for unknown and foreign contacts', async () => {
			expect((await api(sim, 'GET', `/v1/contacts/${maria.id}/tags`)).body).toEqual({
				statusCode: 200,
				data: [],
			});
			expect((await api(sim, 'GET', `/v1/contacts/${randomUUID()}/tags`)).body).toEqual(notFound);
			expect((await api(sim, 'GET', '/v1/contacts/not-a-uuid/tags')).status).toBe(404);
			const foreign = [...sim.otherOrg.contacts.values()][0];
			expect((await api(sim, 'GET', `/v1/contacts/${foreign.id}/tags`)).status).toBe(404);
		});
	});

	describe('GET /v1/contacts/{contactId}/comments (inferred)', () => {
		it("lists the contact's comments, newest first, in {statusCode, data}", async () => {
			for (const content of ['first', 'second']) {
				await api(sim, 'POST', '/v1/comments', {
					body: { content, contact_id: maria.id, created_by_type: 'SYSTEM' },
				});
				await sim.clock.advance(1000);
			}
			const res = await api(sim, 'GET', `/v1/contacts/${maria.id}/comments`);
			expect(res.status).toBe(200);
			expect(res.body.statusCode).toBe(200);
			expect(res.body.data.map((c: { content: string }) => c.content)).toEqual(['second', 'first']);
			expect(Object.keys(res.body.data[0]).sort()).toEqual([
				'content',
				'created_at',
				'created_by',
				'id',
			]);
		});

		it("answers 404 for another organization's contact", async () => {
			const foreign = [...sim.otherOrg.contacts.values()][0];
			expect((await api(sim, 'GET', `/v1/contacts/${foreign.id}/comments`)).body).toEqual(notFound);
		});
	});
});

function visible(contact: Contact): Omit<Contact, 'external_ids' | 'last_activity_at'> {
	const { external_ids: _ids, last_activity_at: _activity, ...rest } = contact;
	return rest;
}
