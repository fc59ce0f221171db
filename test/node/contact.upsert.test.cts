import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import {
	addContact,
	insertContacts,
	startSimulator,
	type Simulator,
} from '../../simulator/index.cts';
import { csvFile, UNLIMITED, upsertFile, upsertItems, WRITES } from '../helpers/upsert.cts';

describe('Contact → Create or Update through the engine against the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false, limits: UNLIMITED });
	});
	afterAll(() => sim.stop());

	const upsert = (rows: IDataObject[], parameters: INodeParameters = {}, continueOnFail = false) =>
		upsertItems(sim, rows, parameters, continueOnFail);
	const since = (before: number) => sim.requests.slice(before);
	const writes = (before: number) => since(before).filter((r) => WRITES.test(r.method));
	const listings = (before: number) =>
		since(before).filter((r) => r.method === 'GET' && r.path === '/v1/contacts');
	const withPhone = (phone: string) =>
		[...sim.org.contacts.values()].filter((c) => c.phone_number === phone);

	it('creates a new contact, updates only the fields that differ, and a re-run changes nothing', async () => {
		const ana = addContact(sim.org, {
			phone_number: '+34600000001',
			full_name: 'Ana',
			email: 'ana@example.com',
			country: 'ES',
		});
		const rows = [
			{ phone: '+34 600 000 001', email: 'ANA@example.com', name: 'Ana Torres', country: 'ES' },
			{ phone: '+34600000002', email: 'ben@example.com', name: 'Ben', country: '' },
		];
		let before = sim.requests.length;
		const first = await upsert(rows);
		expect(first.error).toBeUndefined();
		const ben = withPhone('+34600000002');
		expect(ben).toHaveLength(1);
		expect(first.items.map((item) => item.json)).toEqual([
			{
				status: 'updated',
				contact_id: ana.id,
				changed: ['full_name'],
				// the first page said the organization holds 1 contact: that page is the whole read
				lookup: 'organization_read',
				organization_contacts: 1,
			},
			{ status: 'created', contact_id: ben[0].id, changed: ['phone_number', 'full_name', 'email'] },
		]);
		expect(first.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// only supplied fields that differ: the email differs in case only, the blank country supplies nothing
		expect(writes(before).map((r) => [r.method, r.body])).toEqual([
			['PATCH', { full_name: 'Ana Torres' }],
			['POST', { phone_number: '+34600000002', full_name: 'Ben', email: 'ben@example.com' }],
		]);
		// 2 rows into an organization of one page: one listing, not a lookup a row
		expect(listings(before).map((r) => r.query)).toEqual([{ limit: '1000', offset: '0' }]);
		expect(sim.org.contacts.get(ana.id)).toMatchObject({
			full_name: 'Ana Torres',
			email: 'ana@example.com',
			country: 'ES',
		});

		before = sim.requests.length;
		const again = await upsert(rows);
		expect(again.items.map((item) => item.json.status)).toEqual(['unchanged', 'unchanged']);
		expect(writes(before)).toEqual([]);
	});

	it('narrows the partial-match lookup to the same number: a longer number containing the digits is another contact', async () => {
		const longer = addContact(sim.org, { phone_number: '+346100000019', full_name: 'Longer' });
		const { items } = await upsert([{ phone: '+34610000001', name: 'Shorter' }]);
		expect(items[0].json.status).toBe('created');
		expect(items[0].json.contact_id).not.toBe(longer.id);
		expect(sim.org.contacts.get(longer.id)?.full_name).toBe('Longer');
	});

	describe('the match rules', () => {
		it('on phone, a phone of contact A and an email of contact B: A is updated (the phone decides, the email is data), B is untouched', async () => {
			const a = addContact(sim.org, {
				phone_number: '+34620000001',
				email: 'a@rules.test',
				full_name: 'A',
			});
			const b = addContact(sim.org, {
				phone_number: '+34620000002',
				email: 'b@rules.test',
				full_name: 'B',
			});
			const { items } = await upsert([{ phone: '+34620000001', email: 'b@rules.test' }]);
			// said on the row: a run matching on email would refuse the shared email afterwards
			expect(items[0].json).toEqual({
				status: 'updated',
				contact_id: a.id,
				changed: ['email'],
				email_also_on: [b.id],
				note: `Email: ${b.id} has this email too; written all the same (matched on the phone number), but a run matching on email will refuse it as shared`,
			});
			expect(sim.org.contacts.get(a.id)?.email).toBe('b@rules.test');
			expect(sim.org.contacts.get(b.id)).toMatchObject({
				email: 'b@rules.test',
				phone_number: '+34620000002',
			});
		});

		it('on email, an email of contact B and a phone of contact A: refused, naming A, nothing written (phones are unique, contacts never merged)', async () => {
			const a = addContact(sim.org, { phone_number: '+34630000001', email: 'a@conflict.test' });
			addContact(sim.org, { phone_number: '+34630000002', email: 'b@conflict.test' });
			const before = sim.requests.length;
			const { items } = await upsert([{ phone: '+34630000001', email: 'b@conflict.test' }], {
				matchOn: 'email',
			});
			expect(items[0].json).toEqual({
				status: 'refused',
				contact_id: a.id,
				reason: expect.stringMatching(
					`^Phone Number: contact ${a.id} already has this phone number`,
				),
			});
			// the API's 409 told: the PATCH was refused and nothing changed
			expect(writes(before).map((r) => [r.method, r.status])).toEqual([['PATCH', 409]]);
		});

		it('on email, several contacts with the email: refused, naming them, with no write', async () => {
			const one = addContact(sim.org, { phone_number: '+34640000001', email: 'shared@rules.test' });
			const two = addContact(sim.org, { phone_number: '+34640000002', email: 'Shared@Rules.test' });
			const before = sim.requests.length;
			const { items } = await upsert([{ email: 'shared@rules.test', name: 'Who' }], {
				matchOn: 'email',
			});
			expect(items[0].json.status).toBe('refused');
			expect(items[0].json.reason).toContain(`2 contacts have this email (${one.id}, ${two.id})`);
			expect(writes(before)).toEqual([]);
		});

		it('a match on one key and not the other: on phone, a new phone with a known email is a new contact; on email, a known email with a new phone updates that contact', async () => {
			const known = addContact(sim.org, {
				phone_number: '+34650000001',
				email: 'known@rules.test',
			});
			const dry = await upsert([{ phone: '+34650000002', email: 'known@rules.test' }], {
				options: { validateOnly: true },
			});
			expect(dry.items[0].json).toMatchObject({
				status: 'would_create',
				email_also_on: [known.id],
			});
			const onPhone = await upsert([{ phone: '+34650000002', email: 'known@rules.test' }]);
			expect(onPhone.items[0].json).toMatchObject({
				status: 'created',
				email_also_on: [known.id],
			});
			expect(withPhone('+34650000002')[0].email).toBe('known@rules.test');

			const other = addContact(sim.org, {
				phone_number: '+34650000003',
				email: 'other@rules.test',
			});
			const onEmail = await upsert([{ phone: '+34650000004', email: 'other@rules.test' }], {
				matchOn: 'email',
			});
			expect(onEmail.items[0].json).toEqual({
				status: 'updated',
				contact_id: other.id,
				changed: ['phone_number'],
			});
			expect(sim.org.contacts.get(known.id)?.phone_number).toBe('+34650000001');
		});

		it('refuses per row, without a request: no key, an email unknown without a phone to create, a value the API would refuse', async () => {
			const before = sim.requests.length;
			const { items } = await upsert([
				{ email: 'nokey@rules.test' },
				{ phone: '0034 600', name: 'Bad' },
				{ phone: '+34660000001', email: 'not-an-email' },
			]);
			expect(items.map((item) => item.json)).toEqual([
				{
					status: 'refused',
					reason: 'Phone Number: needed to match on the phone number, and empty',
				},
				{
					status: 'refused',
					reason: expect.stringMatching(
						/^Phone Number: must be a phone number in international E.164 format/,
					),
				},
				{ status: 'refused', reason: expect.stringMatching(/^Email: must be an email address/) },
			]);
			expect(since(before)).toEqual([]);
			const onEmail = await upsert([{ email: 'nobody@rules.test', name: 'Nobody' }], {
				matchOn: 'email',
			});
			expect(onEmail.items[0].json).toEqual({
				status: 'refused',
				reason: 'Phone Number: no contact has this email, and creating one needs a phone number',
			});
		});

		it('two rows of one run with the same phone: one contact, written once with the later value', async () => {
			const { items } = await upsert([
				{ phone: '+34670000001', name: 'First' },
				{ phone: '+34670000001', name: 'Second' },
			]);
			expect(items.map((item) => item.json.status)).toEqual(['created', 'merged']);
			expect(withPhone('+34670000001')).toHaveLength(1);
			expect(withPhone('+34670000001')[0].full_name).toBe('Second');
		});
	});

	describe("at the API's limit", () => {
		let big: Simulator;
		beforeAll(async () => {
			big = await startSimulator({ seed: false, limits: UNLIMITED });
			insertContacts(big, big.org, 2_500);
		});
		afterAll(() => big.stop());
		const bigUpsert = (rows: IDataObject[], parameters: INodeParameters = {}) =>
			runNode({
				credentials: { apiKey: big.apiKey, baseUrl: big.baseUrl },
				parameters: {
					resource: 'contact',
					operation: 'upsert',
					phoneNumber: '={{ $json.phone }}',
					additionalFields: { fullName: '={{ $json.name }}' },
					...parameters,
				},
				items: rows,
			});

		it('a large job reads the organization once, 1,000 a page: no more listings than contacts ÷ 1,000 + 1, and no lookup per row', async () => {
			const existing = [...big.org.contacts.values()].slice(0, 30);
			const rows = [
				...existing.map((contact, i) => ({
					phone: contact.phone_number,
					name: i % 2 ? contact.full_name : `Changed ${i}`,
				})),
				...Array.from({ length: 30 }, (_, i) => ({
					phone: `+4479000${String(i).padStart(5, '0')}`,
					name: `New ${i}`,
				})),
			];
			const before = big.requests.length;
			const { items, error } = await bigUpsert(rows);
			expect(error).toBeUndefined();
			const reads = big.requests.slice(before).filter((r) => r.method === 'GET');
			expect(reads.map((r) => r.query)).toEqual([
				{ limit: '1000', offset: '0' },
				{ limit: '1000', offset: '1000' },
				{ limit: '1000', offset: '2000' },
			]);
			const count = (status: string) => items.filter((item) => item.json.status === status).length;
			expect([count('updated'), count('unchanged'), count('created')]).toEqual([15, 15, 30]);
			expect(big.requests.slice(before).filter((r) => WRITES.test(r.method))).toHaveLength(45);
		});

		it('a job of fewer rows than the pages still to read looks each row up after the first page', async () => {
			const rows = Array.from({ length: 21 }, (_, i) => ({
				phone: `+4479100${String(i).padStart(5, '0')}`,
				name: `Few ${i}`,
			}));
			const huge = await startSimulator({ seed: false, limits: UNLIMITED });
			try {
				insertContacts(huge, huge.org, 25_000);
				const { items } = await runNode({
					credentials: { apiKey: huge.apiKey, baseUrl: huge.baseUrl },
					parameters: {
						resource: 'contact',
						operation: 'upsert',
						phoneNumber: '={{ $json.phone }}',
					},
					items: rows,
				});
				expect(items.every((item) => item.json.status === 'created')).toBe(true);
				// 1 page that says 25 pages remain, then 21 lookups: fewer than the 24 pages left
				expect(huge.requestsTo('GET', '/v1/contacts')).toHaveLength(1 + 21);
			} finally {
				await huge.stop();
			}
		});
	});

	describe('two runs at once on overlapping rows', () => {
		it('on phone: no duplicate contact; the run whose creation met 409 reads the contact the other created and updates it', async () => {
			const rows = (name: string) =>
				Array.from({ length: 40 }, (_, i) => ({
					phone: `+4479200${String(i).padStart(5, '0')}`,
					name: `${name} ${i}`,
				}));
			const posts = sim.requestsTo('POST', '/v1/contacts').length;
			const [one, two] = await Promise.all([upsert(rows('One')), upsert(rows('Two'))]);
			expect(one.error).toBeUndefined();
			expect(two.error).toBeUndefined();
			for (let i = 0; i < 40; i++) {
				const phone = `+4479200${String(i).padStart(5, '0')}`;
				expect(withPhone(phone)).toHaveLength(1);
				expect(one.items[i].json.contact_id).toBe(two.items[i].json.contact_id);
			}
			const conflicts = sim
				.requestsTo('POST', '/v1/contacts')
				.slice(posts)
				.filter((r) => r.status === 409);
			expect(conflicts.length).toBeGreaterThan(0);
			const statuses = [...one.items, ...two.items].map((item) => item.json.status);
			expect(statuses.filter((status) => status === 'created')).toHaveLength(40);
		});

		it("on email: rows with the same phone make no duplicate (the phone's 409 finds the contact); the same email with two phones makes two contacts", async () => {
			const rows = (phoneBase: string) =>
				Array.from({ length: 30 }, (_, i) => ({
					phone: `${phoneBase}${String(i).padStart(5, '0')}`,
					email: `race${i}@email.test`,
				}));
			const [same1, same2] = await Promise.all([
				upsert(rows('+4479300'), { matchOn: 'email' }),
				upsert(rows('+4479300'), { matchOn: 'email' }),
			]);
			expect([same1.error, same2.error]).toEqual([undefined, undefined]);
			const withEmail = (i: number) =>
				[...sim.org.contacts.values()].filter((c) => c.email === `race${i}@email.test`);
			expect(Array.from({ length: 30 }, (_, i) => withEmail(i).length)).toEqual(Array(30).fill(1));
			// the API keeps emails unique for no one: two runs that create the same email with different phones at once make two contacts
			const [other1, other2] = await Promise.all([
				upsert(
					rows('+4479400').map((row) => ({ ...row, email: row.email.replace('race', 'apart') })),
					{ matchOn: 'email' },
				),
				upsert(
					rows('+4479500').map((row) => ({ ...row, email: row.email.replace('race', 'apart') })),
					{ matchOn: 'email' },
				),
			]);
			const statuses = [...other1.items, ...other2.items].map((item) => item.json.status);
			expect(statuses.every((status) => status === 'created' || status === 'updated')).toBe(true);
			const created = statuses.filter((status) => status === 'created').length;
			const heldTwice = Array.from(
				{ length: 30 },
				(_, i) =>
					[...sim.org.contacts.values()].filter((c) => c.email === `apart${i}@email.test`).length,
			).filter((holders) => holders === 2).length;
			// each email is created by the first run to reach it, and again by the other unless that run
			// read the contacts after the creation: measured here, both read first, 30 of 30 held twice
			expect(created).toBe(30 + heldTwice);
			console.info(
				`Email race of two runs at once: ${heldTwice} of 30 emails held by two contacts`,
			);
		});
	});

	describe('Validate Only', () => {
		it('checks and matches every row, says what would be done, and sends 0 writes', async () => {
			const known = addContact(sim.org, { phone_number: '+34680000001', full_name: 'Known' });
			addContact(sim.org, { phone_number: '+34680000002', full_name: 'Same' });
			const before = sim.requests.length;
			const { items } = await upsert(
				[
					{ phone: '+34680000001', name: 'Known Changed' },
					{ phone: '+34680000002', name: 'Same' },
					{ phone: '+34680000003', name: 'New' },
					{ phone: 'nope' },
				],
				{ options: { validateOnly: true } },
			);
			expect(items.map((item) => item.json)).toEqual([
				{
					status: 'would_update',
					contact_id: known.id,
					changed: ['full_name'],
					lookup: 'organization_read',
					organization_contacts: expect.any(Number),
				},
				{ status: 'unchanged', contact_id: expect.any(String) },
				{ status: 'would_create', changed: ['phone_number', 'full_name'] },
				{ status: 'refused', reason: expect.stringMatching(/^Phone Number: must be/) },
			]);
			expect(writes(before)).toEqual([]);
			expect(withPhone('+34680000003')).toEqual([]);
		});
	});

	describe('from a file', () => {
		const fromFile = (file: Parameters<typeof upsertFile>[1], parameters = {}, on = sim) =>
			upsertFile(on, file, parameters);

		it('reads CSV rows by column name and outputs one summary: counts, rows refused with their numbers, requests by budget, time and the announced budget that bounded it', async () => {
			const reference = await startSimulator({ seed: false });
			try {
				addContact(reference.org, {
					phone_number: '+34690000001',
					full_name: 'Old',
					email: 'old@file.test',
				});
				const csv = [
					'Phone;Name;email',
					'+34690000001;New Name;old@file.test',
					'+34690000002;"Eve; E.";eve@file.test',
					';No phone;x@file.test',
					'+34690000002;"Eve; E.";eve@file.test',
					'+34690000003;too;many;fields',
				].join('\r\n');
				const { items, error } = await fromFile(
					csvFile(csv),
					{ csvDelimiter: ';', columnNames: { phoneNumber: 'Phone', fullName: 'Name' } },
					reference,
				);
				expect(error).toBeUndefined();
				expect(items).toHaveLength(1);
				expect(items[0].json).toMatchObject({
					file_name: 'crm.csv',
					summary: {
						rows_read: 5,
						created: 1,
						updated: 1,
						unchanged: 0,
						// row 5 repeats row 3's phone: one contact, written once
						merged: 1,
						refused: 2,
						lookup: 'organization_read',
						organization_contacts: 1,
						requests: { listing: 1, organization: 3 },
						// read from the answers' X-RateLimit-Limit headers: the simulator's reference budgets
						budgets_announced: { organization: 120, listing: 20 },
						bounded_by: 'listing',
						budget_minutes: 0.05,
					},
					not_accepted: [
						{
							row: 4,
							status: 'refused',
							reason: 'Phone Number: needed to match on the phone number, and empty',
						},
						{ row: 6, status: 'refused', reason: 'the row has 4 fields, the header 3' },
					],
					not_accepted_not_shown: 0,
				});
				expect(typeof (items[0].json.summary as IDataObject).took_seconds).toBe('number');
			} finally {
				await reference.stop();
			}
		});

		it('reads the encodings Event → Send reads (Windows-1252 here), and refuses a file without the column to match on before any request', async () => {
			const latin = Buffer.from('phone_number,full_name\n+34691000001,José Muñoz\n', 'latin1');
			const encoded = await fromFile(
				{ data: { data: latin.toString('base64'), mimeType: 'text/csv', fileName: 'latin.csv' } },
				{ options: { encoding: 'windows-1252' } },
			);
			expect(encoded.error).toBeUndefined();
			expect(encoded.items[0].json.summary).toMatchObject({ rows_read: 1, created: 1 });
			expect(withPhone('+34691000001')[0].full_name).toBe('José Muñoz');
			const before = sim.requests.length;
			const { error } = await fromFile(csvFile('mobile,full_name\n+34691000002,X\n'));
			expect(error?.message).toBe('The file has no column "phone_number" to match on');
			expect(error?.description).toContain('Its columns: mobile, full_name.');
			expect(since(before)).toEqual([]);
		});

		it('a file of more than 20 rows reads the organization once, then writes; Validate Only writes nothing', async () => {
			const lines = ['phone_number,full_name'];
			for (let i = 0; i < 50; i++) lines.push(`+4479600${String(i).padStart(5, '0')},File ${i}`);
			let before = sim.requests.length;
			const dry = await fromFile(csvFile(lines.join('\n')), { options: { validateOnly: true } });
			expect(dry.items[0].json.summary).toMatchObject({
				rows_read: 50,
				would_create: 50,
				validate_only: true,
				lookup: 'organization_read',
			});
			expect(writes(before)).toEqual([]);
			before = sim.requests.length;
			const real = await fromFile(csvFile(lines.join('\n')));
			expect(real.items[0].json.summary).toMatchObject({
				rows_read: 50,
				created: 50,
				lookup: 'organization_read',
			});
			expect(listings(before).length).toBe(Math.ceil((sim.org.contacts.size - 50) / 1000));
		});
	});
});
