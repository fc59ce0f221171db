import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import {
	addContact,
	insertContacts,
	seededRandom,
	startSimulator,
	type Contact,
	type Simulator,
} from '../../simulator/index.cts';
import { csvFile, UNLIMITED, upsertFile, upsertItems, WRITES } from '../helpers/upsert.cts';
import { FAULTS } from '../reliability/matrix.cts';

/**
 * Contact → Create or Update as a nightly sync runs it (issue 42): blank cells never erase, custom
 * fields merge, text is cleaned, repeated keys are one person, Validate Only predicts the run row
 * for row, email keys make no second contact, and the cheaper lookup is chosen for every input.
 */

const PLAN_MAPPING = {
	fullName: '={{ $json.name }}',
	additionalData: {
		entries: [{ type: 'text', field: 'plan', value: '={{ $json.plan }}' }],
	},
};

const STORED_CUSTOM = [
	{ type: 'text', field: 'plan', value: 'gold' },
	{ type: 'text', field: 'tier', value: '2' },
];

/** What the real run does for what Validate Only said it would do. */
const REAL_STATUS: Record<string, string> = { would_create: 'created', would_update: 'updated' };

describe('Contact → Create or Update as a nightly sync (issue 42)', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false, limits: UNLIMITED });
	});
	afterAll(() => sim.stop());

	const upsert = (
		rows: IDataObject[],
		parameters: INodeParameters = {},
		on: Simulator = sim,
		continueOnFail = false,
	) => upsertItems(on, rows, parameters, continueOnFail);
	const fromFile = (file: IBinaryKeyData, parameters: INodeParameters = {}, on = sim) =>
		upsertFile(on, file, parameters);
	const writes = (before: number, on = sim) =>
		on.requests.slice(before).filter((r) => WRITES.test(r.method));
	const contactsWith = (field: keyof Contact, value: string, on = sim) =>
		[...on.org.contacts.values()].filter((c) => c[field] === value);

	describe('a blank cell never erases, custom fields included', () => {
		const customer = (n: number) =>
			addContact(sim.org, {
				phone_number: `+3471000${String(n).padStart(4, '0')}`,
				full_name: 'Kept Name',
				additional_data: STORED_CUSTOM.map((entry) => ({ ...entry })),
			});

		it('blank, whitespace, null or missing custom cells leave the stored values; a number is written as text; a partial mapping merges', async () => {
			const stored = Array.from({ length: 6 }, (_, n) => customer(n));
			const before = sim.requests.length;
			const { items, error } = await upsert(
				[
					{ phone: stored[0].phone_number, plan: '' },
					{ phone: stored[1].phone_number, plan: '   ' },
					{ phone: stored[2].phone_number, plan: null },
					{ phone: stored[3].phone_number },
					{ phone: stored[4].phone_number, plan: 42, name: '' },
					{ phone: stored[5].phone_number, plan: 'silver', name: '\u200B' },
				],
				{ additionalFields: PLAN_MAPPING },
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.status)).toEqual([
				'unchanged',
				'unchanged',
				'unchanged',
				'unchanged',
				'updated',
				'updated',
			]);
			// only the two rows with a value wrote, each the whole list with its one entry changed
			expect(writes(before).map((r) => r.body)).toEqual([
				{
					additional_data: [
						{ type: 'text', field: 'plan', value: '42' },
						{ type: 'text', field: 'tier', value: '2' },
					],
				},
				{
					additional_data: [
						{ type: 'text', field: 'plan', value: 'silver' },
						{ type: 'text', field: 'tier', value: '2' },
					],
				},
			]);
			for (const [n, plan] of ['gold', 'gold', 'gold', 'gold', '42', 'silver'].entries())
				expect(sim.org.contacts.get(stored[n].id)).toMatchObject({
					full_name: 'Kept Name',
					additional_data: [
						{ type: 'text', field: 'plan', value: plan },
						{ type: 'text', field: 'tier', value: '2' },
					],
				});
		});

		it('Clear Fields With Blank Cells empties the fields chosen; Custom Fields → Replace keeps only the mapped ones', async () => {
			const [cleared, replaced] = [customer(10), customer(11)];
			await upsert([{ phone: cleared.phone_number, plan: ' ', name: '' }], {
				additionalFields: PLAN_MAPPING,
				options: { clearBlankFields: ['additionalData', 'fullName'] },
			});
			expect(sim.org.contacts.get(cleared.id)).toMatchObject({
				full_name: '',
				additional_data: [{ type: 'text', field: 'tier', value: '2' }],
			});
			await upsert([{ phone: replaced.phone_number, plan: 'bronze' }], {
				additionalFields: PLAN_MAPPING,
				options: { customFields: 'replace' },
			});
			expect(sim.org.contacts.get(replaced.id)?.additional_data).toEqual([
				{ type: 'text', field: 'plan', value: 'bronze' },
			]);
		});

		it('a file maps columns to custom fields as items do: a blank cell keeps the stored value, and the summary names the columns not read', async () => {
			const [kept, changed] = [customer(20), customer(21)];
			const csv = [
				'phone_number,Plan,full_name,notes,',
				`${kept.phone_number},,Kept Name,x,`,
				`${changed.phone_number},platinum,,y,`,
				'+34710009999,basic,New Person,z,',
			].join('\n');
			const before = sim.requests.length;
			const { items, error } = await fromFile(csvFile(csv), {
				customColumns: { entries: [{ column: 'Plan', field: 'plan', type: 'text' }] },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				summary: { rows_read: 3, created: 1, updated: 1, unchanged: 1 },
				columns_not_read: ['notes'],
				unnamed_columns: 1,
			});
			expect(writes(before)).toHaveLength(2);
			expect(sim.org.contacts.get(kept.id)?.additional_data).toEqual(STORED_CUSTOM);
			expect(sim.org.contacts.get(changed.id)?.additional_data).toEqual([
				{ type: 'text', field: 'plan', value: 'platinum' },
				{ type: 'text', field: 'tier', value: '2' },
			]);
			expect(contactsWith('phone_number', '+34710009999')[0].additional_data).toEqual([
				{ type: 'text', field: 'plan', value: 'basic' },
			]);
		});

		it('a Column Name or a custom field column the file does not have is refused before any request', async () => {
			const before = sim.requests.length;
			const renamed = await fromFile(csvFile('phone_number,Name\n+34710008888,X\n'), {
				columnNames: { fullName: 'Full name' },
			});
			expect(renamed.error?.message).toBe('The file has no column "Full name"');
			expect(renamed.error?.description).toContain('Its columns: phone_number, Name.');
			const custom = await fromFile(csvFile('phone_number,Name\n+34710008888,X\n'), {
				customColumns: { entries: [{ column: 'plan' }] },
			});
			expect(custom.error?.message).toBe('The file has no column "plan"');
			expect(sim.requests.slice(before)).toEqual([]);
		});
	});

	describe('text as people expect it', () => {
		it('trimmed, NFC, zero-width characters removed, before comparing and writing', async () => {
			const ana = addContact(sim.org, {
				phone_number: '+34720000001',
				full_name: 'José Lopez',
				country: 'ES',
			});
			let before = sim.requests.length;
			const same = await upsert([
				// a zero-width cell, the same name with a trailing space and in NFD: nothing to change
				{ phone: ana.phone_number, name: '\u200B', country: ' ES ' },
				{ phone: ana.phone_number, name: 'Jose\u0301 Lopez ' },
			]);
			expect(same.items.map((item) => item.json.status)).toEqual(['unchanged', 'merged']);
			expect(writes(before)).toEqual([]);
			before = sim.requests.length;
			await upsert([{ phone: '+34720000002', name: ' Bea\u200B Ruiz ', country: ' ES' }]);
			expect(writes(before).map((r) => r.body)).toEqual([
				{ phone_number: '+34720000002', full_name: 'Bea Ruiz', country: 'ES' },
			]);
		});

		it("the input's fields no parameter reads are named once, on the first row's output", async () => {
			const { items } = await upsert([
				{ phone: '+34720000101', name: 'A', notes: 'x', 'Last Name': 'B' },
				{ phone: '+34720000102', name: 'C', notes: 'y' },
			]);
			expect(items[0].json.columns_not_read).toEqual(['notes', 'Last Name']);
			expect(items[1].json).not.toHaveProperty('columns_not_read');
			const mapped = await upsert([{ phone: '+34720000103', 'Last Name': 'D' }], {
				additionalFields: { fullName: '={{ $json["Last Name"] }}' },
			});
			expect(mapped.items[0].json).not.toHaveProperty('columns_not_read');
		});

		it('an email in NFC and in NFD is one contact, in one run and across runs', async () => {
			const nfc = 'jos\u00e9@sync.test';
			const nfd = 'jose\u0301@sync.test';
			const first = await upsert([{ phone: '+34730000001', email: nfc, name: 'José' }], {
				matchOn: 'email',
			});
			expect(first.items[0].json.status).toBe('created');
			const again = await upsert(
				[
					{ phone: '+34730000002', email: nfd },
					{ email: ` ${nfd.toUpperCase()} `, name: 'José M.' },
				],
				{ matchOn: 'email' },
			);
			expect(again.items.map((item) => item.json.status)).toEqual(['updated', 'merged']);
			expect(contactsWith('email', nfc)).toHaveLength(1);
			expect(contactsWith('email', nfd)).toHaveLength(0);
			expect(contactsWith('email', nfc)[0]).toMatchObject({
				phone_number: '+34730000002',
				full_name: 'José M.',
			});
		});
	});

	describe('repeated keys in one run are one person', () => {
		it('merged in order (later non-blank values win), said on the rows, and a re-run writes nothing', async () => {
			const held = addContact(sim.org, { phone_number: '+34740000001', full_name: 'Held' });
			const rows = [
				{ phone: '+34740000001', name: 'First', country: 'ES' },
				{ phone: '+34 740 000 001', name: 'Second', country: '' },
				{ phone: '+34740000002', name: 'New' },
				{ phone: '+34740000001', name: '  ' },
			];
			let before = sim.requests.length;
			const { items } = await upsert(rows);
			expect(items.map((item) => item.json)).toEqual([
				expect.objectContaining({
					status: 'updated',
					contact_id: held.id,
					merged_rows: ['item 1', 'item 3'],
				}),
				{ status: 'merged', contact_id: held.id, merged_into: 'item 0' },
				expect.objectContaining({ status: 'created' }),
				{ status: 'merged', contact_id: held.id, merged_into: 'item 0' },
			]);
			expect(writes(before)).toHaveLength(2);
			expect(sim.org.contacts.get(held.id)).toMatchObject({ full_name: 'Second', country: 'ES' });
			before = sim.requests.length;
			const again = await upsert(rows);
			expect(again.items.map((item) => item.json.status)).toEqual([
				'unchanged',
				'merged',
				'unchanged',
				'merged',
			]);
			expect(writes(before)).toEqual([]);
		});

		it('on email, a row refused for a phone that a later row moves off its holder is carried out at the end; Validate Only says so; a re-run writes nothing', async () => {
			const x = addContact(sim.org, { phone_number: '+34745000001', email: 'x@move.test' });
			const rows = [
				{ phone: '+34745000001', email: 'a@move.test', name: 'A' },
				{ phone: '+34745000002', email: 'x@move.test' },
			];
			const dry = await upsert(rows, { matchOn: 'email', options: { validateOnly: true } });
			expect(dry.items.map((item) => item.json.status)).toEqual(['would_create', 'would_update']);
			let before = sim.requests.length;
			const real = await upsert(rows, { matchOn: 'email' });
			expect(real.items.map((item) => item.json.status)).toEqual(['created', 'updated']);
			expect(sim.org.contacts.get(x.id)?.phone_number).toBe('+34745000002');
			expect(contactsWith('phone_number', '+34745000001')[0].email).toBe('a@move.test');
			before = sim.requests.length;
			const again = await upsert(rows, { matchOn: 'email' });
			expect(again.items.map((item) => item.json.status)).toEqual(['unchanged', 'unchanged']);
			expect(writes(before)).toEqual([]);
		});

		it('or, by the user’s choice, the later rows are refused as duplicates of the first', async () => {
			const { items } = await upsert(
				[
					{ phone: '+34750000001', name: 'First' },
					{ phone: '+34750000001', name: 'Second' },
				],
				{ options: { repeatedKeys: 'refuse' } },
			);
			const id = contactsWith('phone_number', '+34750000001')[0].id;
			expect(items.map((item) => item.json)).toEqual([
				expect.objectContaining({ status: 'created', duplicates_refused: ['item 1'] }),
				{
					status: 'refused',
					contact_id: id,
					duplicate_of: 'item 0',
					reason:
						"Phone Number: the same as item 0's; a repeated key is refused (Repeated Keys option)",
				},
			]);
			expect(contactsWith('phone_number', '+34750000001')[0].full_name).toBe('First');
		});
	});

	describe('Validate Only predicts the real run row for row', () => {
		/**
		 * 1,000 rows drawn from pools of keys much smaller than the rows: existing and new phones and
		 * emails, blanks, a few bad values; so keys repeat with other values, phones meet other
		 * contacts' emails and, on email, phones held by other contacts, which other rows move.
		 */
		function mixedRows(existing: Contact[], seed: number): IDataObject[] {
			const random = seededRandom(seed);
			const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)];
			const phones = [
				...existing.slice(0, 150).map((c) => c.phone_number),
				...Array.from(
					{ length: 150 },
					(_, i) => `+4478${String(seed * 1000 + i).padStart(8, '0')}`,
				),
			];
			const emails = [
				...existing.slice(100, 250).map((c) => c.email),
				...Array.from({ length: 150 }, (_, i) => `new${seed}-${i}@mixed.test`),
			];
			return Array.from({ length: 1000 }, () => {
				const draw = random();
				return {
					phone: draw < 0.08 ? '' : draw < 0.1 ? 'not a phone' : pick(phones),
					email: random() < 0.2 ? '' : random() < 0.02 ? 'nope' : pick(emails),
					name: pick(['Ann', 'Bob', 'Cy', '', '  ', 'Ann ']),
					country: pick(['US', 'ES', '']),
				};
			});
		}

		for (const key of ['phone', 'email'] as const)
			it(`on ${key}: 1,000 mixed rows with repeated keys, 1,000 of 1,000 predicted right; a re-run writes nothing`, async () => {
				const own = await startSimulator({ seed: false, limits: UNLIMITED });
				try {
					const existing = insertContacts(own, own.org, 400);
					const rows = mixedRows(existing, key === 'phone' ? 1 : 2);
					let before = own.requests.length;
					const dry = await upsert(rows, { matchOn: key, options: { validateOnly: true } }, own);
					expect(dry.error).toBeUndefined();
					expect(writes(before, own)).toEqual([]);
					const real = await upsert(rows, { matchOn: key }, own);
					expect(real.error).toBeUndefined();
					const predicted = (item: INodeExecutionData) =>
						REAL_STATUS[String(item.json.status)] ?? item.json.status;
					const right = dry.items.filter(
						(item, i) => predicted(item) === real.items[i].json.status,
					).length;
					const statuses = real.items.map((item) => item.json.status);
					console.info(
						`Validate Only on ${key}, 1,000 mixed rows: ${right} of 1,000 predicted right; real run: ${['created', 'updated', 'unchanged', 'merged', 'refused'].map((s) => `${statuses.filter((x) => x === s).length} ${s}`).join(', ')}`,
					);
					expect(dry.items.map(predicted)).toEqual(statuses);
					// every kind of write and refusal is there to be predicted
					for (const status of ['created', 'updated', 'merged', 'refused'])
						expect(statuses).toContain(status);
					before = own.requests.length;
					const again = await upsert(rows, { matchOn: key }, own);
					expect(writes(before, own)).toEqual([]);
					expect(again.items.map((item) => item.json.status)).not.toContain('created');
				} finally {
					await own.stop();
				}
			});

		it('a file with repeated keys: the counts Validate Only gives are the real run’s', async () => {
			const own = await startSimulator({ seed: false, limits: UNLIMITED });
			try {
				const existing = insertContacts(own, own.org, 1500);
				const random = seededRandom(7);
				const lines = ['phone_number,full_name,email'];
				for (let i = 0; i < 5000; i++) {
					const phone =
						random() < 0.4
							? existing[Math.floor(random() * existing.length)].phone_number
							: `+4479${String(Math.floor(random() * 2000)).padStart(8, '0')}`;
					lines.push(`${phone},${random() < 0.5 ? 'Name ' + (i % 3) : ''},`);
				}
				const file = csvFile(lines.join('\n'));
				const dry = await fromFile(file, { options: { validateOnly: true } }, own);
				const real = await fromFile(file, {}, own);
				const dryCounts = dry.items[0].json.summary as IDataObject;
				const realCounts = real.items[0].json.summary as IDataObject;
				expect({
					created: dryCounts.would_create,
					updated: dryCounts.would_update,
					unchanged: dryCounts.unchanged,
					merged: dryCounts.merged,
					refused: dryCounts.refused,
				}).toEqual({
					created: realCounts.created,
					updated: realCounts.updated,
					unchanged: realCounts.unchanged,
					merged: realCounts.merged,
					refused: realCounts.refused,
				});
				expect(realCounts.merged).toBeGreaterThan(1000);
				const before = own.requests.length;
				await fromFile(file, {}, own);
				expect(writes(before, own)).toEqual([]);
			} finally {
				await own.stop();
			}
		});
	});

	describe('email keys make no second contact', () => {
		// the seven faults after the service acted that answer at once (the slow one needs the fake clock)
		const afterService = FAULTS.filter((fault) => fault.handled && fault.key !== 'slow');

		for (const strategy of ['per_row_lookups', 'organization_read'] as const)
			for (const fault of afterService)
				it(`${strategy}, ${fault.label}: a lost creation, then a row with the same email: one contact`, async () => {
					const own = await startSimulator({ seed: false, limits: UNLIMITED });
					try {
						// 4,000 contacts: 3 pages left after the first, more than the run's 2 keys
						if (strategy === 'per_row_lookups') insertContacts(own, own.org, 4000);
						own.faults.inject({ method: 'POST', path: '/v1/contacts', fault: fault.fault });
						const { items } = await upsert(
							[
								{ phone: '+34760000001', email: 'lost@faults.test', name: 'Lost' },
								{ phone: '+34760000002', email: 'Lost@Faults.test', name: 'Found' },
								{ phone: '+34760000003', email: 'other@faults.test' },
							],
							{ matchOn: 'email' },
							own,
							true,
						);
						expect(items[0].json.error).toBeDefined();
						// the second row tries the email's rows again, after looking it up afresh: the
						// lost creation had written them (merged), so there is nothing left to change
						expect(items[1].json.status).toBe('unchanged');
						expect(items.some((item) => item.json.lookup === strategy)).toBe(true);
						const held = [...own.org.contacts.values()].filter(
							(c) => c.email.toLowerCase() === 'lost@faults.test',
						);
						expect(held).toHaveLength(1);
						expect(held[0]).toMatchObject({ phone_number: '+34760000002', full_name: 'Found' });
					} finally {
						await own.stop();
					}
				});

		it('4 executions at once on email keys: every duplicate the race creates is reported with every contact ID and the one the run kept updating', async () => {
			const runs = await Promise.all(
				[1, 2, 3, 4].map((run) =>
					upsert(
						Array.from({ length: 25 }, (_, i) => ({
							phone: `+347700${run}${String(i).padStart(4, '0')}`,
							email: `race${i}@four.test`,
						})),
						{ matchOn: 'email' },
					),
				),
			);
			const reports = runs.flatMap((run) =>
				run.items
					.filter((item) => item.json.duplicate_contacts)
					.map((item) => ({
						contactId: String(item.json.contact_id),
						...(item.json.duplicate_contacts as { contact_ids: string[]; kept_updating: string }),
					})),
			);
			let duplicates = 0;
			for (let i = 0; i < 25; i++) {
				const held = contactsWith('email', `race${i}@four.test`).map((c) => c.id);
				if (held.length < 2) continue;
				duplicates += held.length - 1;
				// the row that created the last of them read the email after it: it names them all
				expect(
					reports.some(
						(report) =>
							held.includes(report.contactId) &&
							[...report.contact_ids].sort().join() === [...held].sort().join(),
					),
				).toBe(true);
			}
			for (const report of reports) expect(report.kept_updating).toBe(report.contactId);
			console.info(
				`Email race of 4 runs at once: ${duplicates} second contacts made, ${reports.length} rows reporting them`,
			);
		});
	});

	describe('the cheaper lookup for every input, from the organization size the first page announces', () => {
		it('20 rows into 1,000 contacts: one read of the organization instead of 20 lookups', async () => {
			const own = await startSimulator({ seed: false, limits: UNLIMITED });
			try {
				const existing = insertContacts(own, own.org, 1000);
				const rows = existing.slice(0, 20).map((c) => ({ phone: c.phone_number, name: 'X' }));
				const before = own.requests.length;
				const { items } = await upsert(rows, {}, own);
				expect(items[0].json).toMatchObject({
					lookup: 'organization_read',
					organization_contacts: 1000,
				});
				expect(own.requests.slice(before).filter((r) => r.method === 'GET')).toHaveLength(1);
			} finally {
				await own.stop();
			}
		});

		it('a file of 21 rows into 25,000 contacts: per-row lookups (1 + 21 listings) instead of 25 pages', async () => {
			const own = await startSimulator({ seed: false, limits: UNLIMITED });
			try {
				insertContacts(own, own.org, 25_000);
				const lines = ['phone_number'];
				for (let i = 0; i < 21; i++) lines.push(`+4479100${String(i).padStart(5, '0')}`);
				const { items } = await fromFile(csvFile(lines.join('\n')), {}, own);
				expect(items[0].json.summary).toMatchObject({
					created: 21,
					lookup: 'per_row_lookups',
					organization_contacts: 25_000,
					requests: { listing: 22 },
				});
			} finally {
				await own.stop();
			}
		});
	});
});
