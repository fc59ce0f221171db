import type { IDataObject } from 'n8n-workflow';

import { registerSecret } from '../../harness/secrets.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { instantWorkflow, shiftNodeTime, type Delivery } from './instantHarness.cts';

/**
 * The Instant Trigger across processes and restarts, and its recovery of lost deliveries. Each
 * process is a module of its own over one database, as n8n's webhook processes in queue mode
 * are; the node's time is moved with Date.now (the simulator keeps its own clock).
 */
describe('Voice Agent CRM Instant Trigger: processes, restarts, lost deliveries', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
		registerSecret(sim.apiKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	const MINUTE = 60_000;
	const agent = () => [...sim.org.agents.values()][0];
	const keysOf = (deliveries: Delivery[]) =>
		deliveries.flatMap((d) => d.items.map((i) => String(i.json.emission_key)));

	/** A call as the service has it after its end, its events at the node's time `now`. */
	function finishedCall(now: number, fields: IDataObject = {}) {
		return insertCall(sim, {
			phase: 'ended',
			agent_id: agent().id,
			start_at: new Date(now - 30_000).toISOString(),
			finished_at: new Date(now).toISOString(),
			...fields,
		});
	}

	it('two webhook processes behind a round robin, one restarted midway: 12 calls, each event emitted once; replays emit nothing', async () => {
		const workflow = instantWorkflow(sim, {
			events: ['callStarted', 'callFinished'],
			registration: 'agents',
			agentIds: [agent().id],
		});
		const main = workflow.n8nProcess();
		await main.activate();
		let webhookProcesses = [workflow.n8nProcess(), workflow.n8nProcess()];
		const calls = Array.from({ length: 12 }, () => finishedCall(Date.now()));
		const events = calls.flatMap((call) =>
			['call_started', 'call_ended', 'transcript_ready'].map((event) => ({
				event,
				call_id: call.id,
			})),
		);
		const deliveries: Delivery[] = [];
		let turn = 0;
		const deliverInTurn = (body: IDataObject) => webhookProcesses[turn++ % 2].deliver(body);
		// four deliveries at a time: their static data loads and saves overlap, claims get overwritten
		for (let at = 0; at < events.length; at += 4) {
			if (at === 20) {
				// between a call's events, the second process restarts (after a delivery of its own)
				deliveries.push(await webhookProcesses[1].deliver(events[at - 1]));
				webhookProcesses = [webhookProcesses[0], workflow.n8nProcess()];
			}
			deliveries.push(...(await Promise.all(events.slice(at, at + 4).map(deliverInTurn))));
		}
		expect(keysOf(deliveries).sort()).toEqual(
			calls.flatMap((c) => [`callFinished:${c.id}`, `callStarted:${c.id}`]).sort(),
		);
		expect(deliveries.every((d) => d.status === 200)).toBe(true);

		// every delivery replayed in turn past the horizon, twice a sweep apart: the sweeps find every event claimed
		const time = shiftNodeTime();
		try {
			const replays: Delivery[] = [];
			for (const shift of [5 * MINUTE, 1.5 * MINUTE]) {
				time.by(shift);
				for (const body of events) replays.push(await deliverInTurn(body));
			}
			expect(keysOf(replays)).toEqual([]);
			expect(workflow.staticData().suspects).toEqual({});
		} finally {
			time.restore();
		}
		await main.deactivate();
	});

	it('a call whose delivery was lost, and one whose read failed, are emitted once by the deliveries 3 and 4 minutes later, at one list request a minute at most', async () => {
		const time = shiftNodeTime();
		try {
			const workflow = instantWorkflow(sim, {
				events: ['callFinished'],
				registration: 'agents',
				agentIds: [agent().id],
			});
			const process = workflow.n8nProcess();
			const before = finishedCall(Date.now() - MINUTE); // ended before the activation
			await process.activate();
			time.by(1_000);
			const first = finishedCall(Date.now());
			expect(keysOf([await process.deliver({ event: 'call_ended', call_id: first.id })])).toEqual([
				`callFinished:${first.id}`,
			]);
			const lost = finishedCall(Date.now()); // its call_ended never arrives
			const failedRead = finishedCall(Date.now());
			sim.faults.inject({
				method: 'GET',
				path: `/v1/calls/${failedRead.id}`,
				fault: { status: 503 },
				times: 3,
			});
			await expect(
				process.deliver({ event: 'call_ended', call_id: failedRead.id }),
			).rejects.toThrow();

			// 3 minutes later the next delivery's sweep finds both unclaimed; a minute later, still: emitted
			time.by(3 * MINUTE);
			const requests = sim.requestsTo().length;
			const next = finishedCall(Date.now());
			expect(keysOf([await process.deliver({ event: 'call_ended', call_id: next.id })])).toEqual([
				`callFinished:${next.id}`,
			]);
			time.by(MINUTE);
			const after = finishedCall(Date.now());
			const delivery = await process.deliver({ event: 'call_ended', call_id: after.id });
			const emitted = delivery.items.map(
				(i) => `${String(i.json.emission_key)} ${i.json.recovered ?? false}`,
			);
			expect(emitted[0]).toBe(`callFinished:${after.id} false`);
			expect(emitted.slice(1).sort()).toEqual(
				[`callFinished:${lost.id} true`, `callFinished:${failedRead.id} true`].sort(),
			);
			expect(delivery.items.some((i) => i.json.call_id === before.id)).toBe(false);
			// the cost: the list once a minute at most, beside each delivery's own read
			expect(
				sim
					.requestsTo()
					.slice(requests)
					.map((r) => `${r.method} ${r.path}`),
			).toEqual([
				`GET /v1/calls/${next.id}`,
				'GET /v1/calls',
				`GET /v1/calls/${after.id}`,
				'GET /v1/calls',
			]);

			// a delivery within the minute does not sweep; one after it sweeps and finds nothing new
			const soon = await process.deliver({ event: 'call_ended', call_id: lost.id });
			time.by(MINUTE);
			const later = await workflow.n8nProcess().deliver({ event: 'call_ended', call_id: lost.id });
			expect(keysOf([soon, later])).toEqual([]);
			expect(
				sim
					.requestsTo()
					.slice(requests + 4)
					.map((r) => `${r.method} ${r.path}`),
			).toEqual(['GET /v1/calls']);
			await process.deactivate();
		} finally {
			time.restore();
		}
	});

	it('with Wait for Analysis, a lost transcript-ready event is recovered a minute past Max Wait, with its analysis', async () => {
		const time = shiftNodeTime();
		try {
			const workflow = instantWorkflow(sim, {
				events: ['callFinished'],
				registration: 'agents',
				agentIds: [agent().id],
				waitForAnalysis: true,
				analysisWaitMinutes: 5,
			});
			const process = workflow.n8nProcess();
			await process.activate();
			time.by(1_000);
			const lost = finishedCall(Date.now());
			const other = finishedCall(Date.now());
			time.by(5 * MINUTE);
			// before Max Wait + 1 minute, nothing is recovered yet
			expect(keysOf([await process.deliver({ event: 'call_ended', call_id: other.id })])).toEqual(
				[],
			);
			time.by(MINUTE + 1_000);
			expect(keysOf([await process.deliver({ event: 'call_ended', call_id: other.id })])).toEqual(
				[],
			);
			time.by(MINUTE);
			const delivery = await process.deliver({ event: 'call_ended', call_id: other.id });
			expect(
				delivery.items
					.map((i) => `${String(i.json.call_id)} ${i.json.analysis_ready} ${i.json.recovered}`)
					.sort(),
			).toEqual([`${lost.id} true true`, `${other.id} true true`].sort());
			await process.deactivate();
		} finally {
			time.restore();
		}
	});
});
