import { runNode } from '../../harness/engine.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { insertCall, type Fault, type Simulator } from '../../simulator/index.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * Cancel Scheduled Call after an uncertain first attempt: the first request canceled the call but
 * its answer was lost or cut (or a 5xx came after processing); the repeat meets 409 "not
 * scheduled". The node reads the call and reports what happened, as Stop does.
 */
describe('Cancel Scheduled Call proves its outcome after a lost or cut answer', () => {
	// on the fake clock: the repeat's backoff passes without waiting
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const cancel = (callId: string) =>
		time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { resource: 'call', operation: 'cancel', callId },
			}),
		);
	const canceledCalls = () => [...sim.org.calls.values()].filter((c) => c.phase === 'canceled');

	const FAULTS: Array<[string, Fault]> = [
		['the answer is lost (connection dropped)', { drop: true, afterHandling: true }],
		['the answer is cut mid-way', { cutBody: true, afterHandling: true }],
		[
			"a gateway's 502 page after processing",
			{
				status: 502,
				rawBody: '<html>Bad Gateway</html>',
				contentType: 'text/html',
				afterHandling: true,
			},
		],
	];

	it.each(FAULTS)('%s → reported canceled, one call canceled', async (_label, fault) => {
		const call = insertCall(sim, { phase: 'scheduled' });
		sim.faults.inject({ method: 'POST', path: `/v1/calls/${call.id}/cancel`, fault });
		const { items, error } = await cancel(call.id);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			call_id: call.id,
			canceled: true,
			call_status: 'canceled',
		});
		expect(items[0].json.canceled_how).toMatch(/first cancel request got no clear answer/);
		expect(canceledCalls().map((c) => c.id)).toEqual([call.id]);
		expect(sim.requestsTo('POST', `/v1/calls/${call.id}/cancel`).map((r) => r.status)).toEqual([
			expect.any(Number),
			409,
		]);
		expect(sim.requestsTo('GET', `/v1/calls/${call.id}/status`)).toHaveLength(1);
	});

	it('a call that was already placed keeps the 409 error when the status is not canceled', async () => {
		const call = insertCall(sim, { phase: 'in_progress' });
		sim.faults.inject({
			method: 'POST',
			path: `/v1/calls/${call.id}/cancel`,
			fault: { status: 503, body: { statusCode: 503, message: 'busy' } },
		});
		const { error } = await cancel(call.id);
		expect(error?.message).toMatch(/Only a scheduled call can be canceled/);
		expect(canceledCalls()).toEqual([]);
	});

	it('a plain 409 (no uncertain attempt before it) is not read again', async () => {
		const call = insertCall(sim, { phase: 'in_progress' });
		const { error } = await cancel(call.id);
		expect(error?.message).toMatch(/Only a scheduled call can be canceled/);
		expect(sim.requestsTo('GET', `/v1/calls/${call.id}/status`)).toHaveLength(0);
	});
});
