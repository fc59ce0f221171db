import type { IBinaryKeyData, IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import {
	NUMBERING_PLAN_SOURCES,
	NUMBERING_PLANS,
} from '../../nodes/VoiceAgentCrm/shared/phoneNumbers';
import { addContact, startSimulator, type Simulator } from '../../simulator/index.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * Phone numbers as CRMs hold them (issue 42; docs/forms.md, "Phone numbers"): the forms one number
 * is written in are one number, the same in every operation with a phone field, from one module;
 * what cannot be read as one number is refused on its item with the field named, never guessed.
 */

const UNLIMITED = { org: 1e9, listing: 1e9, ip: 1e9 };
const WRITES = /^(POST|PATCH|PUT|DELETE)$/;
const E164_MESSAGE =
	'must be a phone number in international E.164 format: + then 8 to 15 digits, like +14155550123';

/** One London number, as exports write it; the country (for Default Country) beside it. */
const LONDON_FORMS: IDataObject[] = [
	{ phone: '+44 020 7946 0381', country: '' },
	{ phone: '+44 (0) 20 7946 0381', country: '' },
	{ phone: '0044 20 7946 0381', country: '' },
	{ phone: '020 7946 0381', country: 'GB' },
	{ phone: '+442079460381', country: '' },
];

function csvFile(content: string): IBinaryKeyData {
	return {
		data: {
			data: Buffer.from(content, 'utf8').toString('base64'),
			mimeType: 'text/csv',
			fileName: 'crm.csv',
		},
	};
}

describe('phone numbers as CRMs hold them', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ limits: UNLIMITED });
	});
	afterAll(() => sim.stop());

	const run = (parameters: INodeParameters, items: IDataObject[] = [{}], continueOnFail = true) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items,
			continueOnFail,
		});
	const upsert = (rows: IDataObject[], parameters: INodeParameters = {}) =>
		run(
			{
				resource: 'contact',
				operation: 'upsert',
				phoneNumber: '={{ $json.phone }}',
				email: '',
				defaultCountry: '={{ $json.country }}',
				additionalFields: { fullName: '={{ $json.name }}' },
				...parameters,
			},
			rows,
		);
	const withPhone = (phone: string) =>
		[...sim.org.contacts.values()].filter((contact) => contact.phone_number === phone);
	const writesSince = (before: number) =>
		sim.requests.slice(before).filter((request) => WRITES.test(request.method));

	describe('Contact → Create or Update', () => {
		it('rows with one number in five forms (trunk 0 with and without brackets, 00, national with Default Country GB) make one contact, and a re-run writes nothing', async () => {
			const rows = LONDON_FORMS.map((form) => ({ ...form, name: 'Lena' }));
			let before = sim.requests.length;
			const { items, error } = await upsert(rows);
			expect(error).toBeUndefined();
			// one person: the later rows of the number are merged into the first's write
			expect(items.map((item) => item.json.status)).toEqual([
				'created',
				'merged',
				'merged',
				'merged',
				'merged',
			]);
			expect(withPhone('+442079460381')).toHaveLength(1);
			expect(new Set(items.map((item) => item.json.contact_id)).size).toBe(1);
			expect(writesSince(before)).toHaveLength(1);
			before = sim.requests.length;
			const again = await upsert(rows);
			expect(again.items.map((item) => item.json.status)).toEqual([
				'unchanged',
				...Array(4).fill('merged'),
			]);
			expect(writesSince(before)).toEqual([]);
		});

		it('"(212) 555-0101" with Default Country US is the contact "+1 212 555 0101" holds: no second contact', async () => {
			const { items } = await upsert([
				{ phone: '+1 212 555 0101', country: '', name: 'Sam' },
				{ phone: '(212) 555-0101', country: 'US', name: 'Sam' },
				{ phone: '1 (212) 555-0101', country: 'US', name: 'Sam' },
			]);
			// one person: the later rows of the number are merged into the first's write
			expect(items.map((item) => item.json.status)).toEqual(['created', 'merged', 'merged']);
			expect(withPhone('+12125550101')).toHaveLength(1);
		});

		it('a contact stored with the trunk 0 kept ("+4402079460382") is the person a row "+44 20 7946 0382" names: no second contact', async () => {
			const stored = addContact(sim.org, { phone_number: '+4402079460382', full_name: 'Old Form' });
			const before = sim.requests.length;
			const { items } = await upsert([
				{ phone: '+44 20 7946 0382', country: '', name: 'Old Form' },
			]);
			expect(items[0].json).toMatchObject({ status: 'unchanged', contact_id: stored.id });
			expect(writesSince(before)).toEqual([]);
			expect(withPhone('+442079460382')).toEqual([]);
		});

		it('a national number without Default Country is refused on its row with the field named, and nothing is written', async () => {
			const before = sim.requests.length;
			const { items } = await upsert([{ phone: '0207 946 0103', country: '', name: 'No Country' }]);
			expect(items[0].json.status).toBe('refused');
			expect(items[0].json.reason).toMatch(/^Phone Number: /);
			expect(items[0].json.reason).toContain(E164_MESSAGE);
			expect(items[0].json.reason).toContain('read only with a Default Country');
			expect(writesSince(before)).toEqual([]);
		});

		it('a Default Country the table does not know is refused on its row, naming Default Country', async () => {
			const { items } = await upsert([{ phone: '0207 946 0103', country: 'XX', name: 'X' }]);
			expect(items[0].json.status).toBe('refused');
			expect(items[0].json.reason).toMatch(
				/^Default Country: must be a country of the node's numbering table.*\(got "XX"\)/,
			);
		});

		it('from a file: the phone column in the same five forms, read with Default Country GB, makes one contact', async () => {
			const csv = [
				'phone_number,full_name',
				'+44 020 7946 0391,Fay',
				'"+44 (0) 20 7946 0391",Fay',
				'0044 20 7946 0391,Fay',
				'020 7946 0391,Fay',
				'7946 0391,Fay',
			].join('\n');
			const { items, error } = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource: 'contact',
					operation: 'upsert',
					contactSource: 'file',
					defaultCountry: 'GB',
				},
				items: [{}],
				binary: [csvFile(csv)],
			});
			expect(error).toBeUndefined();
			expect(items[0].json.summary).toMatchObject({
				rows_read: 5,
				created: 1,
				merged: 3,
				refused: 1,
			});
			expect(JSON.stringify(items[0].json)).toContain('must begin with the trunk prefix 0');
			expect(withPhone('+442079460391')).toHaveLength(1);
		});
	});

	describe('Contact → Create and Update', () => {
		it('Italy keeps its 0: "+39 06 1234 5678" and "06 1234 5678" with Default Country IT are +390612345678', async () => {
			const international = await run({
				resource: 'contact',
				operation: 'create',
				phoneNumber: '+39 06 1234 5678',
				additionalFields: {},
			});
			expect(international.items[0].json.phone_number).toBe('+390612345678');
			const national = await run({
				resource: 'contact',
				operation: 'update',
				contactId: { __rl: true, mode: 'id', value: String(international.items[0].json.id) },
				defaultCountry: 'IT',
				updateFields: { phoneNumber: '06 1234 5679' },
			});
			expect(national.items[0].json.error).toBeUndefined();
			expect(national.items[0].json.phone_number).toBe('+390612345679');
		});

		it('Create refuses a national number without Default Country before sending, naming the item and the field', async () => {
			const before = sim.requests.length;
			const { items } = await run({
				resource: 'contact',
				operation: 'create',
				phoneNumber: '(212) 555-0101',
				additionalFields: {},
			});
			expect(sim.requests.length).toBe(before);
			expect(items[0].json.error).toMatch(/item 0.*Phone Number/is);
			expect(items[0].json.error).toContain(E164_MESSAGE);
		});
	});

	describe('Place AI Call', () => {
		const placeCall = (toNumber: string, defaultCountry: string): INodeParameters => ({
			resource: 'call',
			operation: 'placePhoneCall',
			agentId: { __rl: true, mode: 'id', value: [...sim.org.agents.values()][0].id },
			fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
			toNumber,
			defaultCountry,
			fullName: 'Jane Doe',
			additionalFields: {},
		});

		it('with Default Country GB dials "0207 946 0103" as +442079460103 (the simulator\'s call log)', async () => {
			const { items } = await run(placeCall('0207 946 0103', 'GB'));
			expect(items[0].json.error).toBeUndefined();
			expect(sim.org.calls.get(String(items[0].json.call_id))).toMatchObject({
				to: '+442079460103',
			});
		});

		it('without Default Country refuses a national number before sending, naming To Number', async () => {
			const before = sim.requests.length;
			const { items } = await run(placeCall('0207 946 0103', ''));
			expect(sim.requests.length).toBe(before);
			expect(items[0].json.error).toMatch(/item 0.*To Number/is);
			expect(items[0].json.error).toContain('read only with a Default Country');
		});

		it('a national number that may be a local one ("7946 0103" with GB) is refused, not guessed', async () => {
			const before = sim.requests.length;
			const { items } = await run(placeCall('7946 0103', 'GB'));
			expect(sim.requests.length).toBe(before);
			expect(items[0].json.error).toMatch(/To Number.*must begin with the trunk prefix 0/is);
		});
	});

	describe('Event → Send', () => {
		const send = (contactPhone: string, defaultCountry: string) =>
			run({
				resource: 'event',
				operation: 'send',
				eventInput: 'fields',
				eventName: 'trial_started',
				contactPhone,
				defaultCountry,
				paramsInput: 'json',
				additionalFields: {},
				options: {},
			});
		const lastSentPhone = () => {
			const body = sim.requestsTo('POST', '/v1/events').at(-1)!.body as { events: IDataObject[] };
			return (body.events[0].contact as IDataObject).phone;
		};

		it('with Default Country GB sends "0207 946 0103" and "+44 020 7946 0103" as +442079460103', async () => {
			for (const phone of ['0207 946 0103', '+44 020 7946 0103']) {
				const { items } = await send(phone, 'GB');
				expect(items[0].json.error).toBeUndefined();
				expect(lastSentPhone()).toBe('+442079460103');
			}
		});

		it('with Default Country a phone that cannot be read is answered invalid, naming contact.phone, and not sent', async () => {
			const before = sim.requestsTo('POST', '/v1/events').length;
			const { items } = await send('7946 0103', 'GB');
			expect(items[0].json.status).toBe('invalid');
			expect(String((items[0].json.errors as string[])[0])).toMatch(/^contact\.phone must be/);
			expect(sim.requestsTo('POST', '/v1/events')).toHaveLength(before);
		});

		it("from a file with Default Country GB: each row's phone sent in E.164, a row whose phone cannot be read answered invalid with its row (line) number", async () => {
			const before = sim.requestsTo('POST', '/v1/events').length;
			const csv = [
				'event_name,phone',
				'trial_started,0207 946 0104',
				'trial_started,"+44 (0) 20 7946 0105"',
				'trial_started,7946 0106',
			].join('\n');
			const { items, error } = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource: 'event',
					operation: 'send',
					eventInput: 'file',
					defaultCountry: 'GB',
					options: {},
				},
				items: [{}],
				binary: [csvFile(csv)],
			});
			expect(error).toBeUndefined();
			const posts = sim.requestsTo('POST', '/v1/events').slice(before);
			const sent = posts.flatMap((post) => (post.body as { events: IDataObject[] }).events);
			expect(sent.map((event) => (event.contact as IDataObject).phone)).toEqual([
				'+442079460104',
				'+442079460105',
			]);
			expect(JSON.stringify(items[0].json)).toMatch(
				/"row":4,"status":"invalid","reason":"contact\.phone must be/,
			);
		});

		it("Map Automatically with Default Country from each row: each phone read with its row's country; a row whose country is none of the table answered invalid, naming Default Country; the others sent", async () => {
			const before = sim.requestsTo('POST', '/v1/events').length;
			const { items, error } = await run(
				{
					resource: 'event',
					operation: 'send',
					eventInput: 'autoMapInputData',
					defaultCountry: '={{ $json.country }}',
					options: {},
				},
				[
					{ event_name: 'signed_up', phone: '(212) 555-0107', country: 'US' },
					{ event_name: 'signed_up', phone: '0207 946 0107', country: 'XX' },
					{ event_name: 'signed_up', phone: '0207 946 0107', country: 'GB' },
				],
				false,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.status)).toEqual(['created', 'invalid', 'created']);
			expect(String((items[1].json.errors as string[])[0])).toMatch(
				/^Default Country: must be a country of the node's numbering table.*\(got "XX"\)/,
			);
			const sent = sim
				.requestsTo('POST', '/v1/events')
				.slice(before)
				.flatMap((post) => (post.body as { events: IDataObject[] }).events);
			expect(sent.map((event) => (event.contact as IDataObject).phone)).toEqual([
				'+12125550107',
				'+442079460107',
			]);
		});

		it('without Default Country the phone is sent as written (the service compares its last 10 digits)', async () => {
			const { items } = await send('0207 946 0103', '');
			expect(items[0].json.error).toBeUndefined();
			expect(lastSentPhone()).toBe('0207 946 0103');
		});
	});

	describe('the numbering-plan table', () => {
		it('has one row per country, each with its calling code, its trunk prefix, its lengths and a cited source; codes are prefix-free', () => {
			const countries = NUMBERING_PLANS.map((plan) => plan.country);
			expect(new Set(countries).size).toBe(countries.length);
			for (const plan of NUMBERING_PLANS) {
				expect(plan.country).toMatch(/^[A-Z]{2}$/);
				expect(plan.code).toMatch(/^[1-9]\d{0,2}$/);
				expect(plan.trunkPrefix ?? '0').toMatch(/^\d{1,2}$/);
				expect(plan.digits[0]).toBeLessThanOrEqual(plan.digits[1]);
				expect(plan.code.length + plan.digits[1]).toBeLessThanOrEqual(15);
				expect(NUMBERING_PLAN_SOURCES[plan.source]).toBeTruthy();
			}
			const codes = [...new Set(NUMBERING_PLANS.map((plan) => plan.code))];
			for (const code of codes)
				for (const other of codes) if (other !== code) expect(other.startsWith(code)).toBe(false);
		});
	});
});

