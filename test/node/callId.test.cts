import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';

/**
 * Every operation of the action node that outputs a call carries `call_id`, the field Place AI
 * Call outputs and the README tells users to map, beside the record's own `id` where it has one.
 */
describe('call_id in every output of a call', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	const run = async (parameters: INodeParameters) => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'call', ...parameters },
		});
		expect(error).toBeUndefined();
		return items.map((item) => item.json);
	};

	it('Get: call_id beside id', async () => {
		const call = insertCall(sim, { phase: 'ended', duration: 30 });
		const [json] = await run({ operation: 'get', callId: call.id });
		expect(json).toMatchObject({ id: call.id, call_id: call.id });
	});

	it('Get Many: every call with call_id beside id', async () => {
		insertCall(sim, { phase: 'ended', duration: 30 });
		const calls = await run({ operation: 'getAll', returnAll: true });
		expect(calls.length).toBeGreaterThan(0);
		for (const json of calls) expect(json.call_id).toBe(json.id);
	});

	it('Get Status, Stop and Cancel Scheduled Call: call_id', async () => {
		const live = insertCall(sim, { phase: 'in_progress' });
		const scheduled = insertCall(sim, { phase: 'scheduled' });
		expect((await run({ operation: 'getStatus', callId: live.id }))[0].call_id).toBe(live.id);
		expect((await run({ operation: 'stop', callId: live.id }))[0].call_id).toBe(live.id);
		expect((await run({ operation: 'cancel', callId: scheduled.id }))[0].call_id).toBe(
			scheduled.id,
		);
	});
});
