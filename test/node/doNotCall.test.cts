import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { getGlobalState } from 'n8n-workflow';
import { DateTime } from 'luxon';

import {
	ACTION_NODE_NAME,
	actionWorkflow,
	CREDENTIAL_REF,
	runNode,
	runWorkflow,
	type RunNodeOptions,
	type WorkflowJson,
} from '../../harness/engine.cts';
import { ACTION_NODE } from '../../harness/nodeTypes.cts';
import {
	addContact,
	insertCall,
	insertContacts,
	startSimulator,
	type Contact,
	type Simulator,
} from '../../simulator/index.cts';
import { contactCall, phoneCall, TO_EACH_ITEM } from '../helpers/placement.cts';

/**
 * Do not call and calls per person (docs/calls.md): the Place operations skip a number on the
 * organization's do-not-call list (contacts marked with Contact → Mark Do Not Call) or on a list the
 * user gives, before any placement, and fail an item whose number reached Max Calls per Person.
 * What is checked is the simulator's own log of requests and calls, not the node's output.
 */

const PHONE_CALLS = '/v1/calls/single-phone-call';
const CONTACT_CALLS = '/v1/calls/single-contact-call';
/** The calendar day n days ago in the workflow's zone (n8n's default): 40 × 24 h can span 39 days across a clock change. */
const workflowDaysAgo = (days: number) =>
	DateTime.now().setZone(getGlobalState().defaultTimezone).minus({ days }).toISODate()!;

