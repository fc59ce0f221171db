import { NodeOperationError } from 'n8n-workflow';

import { closedAddress } from '../../harness/addresses.cts';
import { runNode } from '../../harness/engine.cts';
import { listSearch, loadOptions } from '../../harness/editorLists.cts';
import { onFakeTime } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });

describe("The editor's lists (list searches and option loaders)", () => {
	let sim: Simulator;
	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
	/** Place AI Call without waiting, from the first agent and number. */
	const placeCall = (fullName: string, additionalFields = {}) =>
		runNode({
			credentials: credentials(),
			parameters: {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: rl([...sim.org.agents.values()][0].id),
				fromNumber: rl('+14155550100'),
				toNumber: '+14155550199',
				fullName,
				waitFor: 'none',
				additionalFields,
			},
		});

	beforeEach(async () => {
		// budgets are not what these tests are about: the node's pacing would wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
	});
	afterEach(() => sim.stop());

	it('WhatsApp channel list offers only active WABA channels, filtered by the API', async () => {
		const { results } = await listSearch(credentials(), 'searchWabaChannels');
		const waba = [...sim.org.channels.values()].filter(
			(c) => c.type === 'WABA' && c.status === 'active',
		);
		expect(results).toEqual(waba.map((c) => ({ name: `${c.name} (WABA, active)`, value: c.id })));
		expect(results.some((r) => r.name.includes('Instagram'))).toBe(false);
		expect(sim.requestsTo('GET', '/v1/channels')[0].query).toMatchObject({
			type: 'WABA',
			status: 'active',
		});
		// the general channel list (trigger, thread filters) still offers every channel
		expect((await listSearch(credentials(), 'searchChannels')).results).toHaveLength(
			sim.org.channels.size,
		);
	});

	it('template list shows each approved template with its language; the value carries both', async () => {
		const waba = [...sim.org.channels.values()].find((c) => c.type === 'WABA')!;
		const options = await loadOptions(credentials(), 'getTemplates', {
			resource: 'whatsapp',
			operation: 'sendTemplate',
			channelId: rl(waba.id),
		});
		expect(options.map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: 'appointment_reminder (es)', value: 'appointment_reminder|es' },
			{ name: 'welcome_offer (en_US)', value: 'welcome_offer|en_US' },
		]);
	});

	it("a list that fails shows the node's own message (a NodeOperationError, which the editor displays)", async () => {
		const insta = [...sim.org.channels.values()].find((c) => c.type !== 'WABA')!;
		const failure = await loadOptions(credentials(), 'getTemplates', {
			resource: 'whatsapp',
			operation: 'sendTemplate',
			channelId: rl(insta.id),
		}).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(NodeOperationError);
		expect((failure as Error).message).toMatch(
			/^The API rejected the request as invalid\. .*\(HTTP 400\) GET \/v1\/waba\/templates answered 400\. The API said: "Invalid channel type.*"\.$/,
		);
		const closed = await closedAddress();
		// the transport tries a refused connection three times, its backoffs on fake time
		const refused = await onFakeTime(() =>
			listSearch({ apiKey: sim.apiKey, baseUrl: closed }, 'searchCalls'),
		).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(NodeOperationError);
		expect((refused as Error).message).toMatch(
			/^The service did not answer: the connection was refused\. Check the Base URL/,
		);
	});

	it('call list shows recent calls newest first, named by contact and status, searchable', async () => {
		for (const fullName of ['Ana García', 'Bruno Díaz'])
			expect((await placeCall(fullName)).error).toBeUndefined();
		const { results } = await listSearch(credentials(), 'searchCalls');
		const ids = [...sim.org.calls.keys()].reverse();
		expect(results.map((r) => r.value)).toEqual(ids);
		expect(results[0].name).toMatch(
			/^Bruno Díaz, \+14155550199 · \S+ · \d{4}-\d\d-\d\d \d\d:\d\d$/,
		);
		expect(
			(await listSearch(credentials(), 'searchCalls', { filter: 'ana' })).results.map(
				(r) => r.value,
			),
		).toEqual([ids[1]]);
	});

	it('thread entries name the contact and the channel, for two more requests per page at most', async () => {
		const before = sim.requests.length;
		const { results } = await listSearch(credentials(), 'searchThreads');
		const threads = [...sim.org.threads.values()];
		expect(results).toHaveLength(threads.length);
		for (const thread of threads) {
			const contact = sim.org.contacts.get(thread.contact_id)!;
			const entry = results.find((r) => r.value === thread.id)!;
			expect(entry.name).toMatch(
				new RegExp(
					`^${contact.full_name} · WhatsApp Sales · ${thread.status}, updated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`,
				),
			);
		}
		expect(
			sim.requests
				.slice(before)
				.map((r) => r.path)
				.sort(),
		).toEqual(['/v1/channels', '/v1/contacts', '/v1/threads']);
		expect(
			(await listSearch(credentials(), 'searchThreads', { filter: 'maría' })).results,
		).toHaveLength(1);
	});

	it('time zone list offers the IANA zones, searchable, without a request', async () => {
		const before = sim.requests.length;
		const all = (await listSearch(credentials(), 'searchTimeZones')).results;
		expect(all[0]).toEqual({ name: 'UTC', value: 'UTC' });
		expect(all.length).toBeGreaterThan(300);
		expect(
			(await listSearch(credentials(), 'searchTimeZones', { filter: 'new york' })).results,
		).toEqual([{ name: 'America/New York', value: 'America/New_York' }]);
		expect(sim.requests.length).toBe(before);
	});

	it('Agent → Create and a scheduled call take the time zone from the list', async () => {
		const agent = [...sim.org.agents.values()][0];
		const created = await runNode({
			credentials: credentials(),
			parameters: {
				resource: 'agent',
				operation: 'create',
				name: 'Zoned',
				voice_id: agent.voice_id,
				timezone: rl('Europe/Madrid'),
			},
		});
		expect(created.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/agents')[0].body).toMatchObject({
			timezone: 'Europe/Madrid',
		});
		const scheduled = await placeCall('Ana García', {
			schedule: { at: { dateTime: '2030-05-01T10:30:00', timezone: rl('America/New_York') } },
		});
		expect(scheduled.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/calls/single-phone-call')[0].body).toMatchObject({
			schedule: { scheduled_call_time: '2030-05-01 10:30:00', timezone: 'America/New_York' },
		});
	});
});
