import { insertCall } from '../../simulator/index.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { pollingTrigger } from '../../harness/poll.cts';

const MINUTE = 60_000;

describe('Voice Agent CRM Trigger: what a polling trigger owes its users', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const callTrigger = (parameters: Record<string, unknown> = {}) =>
		pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'callFinished', ...parameters },
			clock: () => sim.clock.now(),
		});

	it('takes a baseline at activation, then emits only calls that finish afterwards, and null when nothing is new', async () => {
		for (let i = 0; i < 5; i++) insertCall(sim);
		const trigger = callTrigger();
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();

		await sim.clock.advance(MINUTE);
		const fresh = insertCall(sim, { created_at: sim.clock.iso() });
		const out = await trigger.poll();
		expect(out?.[0].map((i) => i.json.id)).toEqual([fresh.id]);
		expect(await trigger.poll()).toBeNull();
	});

	it('manual mode returns the newest matching finished call at once, without touching the cursor', async () => {
		const older = insertCall(sim, {
			created_at: sim.clock.iso(sim.clock.now() - 5 * MINUTE),
			direction: 'inbound',
		});
		insertCall(sim, {
			created_at: sim.clock.iso(sim.clock.now() - 4 * MINUTE),
			direction: 'outbound',
		});
		insertCall(sim, { created_at: sim.clock.iso(), phase: 'in_progress' });
		const trigger = callTrigger({ directions: ['inbound'] });
		const out = await trigger.poll('manual');
		expect(out?.[0].map((i) => i.json.id)).toEqual([older.id]);
		expect(trigger.staticData).toEqual({});
	});

	it('raises errors instead of swallowing them, and keeps its cursor for the next poll', async () => {
		const trigger = callTrigger();
		await trigger.poll();
		const saved = JSON.stringify(trigger.staticData);
		sim.faults.inject({
			method: 'GET',
			path: '/v1/calls',
			fault: { status: 401, body: { statusCode: 401, message: 'Unauthorized' } },
		});
		const error = await trigger.poll().catch((e: unknown) => e);
		expect(
			String((error as Error).message) + String((error as { description?: string }).description),
		).toMatch(/API key/);
		expect(JSON.stringify(error)).not.toContain(sim.apiKey);
		expect(JSON.stringify(trigger.staticData)).toBe(saved);
		expect(JSON.stringify(trigger.staticData)).not.toContain(sim.apiKey);
	});

	it('filters by agent (in the request), direction and result, and applies the transcript options of Call → Get', async () => {
		const [agentA, agentB] = [...sim.org.agents.keys()];
		const trigger = callTrigger({
			agentId: { __rl: true, mode: 'id', value: agentA },
			directions: ['outbound'],
			results: ['answered'],
			transcriptOptions: { includeWords: true },
		});
		await trigger.poll();
		await sim.clock.advance(MINUTE);
		const now = sim.clock.iso();
		const wanted = insertCall(sim, { created_at: now, agent_id: agentA });
		insertCall(sim, { created_at: now, agent_id: agentB });
		insertCall(sim, { created_at: now, agent_id: agentA, direction: 'inbound' });
		insertCall(sim, { created_at: now, agent_id: agentA, phase: 'no_answer' });
		const out = await trigger.poll();
		expect(out?.[0].map((i) => i.json.id)).toEqual([wanted.id]);
		const history = out![0][0].json.chat_history as Array<{ words?: unknown[] }>;
		expect(history[0].words?.length).toBeGreaterThan(0);
		expect(sim.requestsTo('GET', '/v1/calls').every((r) => r.query.agent_id === agentA)).toBe(true);
		expect(sim.requestsTo('GET', `/v1/calls/${wanted.id}`)[0].query.include_words).toBe('true');
	});

	it('Thread Changed: baseline, null when quiet, before and after of each change, status filter, manual mode', async () => {
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'threadChanged', threadEvents: ['status'], threadStatuses: ['closed'] },
			clock: () => sim.clock.now(),
		});
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		const open = [...sim.org.threads.values()].find((t) => t.status === 'open')!;
		await sim.clock.advance(MINUTE);
		const res = await fetch(`${sim.baseUrl}/v1/thread/${open.id}`, {
			method: 'PUT',
			headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ status: 'closed' }),
		});
		expect(res.status).toBe(200);
		const out = await trigger.poll();
		expect(out?.[0]).toHaveLength(1);
		expect(out![0][0].json).toMatchObject({
			id: open.id,
			status: 'closed',
			change: {
				kinds: ['closed'],
				fields: ['status', 'updated_at'],
				before: { status: 'open' },
				after: { status: 'closed' },
			},
		});
		expect(await trigger.poll()).toBeNull();

		const manual = await trigger.poll('manual');
		expect(manual?.[0][0].json).toMatchObject({ id: open.id, change: { before: null } });
	});
});