describe('Do not call and Max Calls per Person on the Place operations', () => {
	let sim: Simulator;
	beforeEach(async () => {
		// budgets are not what these tests are about: the node's pacing would wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
	});
	afterEach(() => sim.stop());

	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
	const run = (parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}) =>
		runNode({ credentials: credentials(), parameters, ...extra });
	const placedTo = (path: string) =>
		sim.requestsTo('POST', path).map((request) => {
			const body = request.body as IDataObject;
			return String(body.to_number ?? body.contact_id);
		});
	const flag = (contact: Contact, date = '2026-11-02') =>
		contact.additional_data.push({ type: 'date', field: 'do_not_call', value: date });

	const people = [
		{ to: '+14155550101', name: 'Ann' },
		{ to: '+14155550102', name: 'Bob' },
	];

	it("Place AI Call skips a number on the organization's list by default, and the item says so", async () => {
		const ann = addContact(sim.org, { phone_number: '+14155550101', full_name: 'Ann' });
		flag(ann);

		const { items, error } = await run(phoneCall(sim, TO_EACH_ITEM), { items: people });

		expect(error).toBeUndefined();
		expect(placedTo(PHONE_CALLS)).toEqual(['+14155550102']);
		expect(items[0].json).toEqual(
			expect.objectContaining({
				call_id: null,
				status: 'skipped',
				reason: 'do_not_call',
				list: 'organization',
				phone_number: '+14155550101',
				contact_id: ann.id,
				marked_on: '2026-11-02',
			}),
		);
		expect(items[1].json.call_id).toEqual(expect.any(String));
		// two numbers: the organization's first page holds every contact, one listing instead of two lookups
		expect(sim.requestsTo('GET', '/v1/contacts').map((r) => r.query)).toEqual([
			{ limit: '1000', offset: '0' },
		]);
	});

	it('with Wait for Outcome, a skipped item is answered at once: nothing placed, nothing awaited', async () => {
		flag(addContact(sim.org, { phone_number: '+14155550101' }));
		const { items, error } = await run(
			phoneCall(sim, { toNumber: '+14155550101', waitFor: 'ended', waitOptions: {} }),
		);
		expect(error).toBeUndefined();
		expect(placedTo(PHONE_CALLS)).toEqual([]);
		expect(items.map((item) => item.json.status)).toEqual(['skipped']);
	});

	it('the organization list can be turned off, for a call the person asked for', async () => {
		flag(addContact(sim.org, { phone_number: '+14155550101' }));
		await run(
			phoneCall(sim, {
				...TO_EACH_ITEM,
				additionalFields: { doNotCall: { lists: { organizationList: false } } },
			}),
			{ items: people },
		);
		expect(placedTo(PHONE_CALLS)).toEqual(['+14155550101', '+14155550102']);
		expect(sim.requestsTo('GET', '/v1/contacts')).toHaveLength(0);
	});

	it('Place AI Call to Contact skips a marked contact: 0 calls', async () => {
		const parameters = contactCall(sim);
		const john = [...sim.org.contacts.values()].find((c) => c.phone_number === '+14155550123')!;
		flag(john);

		const { items, error } = await run(parameters);

		expect(error).toBeUndefined();
		expect(placedTo(CONTACT_CALLS)).toEqual([]);
		expect(items[0].json).toMatchObject({
			call_id: null,
			status: 'skipped',
			list: 'organization',
			contact_id: john.id,
			phone_number: '+14155550123',
		});
	});

	it('a given list skips its numbers; one scrubbed more than 31 days ago is refused before any request', async () => {
		const given = (scrubbedOn: string) =>
			phoneCall(sim, {
				...TO_EACH_ITEM,
				additionalFields: { doNotCall: { lists: { numbers: '+1 415 555 0102', scrubbedOn } } },
			});

		const stale = await run(given(workflowDaysAgo(40)), {
			items: people,
		});
		expect(stale.error?.message).toMatch(
			/^Item 0: Additional Fields → Do Not Call → List Scrubbed On: .* is 40 days before the call/,
		);
		expect(sim.requests).toHaveLength(0);

		const fresh = await run(given(workflowDaysAgo(10)), {
			items: people,
		});
		expect(fresh.error).toBeUndefined();
		expect(placedTo(PHONE_CALLS)).toEqual(['+14155550101']);
		expect(fresh.items[1].json).toMatchObject({
			call_id: null,
			status: 'skipped',
			list: 'given',
			phone_number: '+14155550102',
		});
	});

	it('numbers without a scrub date are refused, naming the field', async () => {
		const { error } = await run(
			phoneCall(sim, { additionalFields: { doNotCall: { lists: { numbers: ['+14155550102'] } } } }),
		);
		expect(error?.message).toMatch(
			/^Item 0: Additional Fields → Do Not Call → List Scrubbed On: required/,
		);
		expect(sim.requests).toHaveLength(0);
	});

	it('Mark Do Not Call then Place AI Call in one workflow run: 0 calls', async () => {
		const workflow = actionWorkflow({
			parameters: {
				resource: 'contact',
				operation: 'markDoNotCall',
				phoneNumber: '={{ $json.to }}',
			},
			items: [{ to: '+1 (415) 555-0177', name: 'Opted Out' }],
		});
		workflow.nodes.push({
			id: 'n4',
			name: 'Place',
			type: ACTION_NODE,
			typeVersion: 1,
			position: [600, 0],
			parameters: phoneCall(sim, {
				toNumber: '={{ $json.phone_number }}',
				fullName: "={{ $('Items').item.json.name }}",
			}),
			credentials: CREDENTIAL_REF,
		});
		workflow.connections[ACTION_NODE_NAME] = {
			main: [[{ node: 'Place', type: 'main', index: 0 }]],
		};

		const run = await runWorkflow(workflow, credentials());

		expect(run.data.resultData.error).toBeUndefined();
		const marked = [...sim.org.contacts.values()].find((c) => c.phone_number === '+14155550177')!;
		expect(marked.additional_data).toEqual([
			{ type: 'date', field: 'do_not_call', value: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) },
		]);
		expect(placedTo(PHONE_CALLS)).toEqual([]);
		expect(run.data.resultData.runData.Place[0].data!.main[0]![0].json).toMatchObject({
			status: 'skipped',
			contact_id: marked.id,
		});
	});

	it('Mark Do Not Call keeps the other custom fields and the first date; by ID too', async () => {
		const ana = addContact(sim.org, {
			phone_number: '+34600009999',
			additional_data: [{ type: 'text', field: 'plan', value: 'premium' }],
		});
		const first = await run({
			resource: 'contact',
			operation: 'markDoNotCall',
			markBy: 'contact',
			contactId: { __rl: true, mode: 'id', value: ana.id },
		});
		expect(first.error).toBeUndefined();
		expect(ana.additional_data).toEqual([
			{ type: 'text', field: 'plan', value: 'premium' },
			{ type: 'date', field: 'do_not_call', value: first.items[0].json.do_not_call },
		]);
		expect(first.items[0].json).toMatchObject({ id: ana.id, already_marked: false });

		ana.additional_data[1].value = '2026-01-05';
		const again = await run({
			resource: 'contact',
			operation: 'markDoNotCall',
			phoneNumber: '+34 600 009 999',
		});
		expect(again.items[0].json).toMatchObject({
			id: ana.id,
			do_not_call: '2026-01-05',
			already_marked: true,
		});
		expect(sim.requestsTo('PATCH')).toHaveLength(1);
		expect(sim.requestsTo('POST', '/v1/contacts')).toHaveLength(0);
	});

	it('Mark Do Not Call reads a national number with its Default Country, and refuses it without one before any request', async () => {
		const ana = addContact(sim.org, { phone_number: '+14155550166', additional_data: [] });
		const national = await run({
			resource: 'contact',
			operation: 'markDoNotCall',
			phoneNumber: '(415) 555-0166',
			defaultCountry: 'US',
		});
		expect(national.error).toBeUndefined();
		expect(national.items[0].json).toMatchObject({ id: ana.id, already_marked: false });
		const requests = sim.requests.length;
		const without = await run({
			resource: 'contact',
			operation: 'markDoNotCall',
			phoneNumber: '(415) 555-0166',
		});
		expect(without.error?.message).toMatch(/^Item 0: Phone Number: /);
		expect(sim.requests.length).toBe(requests);
	});

	it('5 executions at once marking the same new number: one contact, marked, and no item fails', async () => {
		const runs = await Promise.all(
			[0, 1, 2, 3, 4].map((at) =>
				run(
					{ resource: 'contact', operation: 'markDoNotCall', phoneNumber: '+14155550188' },
					{ executionId: `exec-${at}` },
				),
			),
		);
		const stored = [...sim.org.contacts.values()].filter((c) => c.phone_number === '+14155550188');
		expect(stored).toHaveLength(1);
		expect(runs.map((r) => r.error)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(new Set(runs.map((r) => r.items[0].json.id))).toEqual(new Set([stored[0].id]));
		expect(stored[0].additional_data.map((entry) => entry.field)).toEqual(['do_not_call']);
	});

	it('a loop back into Place AI Call stops at Max Calls per Person: 3 calls, an error naming the number and the calls', async () => {
		const person = { to: '+14155550150', name: 'Looped' };
		let loops = 0;
		const workflow: WorkflowJson = actionWorkflow({
			parameters: phoneCall(sim, {
				...TO_EACH_ITEM,
				additionalFields: { maxCallsPerPerson: { cap: { calls: 3, hours: 24 } } },
			}),
			items: [person],
		});
		workflow.nodes.push({
			id: 'n4',
			name: 'Loop',
			type: 'test.loopBack',
			typeVersion: 1,
			position: [600, 0],
			parameters: {},
		});
		workflow.connections[ACTION_NODE_NAME] = { main: [[{ node: 'Loop', type: 'main', index: 0 }]] };
		workflow.connections.Loop = {
			main: [[{ node: ACTION_NODE_NAME, type: 'main', index: 0 }], []],
		};
		// the Switch that falls through back into the call node: 5 runs of it at most
		const loopBack: INodeType = {
			description: {
				displayName: 'Loop Back',
				name: 'loopBack',
				group: ['transform'],
				version: 1,
				description: 'Sends the person back to the call node, 4 times',
				defaults: { name: 'Loop' },
				inputs: ['main'],
				outputs: ['main', 'main'],
				properties: [],
			} as unknown as INodeTypeDescription,
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				loops++;
				const again = [{ json: person }];
				return loops < 5 ? [again, []] : [[], again];
			},
		};

		const run = await runWorkflow(workflow, credentials(), { 'test.loopBack': loopBack });

		const calls = [...sim.org.calls.values()].filter((call) => call.to === person.to);
		expect(calls).toHaveLength(3);
		expect(placedTo(PHONE_CALLS)).toHaveLength(3);
		const error = run.data.resultData.error!;
		expect(error.message).toBe(
			'Item 0: +14155550150 was already called 3 times in the last 24 hours (Max Calls per Person: 3), so no call was placed',
		);
		for (const call of calls) expect(error.description).toContain(call.id);
		expect(run.data.resultData.runData[ACTION_NODE_NAME]).toHaveLength(4);
		// one call-list read per run of the node
		expect(sim.requestsTo('GET', '/v1/calls')).toHaveLength(4);
	});

	it('Max Calls per Person counts the calls of every workflow in the period, and the calls of this run', async () => {
		const to = '+14155550160';
		insertCall(sim, { to, created_at: new Date(Date.now() - 2 * 3_600_000).toISOString() });
		insertCall(sim, { to, created_at: new Date(Date.now() - 30 * 3_600_000).toISOString() });
		const { items } = await run(
			phoneCall(sim, {
				...TO_EACH_ITEM,
				additionalFields: { maxCallsPerPerson: { cap: { calls: 2, hours: 24 } } },
			}),
			{ items: [1, 2, 3].map(() => ({ to, name: 'Pat' })), continueOnFail: true },
		);
		expect(placedTo(PHONE_CALLS)).toEqual([to]);
		expect(items[0].json.call_id).toEqual(expect.any(String));
		expect(items[1].json.error).toMatch(/already called 2 times in the last 24 hours/);
		expect(items[2].json.description).toMatch(/item 0 of this run/);
	});

	it('Only in Lawful Calling Hours refuses, before dialling, a call that would start outside the hours of its place, and names the rule and the next lawful time', async () => {
		const florida = '+13055550101'; // Fla. Stat. § 501.616: 08:00 to 20:00
		const { items } = await run(
			phoneCall(sim, {
				toNumber: '={{ $json.to }}',
				additionalFields: {
					lawfulHoursOnly: true,
					doNotCall: { lists: { organizationList: false } },
					schedule: { at: { dateTime: '={{ $json.when }}', timezone: 'America/New_York' } },
				},
			}),
			{
				items: [
					{ to: florida, when: '2027-01-15T21:00:00' },
					{ to: florida, when: '2027-01-15T10:00:00' },
					{ to: '+19995550123', when: '2027-01-15T10:00:00' },
				],
				continueOnFail: true,
			},
		);

		expect(items[0].json.error).toBe(
			`Item 0: a call to ${florida} at 2027-01-16T02:00:00.000Z is outside the lawful calling hours of its place (US-FL 08:00-20:00, source Fla. Stat. § 501.616(6)(a) (Florida Telephone Solicitation Act, 2021 amendment)), so no call was placed; the next lawful time: 2027-01-16T13:00:00.000Z`,
		);
		expect(items[1].json.call_id).toEqual(expect.any(String));
		expect(items[2].json.error).toMatch(
			/^Item 2: area code 999 of \+19995550123 is not an assigned/,
		);
		expect(placedTo(PHONE_CALLS)).toEqual([florida]);
	});

	it('1,000 people of whom 100 are marked, over 5 executions at once: no marked number is called', async () => {
		const contacts = insertContacts(sim, sim.org, 1000);
		const marked = new Set(contacts.filter((_, at) => at % 10 === 3).map((c) => c.phone_number));
		for (const contact of contacts) if (marked.has(contact.phone_number)) flag(contact);
		const everyone = contacts.map((c) => ({ to: c.phone_number, name: c.full_name }));
		const slices = [0, 1, 2, 3, 4].map((at) => everyone.slice(at * 200, at * 200 + 200));

		const runs = await Promise.all(
			slices.map((items, at) =>
				run(phoneCall(sim, TO_EACH_ITEM), { items, executionId: `exec-${at}` }),
			),
		);

		const called = placedTo(PHONE_CALLS);
		expect(called).toHaveLength(900);
		expect(called.filter((number) => marked.has(number))).toEqual([]);
		const skipped = runs.flatMap((r) => r.items).filter((item) => item.json.status === 'skipped');
		expect(new Set(skipped.map((item) => item.json.phone_number))).toEqual(marked);
		// each execution read the organization's contacts whole: 2 pages, no look-up per number
		expect(sim.requestsTo('GET', '/v1/contacts')).toHaveLength(5 * 2);
	});

	it('Place AI Call to Contact over 1,000 contacts of whom 100 are marked, over 5 executions at once: no marked contact is called', async () => {
		const contacts = insertContacts(sim, sim.org, 1000);
		const marked = new Set(contacts.filter((_, at) => at % 10 === 7).map((c) => c.id));
		for (const contact of contacts) if (marked.has(contact.id)) flag(contact);
		const parameters = contactCall(sim, {
			contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		});
		const slices = [0, 1, 2, 3, 4].map((at) =>
			contacts.slice(at * 200, at * 200 + 200).map(({ id }) => ({ id })),
		);

		const runs = await Promise.all(
			slices.map((items, at) => run(parameters, { items, executionId: `exec-${at}` })),
		);

		expect(runs.map((r) => r.error)).toEqual(runs.map(() => undefined));
		const called = placedTo(CONTACT_CALLS);
		expect(called).toHaveLength(900);
		expect(called.filter((id) => marked.has(id))).toEqual([]);
		const skipped = runs.flatMap((r) => r.items).filter((item) => item.json.status === 'skipped');
		expect(new Set(skipped.map((item) => item.json.contact_id))).toEqual(marked);
	});
});