describe('Run Campaign reads its people with Default Country', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	it('one London number in three forms is one person, called once at +442079460311; a national number without a country is answered invalid', async () => {
		// Tuesday 10:00 in London: inside the window
		time.clock.setSystemTime(Date.parse('2026-11-24T10:00:00Z'));
		const locator = (value: string) => ({ __rl: true, mode: 'list', value });
		const people = [
			{ to: '020 7946 0311', country: 'GB' },
			{ to: '+44 (0) 20 7946 0311', country: '' },
			{ to: '0044 20 7946 0311', country: '' },
			{ to: '020 7946 0312', country: '' },
		];
		const work = runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: {
				resource: 'call',
				operation: 'runCampaign',
				agentId: locator([...sim.org.agents.values()][0].id),
				fromNumber: locator('+14155550100'),
				toNumber: '={{ $json.to }}',
				defaultCountry: '={{ $json.country }}',
				fullName: 'Lena',
				callDays: [1, 2, 3, 4, 5],
				callFrom: '09:00',
				callUntil: '17:00',
				redialOn: [],
				maxTries: 1,
			},
			items: people,
		});
		const { items, error } = await time.runUntilSettled(work, {
			onStep: () => sim.clock.runDue(),
			nextDueAt: nextDueAfterQuiet(sim),
			stepMs: 60_000,
			maxMs: 24 * 60 * 60_000,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual([
			'called',
			'skipped',
			'skipped',
			'invalid',
		]);
		expect(items[1].json.reason).toMatch(/Listed twice: item 0 has the same number/);
		expect(items[3].json.reason).toMatch(/^To Number: .*read only with a Default Country/);
		const placed = [...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
		expect(placed.map((call) => call.to)).toEqual(['+442079460311']);
	});
});
