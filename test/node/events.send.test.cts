import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { addContact, storedEvents } from '../../simulator/index.cts';

/** The test rows' fields mapped field by field with expressions, and the same read automatically. */
const MAPPED_FIELD_BY_FIELD: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventName: '={{ $json.name }}',
	contactEmail: '={{ $json.email }}',
	contactPhone: '={{ $json.phone }}',
	additionalFields: {
		eventId: '={{ $json.id }}',
		occurredAt: '={{ $json.at }}',
		sessionId: '={{ $json.session }}',
		createContact: '={{ $json.create !== false }}',
	},
};
const MAPPED_AUTOMATICALLY: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventInput: 'autoMapInputData',
	columnNames: {
		eventName: 'name',
		eventId: 'id',
		occurredAt: 'at',
		sessionId: 'session',
		createContact: 'create',
	},
};

/** Event → Send through the engine, against a simulator whose events budget does not limit; every test in both mapping modes. */
describe.each([
	['mapped field by field', MAPPED_FIELD_BY_FIELD],
	['mapped automatically', MAPPED_AUTOMATICALLY],
])('Event → Send, %s', (_mode, fields) => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({
			limits: { events: 100_000, eventsAnonymous: 100_000, ip: 100_000 },
		});
	});
	afterAll(() => sim.stop());
	const asJson: INodeParameters = {
		resource: 'event',
		operation: 'send',
		eventInput: 'json',
		eventJson: '={{ $json }}',
	};

	function run(
		items: IDataObject[],
		parameters: INodeParameters = fields,
		extra: Partial<RunNodeOptions> = {},
	) {
		return runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items,
			...extra,
		});
	}
	const posts = () => sim.requestsTo('POST', '/v1/events').length;
	const statuses = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.status);

	it('packs 250 rows into 3 requests and answers each row on its own item, in order, paired', async () => {
		const before = posts();
		const rows = Array.from({ length: 250 }, (_, i) => ({
			name: 'Purchase Completed',
			email: `p250-${i}@example.com`,
		}));
		const { items, error } = await run(rows);
		expect(error).toBeUndefined();
		expect(posts() - before).toBe(3);
		const sizes = sim
			.requestsTo('POST', '/v1/events')
			.slice(-3)
			.map((r) => (r.body as { events: unknown[] }).events.length);
		expect(sizes).toEqual([100, 100, 50]);
		expect(items).toHaveLength(250);
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toMatchObject({
				status: 'created',
				event_name: 'purchase_completed',
				original_event_name: 'Purchase Completed',
				contact: { matched_by: null, created: true },
			});
		});
		// the contact of row i is the one created from row i's email
		const contactOf = (i: number) =>
			sim.org.contacts.get((items[i].json.contact as IDataObject).id as string);
		expect(contactOf(7)?.email).toBe('p250-7@example.com');
		expect(contactOf(249)?.email).toBe('p250-249@example.com');
	});

	it('packs 10,000 rows into exactly 100 requests', async () => {
		const [contact] = sim.org.contacts.values();
		const before = posts();
		const rows = Array.from({ length: 10_000 }, (_, i) => ({
			event_name: 'page_view',
			event_id: `tenk-${i}`,
			contact: { contact_id: contact.id },
		}));
		const { items, error } = await run(rows, asJson);
		expect(error).toBeUndefined();
		expect(posts() - before).toBe(100);
		expect(items).toHaveLength(10_000);
		expect(
			items.every(
				(item, i) => item.json.status === 'created' && item.json.event_id === `tenk-${i}`,
			),
		).toBe(true);
		expect(storedEvents(sim.org, { event_name: 'page_view' })).toHaveLength(10_000);
	}, 120_000);

	it('brings every status and reason of the reference to its own row', async () => {
		const shared = 'shared-inbox@example.com';
		addContact(sim.org, { email: shared, phone_number: '+34600000001' });
		addContact(sim.org, { email: shared, phone_number: '+34600000002' });
		const rows: IDataObject[] = [
			{ name: 'Signed Up', email: 'status-new@example.com' }, // created, contact created
			{ name: 'Page View', session: 'sess-status-1' }, // pending
			{ name: 'Form Sent', email: shared }, // unresolved: ambiguous_email
			{ name: 'Form Sent', email: 'nobody@example.com', create: false }, // unresolved: not_found
			{ name: 'Order Paid', email: 'status-new@example.com', id: 'status-dup' }, // created
			{ name: 'Order Paid', email: 'status-new@example.com', id: 'status-dup' }, // duplicate
			{ name: 'Orphan Event' }, // rejected: no_identity, answered by the node
			{ name: '123 go', email: 'status-new@example.com' }, // invalid, answered by the node
			{ name: 'Called', phone: '+34 600 000 001', email: 'status-new@example.com' }, // created, with a conflict
		];
		const before = posts();
		const { items, error } = await run(rows);
		expect(error).toBeUndefined();
		// the 7 rows the node could not answer itself: 6 identified in one request, the anonymous one in its own
		expect(posts() - before).toBe(2);
		expect(
			sim
				.requestsTo('POST', '/v1/events')
				.slice(-2)
				.map((r) => (r.body as { events: unknown[] }).events.length),
		).toEqual([6, 1]);
		expect(items.map((item) => [item.json.status, item.json.reason])).toEqual([
			['created', undefined],
			['pending', undefined],
			['unresolved', 'ambiguous_email'],
			['unresolved', 'not_found'],
			['created', undefined],
			['duplicate', undefined],
			['rejected', 'no_identity'],
			['invalid', undefined],
			['created', undefined],
		]);
		expect(items[0].json.contact).toMatchObject({ created: true, matched_by: null });
		expect(items[4].json.contact).toMatchObject({ created: false, matched_by: 'email' });
		expect(items[7].json.errors).toEqual([expect.stringContaining('must start with a letter')]);
		expect(items[8].json.contact).toMatchObject({ matched_by: 'phone' });
		expect(items[8].json.conflict).toHaveProperty('email_points_to');
		expect(items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
	});

	it('answers unresolved contact_limit_reached, rejected anonymous_daily_limit and rejected event_name_limit', async () => {
		const saved = {
			quota: sim.org.contactQuota,
			anonymous: sim.org.anonymousDailyCap,
			names: sim.org.eventNameCap,
		};
		sim.org.contactQuota = sim.org.contacts.size;
		sim.org.anonymousDailyCap = 0;
		sim.org.eventNameCap = sim.org.eventNames.size;
		try {
			const { items } = await run([
				{ name: 'Signed Up', email: 'over-quota@example.com' },
				{ name: 'Page View', session: 'sess-over-cap' },
				{ name: 'Brand New Name', email: 'status-new@example.com' },
			]);
			expect(items.map((item) => [item.json.status, item.json.reason])).toEqual([
				['unresolved', 'contact_limit_reached'],
				['rejected', 'anonymous_daily_limit'],
				['rejected', 'event_name_limit'],
			]);
		} finally {
			Object.assign(sim.org, {
				contactQuota: saved.quota,
				anonymousDailyCap: saved.anonymous,
				eventNameCap: saved.names,
			});
		}
	});

	it('stores nothing new when the same 1,000 rows run again with derived IDs', async () => {
		const rows = Array.from({ length: 1000 }, (_, i) => ({
			name: 'Invoice Paid',
			email: `rerun-${i % 50}@example.com`,
			at: `2024-03-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}+01:00`,
		}));
		const first = await run(rows);
		expect(new Set(statuses(first.items))).toEqual(new Set(['created']));
		const stored = storedEvents(sim.org, { event_name: 'invoice_paid' }).length;
		expect(stored).toBe(1000);
		const again = await run(rows);
		expect(statuses(again.items)).toEqual(rows.map(() => 'duplicate'));
		expect(again.items.map((item) => item.json.event_id)).toEqual(
			first.items.map((item) => item.json.event_id),
		);
		expect(storedEvents(sim.org, { event_name: 'invoice_paid' })).toHaveLength(stored);
	}, 60_000);

	it('derives no ID for rows without a time by default, and one with "Always"', async () => {
		const rows = [
			{ name: 'Coffee Bought', email: 'twice@example.com' },
			{ name: 'Coffee Bought', email: 'twice@example.com' },
		];
		const safe = await run(rows);
		expect(statuses(safe.items)).toEqual(['created', 'created']);
		expect(safe.items.map((item) => item.json.event_id)).toEqual([null, null]);
		const always = await run(rows, { ...fields, options: { deriveEventIds: 'always' } });
		expect(statuses(always.items)).toEqual(['created', 'duplicate']);
	});

	it('lets a given event ID win over a derived one', async () => {
		const { items } = await run([
			{
				name: 'Order Paid',
				email: 'own-id@example.com',
				id: '  order-own-1 ',
				at: '2024-03-01T10:00:00Z',
			},
		]);
		expect(items[0].json).toMatchObject({ status: 'created', event_id: 'order-own-1' });
	});

	it('sends a whole event object given as JSON', async () => {
		const event = {
			event_name: 'cart_abandoned',
			event_id: 'json-1',
			contact: { email: 'json@example.com', name: 'Jo' },
			params: { items: 2 },
			value: 10,
			currency: 'USD',
		};
		const { items } = await run([event], asJson);
		expect(items[0].json).toMatchObject({
			status: 'created',
			event_id: 'json-1',
			event_name: 'cart_abandoned',
		});
		expect(items[0].json).not.toHaveProperty('original_event_name');
		expect(
			(sim.requestsTo('POST', '/v1/events').at(-1)!.body as { events: IDataObject[] }).events[0],
		).toEqual(event);
	});

	it('fails the run before any request when a row cannot be read, naming the item and the field', async () => {
		const before = posts();
		const { error, items } = await run(
			[{ e: { event_name: 'ok', contact: { email: 'a@example.com' } } }, { e: '{not json' }],
			{
				...asJson,
				eventJson: '={{ $json.e }}',
			},
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^Item 1: Event \(JSON\): must be an event object/);
		expect(posts()).toBe(before);
	});

	it('with Continue On Fail, an unreadable row becomes its own error item and the others are sent', async () => {
		const { error, items } = await run(
			[
				{ e: { event_name: 'cof_ok', contact: { email: 'cof@example.com' } } },
				{ e: [1, 2] },
				{ e: { event_name: 'cof_ok', contact: { email: 'cof@example.com' } } },
			],
			{ ...asJson, eventJson: '={{ $json.e }}' },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status ?? 'error')).toEqual([
			'created',
			'error',
			'created',
		]);
		expect(items[1].json.error).toMatch(/^Item 1: Event \(JSON\)/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('adds a summary after the rows, or gives only the summary', async () => {
		const rows = [
			{ name: 'Summary Test', email: 'summary-new@example.com' },
			{ name: 'Summary Test', session: 'sess-summary' },
			{ name: '9 lives', email: 'summary-new@example.com' },
			{ name: 'Summary Test' },
		];
		const both = await run(rows, { ...fields, options: { output: 'eventsAndSummary' } });
		expect(both.items).toHaveLength(5);
		expect(both.items[4].json.summary).toEqual({
			received: 4,
			created: 1,
			pending: 1,
			unresolved: 0,
			duplicate: 0,
			rejected: 1,
			invalid: 1,
			failed: 0,
			contacts_created: 1,
			// the anonymous event goes in a request of its own
			requests: 2,
			stored_this_run_or_earlier: 0,
		});
		expect(both.items[4].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const only = await run(rows, { ...fields, options: { output: 'summary' } });
		expect(only.items).toHaveLength(1);
		expect(only.items[0].json.summary).toMatchObject({ received: 4, duplicate: 0, created: 1 });
	});

	it('never shows the API key in an output item', async () => {
		const { items } = await run([{ name: 'Key Check', email: 'key@example.com' }, { name: '' }]);
		expect(JSON.stringify(items)).not.toContain(sim.apiKey);
	});
});

/** What each mapping mode reads from an item. */
describe('Event → Send, mapping', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({
			limits: { events: 100_000, eventsAnonymous: 100_000, ip: 100_000 },
		});
	});
	afterAll(() => sim.stop());

	function run(items: IDataObject[], parameters: INodeParameters) {
		return runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items,
		});
	}
	const lastSent = () =>
		(sim.requestsTo('POST', '/v1/events').at(-1)!.body as { events: IDataObject[] }).events;
	/** The event of the tests that map every part: "Plan Upgraded" at 10:00 without a zone, with params, value and company. */
	const fullEvent = (eventId: string, contact: IDataObject, sessionId: string) => ({
		event_name: 'Plan Upgraded',
		event_id: eventId,
		// a time without zone is read in the workflow's zone: the harness's is n8n's default, America/New_York
		occurred_at: '2024-05-01T10:00:00.000-04:00',
		contact,
		session_id: sessionId,
		params: { plan: 'pro', seats: 3 },
		value: 19.9,
		currency: 'EUR',
		group: { id: 'acme-1', name: 'Acme', properties: { industry: 'retail' } },
	});

	it('maps every field, reads a time without zone in the workflow time zone, and takes params as pairs or JSON', async () => {
		const contact = addContact(sim.org, { email: 'mapped@example.com' });
		const parameters: INodeParameters = {
			resource: 'event',
			operation: 'send',
			eventName: 'Plan Upgraded',
			contactEmail: 'mapped@example.com',
			paramsInput: 'keyValue',
			params: {
				param: [
					{ key: 'plan', value: '={{ $json.plan }}' },
					{ key: 'seats', value: '={{ $json.seats }}' },
				],
			},
			additionalFields: {
				eventId: 'mapped-1',
				occurredAt: '2024-05-01 10:00:00',
				contactId: contact.id,
				externalId: 'crm-1',
				contactName: 'Ana',
				contactCountry: 'ES',
				sessionId: 'sess-mapped',
				value: '={{ $json.amount }}',
				currency: 'eur',
				groupId: 'acme-1',
				groupName: 'Acme',
				groupProperties: '{"industry": "retail"}',
			},
		};
		const { items, error } = await run([{ plan: 'pro', seats: 3, amount: '19.90' }], parameters);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			status: 'created',
			contact: { id: contact.id, matched_by: 'contact_id' },
		});
		const sent = (sim.requestsTo('POST', '/v1/events').at(-1)!.body as { events: IDataObject[] })
			.events[0];
		expect(sent).toEqual(
			fullEvent(
				'mapped-1',
				{
					contact_id: contact.id,
					external_id: 'crm-1',
					email: 'mapped@example.com',
					name: 'Ana',
					country: 'ES',
				},
				'sess-mapped',
			),
		);

		const json = await run([{}], {
			...parameters,
			paramsInput: 'json',
			paramsJson: '{"plan": "team", "items": [1, 2]}',
			additionalFields: { eventId: 'mapped-2' },
		});
		expect(json.items[0].json.status).toBe('created');
		expect(
			(sim.requestsTo('POST', '/v1/events').at(-1)!.body as { events: IDataObject[] }).events[0]
				.params,
		).toEqual({ plan: 'team', items: [1, 2] });
	});

	it('maps field by field: a dragged field, a bracketed name and a computed expression each give what n8n computes', async () => {
		const { items, error } = await run(
			[
				{ 'Event Name': 'Demo Booked', contact: { email: 'Mixed.Case@Example.com' }, amount: 12 },
				{ 'Event Name': 'Demo Booked', contact: { email: 'Other@Example.com' } },
			],
			{
				resource: 'event',
				operation: 'send',
				eventName: '={{ $json["Event Name"] }}',
				contactEmail: '={{ $json.contact.email.toLowerCase() }}',
				additionalFields: {
					value: '={{ $json.amount }}',
					currency: 'eur',
					eventId: '={{ "demo-" + $itemIndex }}',
				},
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual(['created', 'created']);
		expect(lastSent()).toEqual([
			{
				event_name: 'Demo Booked',
				event_id: 'demo-0',
				contact: { email: 'mixed.case@example.com' },
				value: 12,
				currency: 'EUR',
			},
			{
				event_name: 'Demo Booked',
				event_id: 'demo-1',
				contact: { email: 'other@example.com' },
				currency: 'EUR',
			},
		]);
	});

	it('maps automatically: the documented names, a contact object or its fields at the top level, text as the service wants it', async () => {
		const contact = addContact(sim.org, { email: 'auto-mapped@example.com' });
		const rows: IDataObject[] = [
			{
				event_name: 'Plan Upgraded',
				event_id: 'auto-1',
				occurred_at: '2024-05-01 10:00:00',
				contact_id: contact.id,
				external_id: 1234,
				email: 'auto-mapped@example.com',
				name: 'Ana',
				country: 'ES',
				session_id: 'sess-auto',
				params: '{"plan": "pro", "seats": 3}',
				value: '19.90',
				currency: 'eur',
				group: { id: 'acme-1', name: 'Acme', properties: { industry: 'retail' } },
				unrelated: 'not sent',
			},
			{
				event_name: 'form_sent',
				event_id: 'auto-2',
				contact: { email: 'auto-nested@example.com', phone: 34600000123 },
				create_contact: false,
			},
		];
		const { items, error } = await run(rows, {
			resource: 'event',
			operation: 'send',
			eventInput: 'autoMapInputData',
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual(['created', 'unresolved']);
		expect(lastSent()).toEqual([
			fullEvent(
				'auto-1',
				{
					contact_id: contact.id,
					external_id: '1234',
					email: 'auto-mapped@example.com',
					name: 'Ana',
					country: 'ES',
				},
				'sess-auto',
			),
			{
				event_name: 'form_sent',
				event_id: 'auto-2',
				contact: { email: 'auto-nested@example.com', phone: '34600000123' },
				create_contact: false,
			},
		]);
	});

	it("maps automatically from the user's own field names, and a field named for one part is not read for another", async () => {
		const { items, error } = await run(
			[
				{
					Event: 'Trial Started',
					Email: 'own-names@example.com',
					name: 'Trial Started',
					Amount: 5,
				},
			],
			{
				resource: 'event',
				operation: 'send',
				eventInput: 'autoMapInputData',
				columnNames: { eventName: 'Event', email: 'Email', value: 'Amount', contactName: 'Event' },
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('created');
		// "name" is no longer the contact's name: Contact Name Field says "Event"
		expect(lastSent()).toEqual([
			{
				event_name: 'Trial Started',
				contact: { email: 'own-names@example.com', name: 'Trial Started' },
				value: 5,
			},
		]);
	});

	it('maps automatically: a row the node cannot use is answered on its own item, naming the field, without a request', async () => {
		const before = sim.requestsTo('POST', '/v1/events').length;
		const { items, error } = await run(
			[
				{ Event: 'x', Email: 'y@example.com' },
				{ event_name: 'ok', email: 'y@example.com', params: '{not json' },
			],
			{ resource: 'event', operation: 'send', eventInput: 'autoMapInputData' },
		);
		expect(error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/events').length).toBe(before);
		expect(items[0].json).toMatchObject({
			status: 'invalid',
			errors: ['event_name is required and must be a string'],
		});
		expect(items[1].json).toMatchObject({
			status: 'invalid',
			errors: ['params must be an object'],
		});
	});
});

describe.each([
	['JSON', { resource: 'event', operation: 'send', eventInput: 'json', eventJson: '={{ $json }}' }],
	[
		'mapped automatically',
		{ resource: 'event', operation: 'send', eventInput: 'autoMapInputData' },
	],
] as Array<[string, INodeParameters]>)(
	'Event → Send when the service fails, %s',
	(_mode, asJson) => {
		// on the fake clock: the repeats' backoff and the request timeout pass without waiting
		let time: FakeTime;
		let sim: Simulator;
		beforeAll(async () => {
			time = installFakeTime();
			sim = await startSimulator({ limits: { events: 100_000, ip: 100_000 } });
		});
		afterAll(async () => {
			await sim.stop();
			time.uninstall();
		});
		afterEach(() => sim.faults.clear());
		const run = (options: RunNodeOptions) => time.runUntilSettled(runNode(options));

		const rows = (prefix: string, count: number, withIds: boolean) =>
			Array.from({ length: count }, (_, i) => ({
				event_name: 'fault_test',
				...(withIds ? { event_id: `${prefix}-${i}` } : {}),
				contact: { email: `${prefix}-${i}@example.com` },
			}));
		const posts = () => sim.requestsTo('POST', '/v1/events').length;

		it('stops the run with one clear error when the events add-on is off', async () => {
			const before = posts();
			const { error, items } = await run({
				credentials: { apiKey: sim.otherOrg.apiKey, baseUrl: sim.baseUrl },
				parameters: asJson,
				items: rows('addon', 250, true),
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toContain('The events add-on is not enabled for this organization');
			expect(posts() - before).toBe(1);
		});

		it('with Continue On Fail, the add-on being off makes every row an error item and sends nothing more', async () => {
			const before = posts();
			const { error, items } = await run({
				credentials: { apiKey: sim.otherOrg.apiKey, baseUrl: sim.baseUrl },
				parameters: asJson,
				items: [...rows('addon-cof', 250, true), { event_name: '1 bad' }],
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(posts() - before).toBe(1);
			expect(items).toHaveLength(251);
			expect(
				items
					.slice(0, 250)
					.every((item) => /events add-on is not enabled/.test(String(item.json.error))),
			).toBe(true);
			// a row the node answered itself keeps its answer
			expect(items[250].json.status).toBe('invalid');
		});

		it('repeats a batch whose connection dropped after it was stored, when every event has an ID: nothing stored twice', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/events',
				fault: { drop: true, afterHandling: true },
			});
			const { error, items } = await run({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: asJson,
				items: rows('drop', 150, true),
			});
			expect(error).toBeUndefined();
			expect(items.slice(0, 100).every((item) => item.json.status === 'duplicate')).toBe(true);
			expect(items.slice(100).every((item) => item.json.status === 'created')).toBe(true);
			expect(
				storedEvents(sim.org, { event_name: 'fault_test' }).filter((e) =>
					e.event_id?.startsWith('drop-'),
				),
			).toHaveLength(150);
		});

		it.each([
			['a 500 after the batch was stored', '500', { status: 500, afterHandling: true }],
			['the answer lost after the batch was stored', 'drop', { drop: true, afterHandling: true }],
			// the answer comes a minute after the batch was stored, past the node's 30 s request timeout
			['a timeout after the batch was stored', 'timeout', { delayMs: 60_000, afterHandling: true }],
		])(
			"after %s, the repeat's duplicates say this run or an earlier one stored them, and the summary counts no creation",
			async (_fault, tag, fault) => {
				const items = rows(`uncertain-${_mode.replace(/ /g, '-')}-${tag}`, 3, true);
				sim.faults.inject({ method: 'POST', path: '/v1/events', fault });
				const postsBefore = posts();
				const repeated = await run({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					parameters: { ...asJson, options: { output: 'eventsAndSummary' } },
					items,
				});
				expect(repeated.error).toBeUndefined();
				// the first attempt stored the 3 events and created their 3 contacts; the repeat stored nothing
				const stored = storedEvents(sim.org, { event_name: 'fault_test' }).filter((e) =>
					items.some((row) => row.event_id === e.event_id),
				);
				expect(stored).toHaveLength(3);
				expect(
					repeated.items.slice(0, 3).map((item) => [item.json.status, item.json.stored_by]),
				).toEqual(Array(3).fill(['duplicate', 'this_run_or_an_earlier_run']));
				expect(repeated.items[0].json.note).toContain(
					"this run's first attempt or by an earlier run",
				);
				expect(repeated.items[3].json.summary).toMatchObject({
					created: 0,
					duplicate: 0,
					stored_this_run_or_earlier: 3,
					contacts_created: 0,
					// the first attempt and its repeat: both were sent
					requests: 2,
				});
				expect(posts() - postsBefore).toBe(2);

				// an earlier run's events, sent again without a fault: plain duplicates, counted as such
				const again = await run({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					parameters: { ...asJson, options: { output: 'eventsAndSummary' } },
					items,
				});
				expect(
					again.items
						.slice(0, 3)
						.every((item) => item.json.status === 'duplicate' && !('stored_by' in item.json)),
				).toBe(true);
				expect(again.items[3].json.summary).toMatchObject({
					created: 0,
					duplicate: 3,
					stored_this_run_or_earlier: 0,
				});
			},
		);

		it('does not repeat a batch without IDs after a 5xx; its rows fail, the next batch goes on', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/events',
				fault: { status: 500, afterHandling: true },
			});
			const before = posts();
			const { error, items } = await run({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { ...asJson, options: { deriveEventIds: 'never' } },
				items: rows('noid', 150, false),
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(posts() - before).toBe(2);
			expect(
				items
					.slice(0, 100)
					.every((item) =>
						/was not repeated because some events have no event ID/.test(
							String(item.json.description),
						),
					),
			).toBe(true);
			expect(items.slice(100).every((item) => item.json.status === 'created')).toBe(true);
		});

		it('without Continue On Fail, a failed batch stops the run and says what was stored before it', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/events',
				fault: { status: 400, body: { statusCode: 400, message: 'bad batch' } },
			});
			const ok = await run({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: asJson,
				items: rows('stop', 150, true),
			});
			expect(ok.error?.message).toContain('HTTP 400');
			expect(ok.error?.description).toContain('The failed request held items 0 to 99');
		});
	},
);
