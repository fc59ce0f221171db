import type { INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { startSimulator, insertContacts, tagContact } from '../../simulator/index.cts';
import type { Contact, Simulator } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Contact operations through the engine', () => {
	let sim: Simulator;
	const run = (
		parameters: INodeParameters,
		extra: Omit<RunNodeOptions, 'credentials' | 'parameters'> = {},
	) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'contact', ...parameters },
			...extra,
		});
	const contactNamed = (name: string): Contact =>
		[...sim.org.contacts.values()].find((c) => c.full_name === name)!;

	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('Create stores the contact with the fields given and outputs it', async () => {
		const { items, error } = await run({
			operation: 'create',
			phoneNumber: '+34611222333',
			additionalFields: {
				fullName: 'Ana Torres',
				email: 'ana@example.com',
				country: 'ES',
				description: 'Met at the fair',
				additionalData: { entries: [{ type: 'text', field: 'plan', value: 'premium' }] },
			},
		});
		expect(error).toBeUndefined();
		const stored = contactNamed('Ana Torres');
		expect(stored).toMatchObject({
			phone_number: '+34611222333',
			email: 'ana@example.com',
			country: 'ES',
			description: 'Met at the fair',
			additional_data: [{ type: 'text', field: 'plan', value: 'premium' }],
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: stored.id, phone_number: '+34611222333' });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const [sent] = sim.requestsTo('POST', '/v1/contacts');
		expect(sent.body).toEqual({
			phone_number: '+34611222333',
			full_name: 'Ana Torres',
			email: 'ana@example.com',
			country: 'ES',
			description: 'Met at the fair',
			additional_data: [{ type: 'text', field: 'plan', value: 'premium' }],
		});
	});

	it('Create with a phone number another contact has fails with the 409 explained, once', async () => {
		const before = sim.requestsTo('POST', '/v1/contacts').length;
		const { error } = await run({ operation: 'create', phoneNumber: '+34611222333' });
		expect(error?.message).toMatch(/already has this phone number/);
		expect(sim.requestsTo('POST', '/v1/contacts').length).toBe(before + 1);
	});

	it('Update sends only the fields added and keeps the others', async () => {
		const maria = contactNamed('María García');
		const { items, error } = await run({
			operation: 'update',
			contactId: byId(maria.id),
			updateFields: { email: 'maria.g@example.com' },
		});
		expect(error).toBeUndefined();
		const sent = sim.requestsTo('PATCH', `/v1/contacts/${maria.id}`).at(-1)!;
		expect(sent.body).toEqual({ email: 'maria.g@example.com' });
		expect(sim.org.contacts.get(maria.id)).toMatchObject({
			email: 'maria.g@example.com',
			phone_number: '+34600000001',
			full_name: 'María García',
		});
		expect(items[0].json).toMatchObject({ id: maria.id, email: 'maria.g@example.com' });
	});

	it('Update replaces the whole additional data list, and an empty list clears it', async () => {
		const john = contactNamed('John Smith');
		sim.org.contacts.get(john.id)!.additional_data = [
			{ type: 'text', field: 'old', value: 'gone' },
		];
		const rows = [
			{ type: 'date', field: 'birthday', value: '1990-04-01' },
			{ type: 'number', field: 'score', value: '42' },
		];
		const replaced = await run({
			operation: 'update',
			contactId: byId(john.id),
			updateFields: { additionalData: { entries: rows } },
		});
		expect(replaced.error).toBeUndefined();
		expect(sim.org.contacts.get(john.id)!.additional_data).toEqual(rows);

		const cleared = await run({
			operation: 'update',
			contactId: byId(john.id),
			updateFields: { additionalData: {} },
		});
		expect(cleared.error).toBeUndefined();
		expect(sim.requestsTo('PATCH', `/v1/contacts/${john.id}`).at(-1)!.body).toEqual({
			additional_data: [],
		});
		expect(sim.org.contacts.get(john.id)!.additional_data).toEqual([]);
	});

	it('Get Many filters by part of the name, one item per contact', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { fullName: 'garc' },
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.full_name)).toEqual(['María García']);
		expect(sim.requestsTo('GET', '/v1/contacts').at(-1)!.query).toMatchObject({
			full_name: 'garc',
		});
	});

	it('Get Tags outputs the tags attached to the contact', async () => {
		const lucas = contactNamed('Lucas Pereira');
		const [vip] = sim.org.tags.values();
		tagContact(sim.org, lucas.id, vip.id);
		const { items, error } = await run({ operation: 'getTags', contactId: byId(lucas.id) });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([vip]);
	});

	it('Get Comments outputs the comments of each input contact, paired to its item', async () => {
		const lucas = contactNamed('Lucas Pereira');
		const john = contactNamed('John Smith');
		sim.org.comments.set('c-1', {
			id: 'c-1',
			contact_id: lucas.id,
			content: 'Wants a demo',
			created_by: 'AI',
			created_at: sim.clock.iso(),
		});
		const { items, error } = await run(
			{ operation: 'getComments', contactId: byId('={{ $json.contact }}') },
			{ items: [{ contact: john.id }, { contact: lucas.id }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: 'c-1', content: 'Wants a demo', created_by: 'AI' });
		expect(items[0].pairedItem).toEqual({ item: 1 });
	});

	it('Delete removes the contact and outputs {deleted, id}', async () => {
		const lucas = contactNamed('Lucas Pereira');
		const { items, error } = await run({ operation: 'delete', contactId: byId(lucas.id) });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ deleted: true, id: lucas.id }]);
		expect(sim.org.contacts.has(lucas.id)).toBe(false);
	});
});

describe('Contact → Get Many over thousands of contacts', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false });
		insertContacts(sim, sim.org, 2_500);
	});
	afterAll(() => sim.stop());
	const listings = () => sim.requestsTo('GET', '/v1/contacts');

	it('Return All over 2,500 contacts makes 3 listing requests and outputs every contact once', async () => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		});
		expect(error).toBeUndefined();
		expect(listings()).toHaveLength(3);
		expect(listings().map((r) => r.query)).toEqual([
			{ limit: '1000', offset: '0' },
			{ limit: '1000', offset: '1000' },
			{ limit: '1000', offset: '2000' },
		]);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(2_500);
		expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('Limit 150 makes exactly one listing request for 150 contacts', async () => {
		const before = listings().length;
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 150 },
		});
		expect(error).toBeUndefined();
		expect(
			listings()
				.slice(before)
				.map((r) => r.query),
		).toEqual([{ limit: '150', offset: '0' }]);
		expect(items).toHaveLength(150);
	});
});
