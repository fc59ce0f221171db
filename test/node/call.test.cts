import type { INodeParameters } from 'n8n-workflow';

import { insertCall } from '../../simulator/index.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { contactCall, johnAndMadrid } from '../helpers/placement.cts';

const PHONE_CALLS = '/v1/calls/single-phone-call';
const CONTACT_CALLS = '/v1/calls/single-contact-call';
const traceKeys = {
	n8n_execution_id: 'exec-1',
	n8n_workflow_id: 'wf-test',
	n8n_node: 'Voice Agent CRM',
	n8n_run: '0',
	n8n_item: '0',
	n8n_fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
};

describe('Call operations through the engine', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// budgets are not what these tests are about: the node's pacing would wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
	});
	afterAll(() => sim.stop());

	const run = (parameters: RunNodeOptions['parameters'], extra: Partial<RunNodeOptions> = {}) =>
		runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters, ...extra });
	const agent = () => [...sim.org.agents.values()][0];
	const locator = (value: string, mode = 'list') => ({ __rl: true, mode, value });
	const phoneCall = (
		additionalFields: INodeParameters = {},
		overrides: INodeParameters = {},
	): INodeParameters => ({
		resource: 'call',
		operation: 'placePhoneCall',
		agentId: locator(agent().id),
		fromNumber: locator('+14155550100'),
		toNumber: '+14155550199',
		fullName: 'Jane Doe',
		additionalFields,
		...overrides,
	});
	const lastBody = (path: string) =>
		sim.requestsTo('POST', path).at(-1)!.body as Record<string, unknown>;

	it('is the default resource, with Place AI Call its default operation', async () => {
		const { VoiceAgentCrm } = await import('../../nodes/VoiceAgentCrm/VoiceAgentCrm.node');
		const properties = new VoiceAgentCrm().description.properties;
		expect(properties.find((p) => p.name === 'resource')!.default).toBe('call');
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'call',
		)!;
		expect(selector.default).toBe('placePhoneCall');
		expect(
			selector.options!.find((o) => 'value' in o && o.value === 'placePhoneCall'),
		).toMatchObject({ action: 'Place AI call' });
	});

	it('Place AI Call places one call with the agent, numbers, metadata, additional data and webhook', async () => {
		const { items, error } = await run(
			phoneCall({
				email: 'jane@example.test',
				country: 'US',
				webhookUrl: 'https://hooks.example.test/call',
				metadata: {
					entries: [
						{ key: 'order_id', value: 'A-17' },
						{ key: 'source', value: 'n8n' },
					],
				},
				additionalData: { entries: [{ key: 'plan', value: 'Premium' }] },
			}),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const callId = items[0].json.call_id as string;
		expect(items[0].json).toMatchObject({ agent_id: agent().id, contact_id: null });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(sim.org.calls.get(callId)).toMatchObject({
			agent_id: agent().id,
			from: '+14155550100',
			to: '+14155550199',
			contact: { full_name: 'Jane Doe', email: 'jane@example.test', country: 'US' },
			metadata: { order_id: 'A-17', source: 'n8n' },
			additional_data: [{ key: 'plan', value: 'Premium' }],
			webhook_url: 'https://hooks.example.test/call',
			schedule: null,
		});
		expect(lastBody(PHONE_CALLS)).toEqual({
			agent_id: agent().id,
			from_number: '+14155550100',
			to_number: '+14155550199',
			full_name: 'Jane Doe',
			email: 'jane@example.test',
			country: 'US',
			webhook_url: 'https://hooks.example.test/call',
			metadata: { order_id: 'A-17', source: 'n8n', ...traceKeys },
			additional_data: [{ key: 'plan', value: 'Premium' }],
		});
	});

	it('Place AI Call with a delay leaves the call scheduled for that many minutes later', async () => {
		const { items, error } = await run(phoneCall({ delay: 15 }));
		expect(error).toBeUndefined();
		const call = sim.org.calls.get(items[0].json.call_id as string)!;
		expect(call.phase).toBe('scheduled');
		// the simulator reads its clock twice (placement time, then creation time): allow a few ms between
		expect(Math.abs(call.place_at - Date.parse(call.created_at) - 15 * 60_000)).toBeLessThan(50);
		expect(lastBody(PHONE_CALLS).delay).toBe(15);
	});

	it('a schedule picked in one zone, or the same instant with its own offset, reaches the API as wall-clock time in that zone', async () => {
		const before = sim.requestsTo('POST', PHONE_CALLS).length;
		const { items, error } = await run(
			phoneCall({
				schedule: { at: { dateTime: '={{ $json.when }}', timezone: 'America/New_York' } },
			}),
			{ items: [{ when: '2030-05-01T10:30:00' }, { when: '2030-05-01T16:30:00+02:00' }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const sent = sim.requestsTo('POST', PHONE_CALLS).slice(before);
		expect(sent.map((r) => (r.body as Record<string, unknown>).schedule)).toEqual([
			{ scheduled_call_time: '2030-05-01 10:30:00', timezone: 'America/New_York' },
			{ scheduled_call_time: '2030-05-01 10:30:00', timezone: 'America/New_York' },
		]);
		for (const item of items) {
			const call = sim.org.calls.get(item.json.call_id as string)!;
			expect(call.phase).toBe('scheduled');
			expect(new Date(call.place_at).toISOString()).toBe('2030-05-01T14:30:00.000Z');
		}
	});

	it('a schedule without a time zone is read in the workflow time zone', async () => {
		const { items, error } = await run(
			phoneCall({ schedule: { at: { dateTime: '2030-05-01T16:30:00+02:00' } } }),
		);
		expect(error).toBeUndefined();
		const schedule = lastBody(PHONE_CALLS).schedule as {
			timezone: string;
			scheduled_call_time: string;
		};
		// n8n's default workflow time zone, which the harness does not change
		expect(schedule).toEqual({
			scheduled_call_time: '2030-05-01 10:30:00',
			timezone: 'America/New_York',
		});
		expect(sim.org.calls.get(items[0].json.call_id as string)!.phase).toBe('scheduled');
	});

	it('Place AI Call to Contact calls the stored contact from the chosen number', async () => {
		const { contact, fromNumber } = johnAndMadrid(sim);
		const { items, error } = await run(
			contactCall(sim, {
				additionalFields: {
					schedule: { at: { dateTime: '2030-01-15 09:00:00', timezone: 'Europe/Madrid' } },
					metadata: { entries: [{ key: 'campaign', value: 'winter' }] },
				},
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ contact_id: contact.id, agent_id: agent().id });
		expect(sim.org.calls.get(items[0].json.call_id as string)).toMatchObject({
			contact_id: contact.id,
			from: '+34910000100',
			to: '+14155550123',
			phase: 'scheduled',
			metadata: { campaign: 'winter' },
			schedule: { scheduled_call_time: '2030-01-15 09:00:00', timezone: 'Europe/Madrid' },
		});
		expect(lastBody(CONTACT_CALLS)).toEqual({
			agent_id: agent().id,
			contact_id: contact.id,
			from_number_id: fromNumber.id,
			// the user's own key and the node's trace (test/node/callTrace.test.cts)
			metadata: { campaign: 'winter', ...traceKeys },
			schedule: { scheduled_call_time: '2030-01-15 09:00:00', timezone: 'Europe/Madrid' },
		});
	});

	it('a 500 on placement fails the item, says the call may have been placed, and is never repeated', async () => {
		const before = sim.requestsTo('POST', PHONE_CALLS).length;
		const callsBefore = sim.org.calls.size;
		sim.faults.inject({
			method: 'POST',
			path: PHONE_CALLS,
			fault: { status: 500, afterHandling: true },
		});
		const { items, error } = await run(phoneCall(), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(sim.requestsTo('POST', PHONE_CALLS).length - before).toBe(1);
		// the service did place it: the warning is not hypothetical
		expect(sim.org.calls.size).toBe(callsBefore + 1);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json.error).toMatch(/may have been placed/);
		expect(items[0].json.error).toMatch(/HTTP 500/);
		expect(items[0].json.description).toMatch(/not sent again, so that nobody is called twice/);
		expect(JSON.stringify(items[0].json)).not.toContain(sim.apiKey);
	});

	it('without Continue On Fail a 503 on placement stops the run with the same warning, after one request', async () => {
		const before = sim.requestsTo('POST', PHONE_CALLS).length;
		sim.faults.inject({ method: 'POST', path: PHONE_CALLS, fault: { status: 503 } });
		const { error } = await run(phoneCall());
		expect(error?.message).toMatch(/may have been placed: the service failed with HTTP 503/);
		expect(sim.requestsTo('POST', PHONE_CALLS).length - before).toBe(1);
	});

	it('Get returns the full record with the transcript options asked for', async () => {
		const call = insertCall(sim, { agent_id: agent().id });
		const plain = await run({ resource: 'call', operation: 'get', callId: call.id });
		expect(plain.error).toBeUndefined();
		expect(plain.items[0].json).toMatchObject({
			id: call.id,
			call_status: 'completed',
			transcript_format: 'json',
		});
		expect(Array.isArray(plain.items[0].json.chat_history)).toBe(true);
		expect(
			(plain.items[0].json.chat_history as Array<Record<string, unknown>>)[0].words,
		).toBeUndefined();
		expect((plain.items[0].json.call_analysis as Record<string, unknown>).summary).toEqual(
			expect.any(String),
		);

		const rich = await run({
			resource: 'call',
			operation: 'get',
			callId: call.id,
			transcriptOptions: { includeWords: true, includeTools: true, transcriptFormat: 'toon' },
		});
		expect(rich.items[0].json).toMatchObject({
			transcript_format: 'toon',
			chat_history: expect.any(String),
			chat_history_with_tools: expect.any(String),
		});
		expect(sim.requestsTo('GET', `/v1/calls/${call.id}`).at(-1)!.query).toEqual({
			include_words: 'true',
			include_tools: 'true',
			transcript_format: 'toon',
		});

		const bare = await run({
			resource: 'call',
			operation: 'get',
			callId: call.id,
			transcriptOptions: { includeTranscript: false },
		});
		expect(bare.items[0].json.chat_history).toBeUndefined();
	});

	it('Get Status follows a placed call from the queue to ringing', async () => {
		const { items } = await run(phoneCall());
		const callId = items[0].json.call_id as string;
		const queued = await run({ resource: 'call', operation: 'getStatus', callId });
		expect(queued.items[0].json).toMatchObject({
			call_id: callId,
			call_status: 'in_queue',
			finished: false,
		});
		await sim.clock.advance(3_000);
		const ringing = await run({ resource: 'call', operation: 'getStatus', callId });
		expect(ringing.items[0].json).toMatchObject({
			call_id: callId,
			call_status: 'pending',
			finished: false,
			disconnection_reason: null,
		});
	});

	it('Get Many filters by agent and status, newest first, and stops at the limit', async () => {
		const [first, second] = [...sim.org.agents.values()];
		const mine = [0, 1, 2].map((i) =>
			insertCall(sim, {
				agent_id: second.id,
				created_at: new Date(Date.parse('2029-01-01T00:00:00Z') + i * 1000).toISOString(),
			}),
		);
		insertCall(sim, { agent_id: first.id });
		insertCall(sim, {
			agent_id: second.id,
			phase: 'no_answer',
			created_at: '2029-02-01T00:00:00.000Z',
		});

		const all = await run({
			resource: 'call',
			operation: 'getAll',
			returnAll: true,
			filters: { agentId: locator(second.id, 'id'), status: 'completed' },
		});
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.id)).toEqual([...mine].reverse().map((c) => c.id));
		const query = sim.requestsTo('GET', '/v1/calls').at(-1)!.query;
		expect(query).toMatchObject({ agent_id: second.id, call_status: 'completed', offset: '0' });

		const before = sim.requestsTo('GET', '/v1/calls').length;
		const limited = await run({
			resource: 'call',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
			filters: { agentId: locator(second.id, 'id') },
		});
		expect(limited.items.map((i) => i.json.id)).toEqual([
			[...sim.org.calls.values()].find((c) => c.phase === 'no_answer' && c.agent_id === second.id)!
				.id,
			mine[2].id,
		]);
		const sent = sim.requestsTo('GET', '/v1/calls').slice(before);
		expect(sent).toHaveLength(1);
		expect(sent[0].query).toMatchObject({ limit: '2', offset: '0' });
	});

	it('Stop hangs up a ringing call with user_hangup; a finished call answers stopped: false', async () => {
		const { items } = await run(phoneCall());
		const callId = items[0].json.call_id as string;
		await sim.clock.advance(3_000);
		expect(sim.org.calls.get(callId)!.phase).toBe('pending');
		const stopped = await run({ resource: 'call', operation: 'stop', callId });
		expect(stopped.error).toBeUndefined();
		expect(stopped.items[0].json).toEqual({
			call_id: callId,
			stopped: true,
			call_status: 'pending',
		});
		expect(sim.org.calls.get(callId)).toMatchObject({
			phase: 'ended',
			disconnection_reason: 'user_hangup',
		});

		const again = await run({ resource: 'call', operation: 'stop', callId });
		expect(again.items[0].json).toMatchObject({ call_id: callId, stopped: false });
	});

	it('Stop on a call still in the queue fails with the 409 explained', async () => {
		const { items } = await run(phoneCall());
		const { error } = await run({
			resource: 'call',
			operation: 'stop',
			callId: items[0].json.call_id as string,
		});
		expect(error?.message).toMatch(/not placed yet/);
	});

	it('Cancel Scheduled Call cancels a scheduled call, and explains the 409 on one that is not', async () => {
		const { items } = await run(
			phoneCall({
				schedule: { at: { dateTime: '2030-06-01T12:00:00', timezone: 'Europe/Madrid' } },
			}),
		);
		const callId = items[0].json.call_id as string;
		const canceled = await run({ resource: 'call', operation: 'cancel', callId });
		expect(canceled.error).toBeUndefined();
		expect(canceled.items[0].json).toEqual({
			call_id: callId,
			canceled: true,
			call_status: 'canceled',
		});
		expect(sim.org.calls.get(callId)).toMatchObject({ phase: 'canceled', finished: true });
		expect(sim.requestsTo('POST', `/v1/calls/${callId}/cancel`)).toHaveLength(1);

		const twice = await run({ resource: 'call', operation: 'cancel', callId });
		expect(twice.error?.message).toMatch(/Only a scheduled call can be canceled/);
	});
});
