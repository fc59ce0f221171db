import { insertCall } from '../simulator/callLifecycle';
import { startSimulator, type Simulator } from '../simulator';
import { pollingTrigger } from '../harness/poll';

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
		const older = insertCall(sim, { created_at: sim.clock.iso(sim.clock.now() - 5 * MINUTE), direction: 'inbound' });
		insertCall(sim, { created_at: sim.clock.iso(sim.clock.now() - 4 * MINUTE), direction: 'outbound' });
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
		sim.faults.inject({ method: 'GET', path: '/v1/calls', fault: { status: 401, body: { statusCode: 401, message: 'Unauthorized' } } });
		await expect(trigger.poll()).rejects.toThrow(/API key/);
		expect(JSON.stringify(trigger.staticData)).toBe(saved);
		expect(JSON.stringify(trigger.staticData)).not.toContain(sim.apiKey);
	});
});
