import type { IDataObject } from 'n8n-workflow';

import { onFakeTime } from '../../harness/fakeTime.cts';
import { registerSecret } from '../../harness/secrets.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import {
	finishedCallsTrigger,
	instantWorkflow,
	shiftNodeTime,
	type Delivery,
} from './instantHarness.cts';

/**
 * The Instant Trigger across processes and restarts, and its recovery of lost deliveries. Each
 * process is a module of its own over one database, as n8n's webhook processes in queue mode
 * are; the node's time is moved with Date.now (the simulator keeps its own clock).
 */
describe('Voice Agent CRM Instant Trigger: processes, restarts, lost deliveries', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// budgets this file does not test: the node's pacing would otherwise wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
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

	it('one process restarted: every emitting delivery saved its claim; the same deliveries after the restart emit nothing and read nothing', async () => {
		const workflow = finishedCallsTrigger(sim, [agent().id]);
		const first = workflow.n8nProcess();
		await first.activate();
		const calls = Array.from({ length: 5 }, () => finishedCall(Date.now()));
		const keys = calls.map((call) => `callFinished:${call.id}`);
		const ended = calls.map((call) => ({ event: 'call_ended', call_id: call.id }));
		const before: Delivery[] = [];
		for (const body of ended) before.push(await first.deliver(body));
		expect(keysOf(before)).toEqual(keys);
		// n8n 2.38.7 dropped these saves when n8n answered (instantHarness.cts, handOverRun)
		expect(Object.keys(workflow.staticData().emitted as IDataObject).sort()).toEqual(
			[...keys].sort(),
		);
		const restarted = workflow.n8nProcess();
		const requests = sim.requestsTo().length;
		const after: Delivery[] = [];
		for (const body of ended) after.push(await restarted.deliver(body));
		expect(keysOf(after)).toEqual([]);
		// the claims spare the reads, and the last sweep's time (saved too) spares a list
		expect(sim.requestsTo().length).toBe(requests);
		await first.deactivate();
	});

	/**
	 * Queue mode's one race: a slow process saves its whole static data after another process
	 * saved a claim, and overwrites it; a third process (`witness`) may handle a delivery in between.
	 */
	async function overwrittenClaim(recover = true) {
		const workflow = instantWorkflow(sim, {
			events: ['callStarted', 'callFinished'],
			registration: 'agents',
			agentIds: [agent().id],
			recoverLostDeliveries: recover,
		});
		await workflow.n8nProcess().activate();
		const [one, two] = [finishedCall(Date.now()), finishedCall(Date.now())];
		const [emitting, slow, witness] = [1, 2, 3].map(() => workflow.n8nProcess());
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		const slowDelivery = slow.deliver({ event: 'call_started', call_id: two.id }, undefined, held);
		const emitted = await emitting.deliver({ event: 'call_ended', call_id: one.id });
		return {
			workflow,
			one,
			two,
			emitted,
			witness,
			/** The witness handles a delivery that changes nothing (it learns the claim). */
			witnessSees: () => witness.deliver({ event: 'transcript_ready', call_id: one.id }),
			/** The slow process saves: the claim is gone from the static data. */
			overwrite: async () => (release(), await slowDelivery),
			claimed: () => Object.keys(workflow.staticData().emitted as IDataObject),
		};
	}

	it('queue mode: a claim that another process overwrote is written back by a process that saw it, after the emitting process stopped; the recovery emits nothing', async () => {
		const time = shiftNodeTime();
		try {
			const race = await overwrittenClaim();
			const key = `callFinished:${race.one.id}`;
			expect(keysOf([race.emitted])).toEqual([key]);
			expect(keysOf([await race.witnessSees()])).toEqual([]);
			expect(keysOf([await race.overwrite()])).toEqual([`callStarted:${race.two.id}`]);
			expect(race.claimed()).not.toContain(key);
			// the emitting process stops; the witness's next delivery writes the claim back
			const next = await race.witness.deliver({ event: 'call_started', call_id: race.one.id });
			expect(keysOf([next])).toEqual([`callStarted:${race.one.id}`]);
			expect(race.claimed()).toContain(key);
			await race.witness.deliver({ event: 'call_ended', call_id: race.two.id });
			// two sweeps a minute apart, past the horizon, from a process that never saw anything
			const sweeps: Delivery[] = [];
			for (const shift of [4 * MINUTE, MINUTE + 1_000]) {
				time.by(shift);
				sweeps.push(
					await race.workflow
						.n8nProcess()
						.deliver({ event: 'transcript_ready', call_id: race.two.id }),
				);
			}
			expect(keysOf(sweeps)).toEqual([]);
		} finally {
			time.restore();
		}
	});

	it.each([
		['its read of the call', 'call_ended', (id: string) => `/v1/calls/${id}`, true],
		["its sweep's list of calls", 'call_started', () => '/v1/calls', false],
	])(
		"queue mode: a delivery slowed by %s saves the claims its process saw meanwhile, so its save does not undo another process's claim",
		async (_slowedBy, event, heldPath, emits) => {
			const time = shiftNodeTime();
			try {
				const workflow = finishedCallsTrigger(sim, [agent().id]);
				await workflow.n8nProcess().activate();
				const [one, two] = [finishedCall(Date.now()), finishedCall(Date.now())];
				const [emitting, slow] = [workflow.n8nProcess(), workflow.n8nProcess()];
				let answer = () => {};
				const until = new Promise<void>((resolve) => (answer = resolve));
				sim.faults.inject({ method: 'GET', path: heldPath(two.id), fault: { until } });
				const held = new Promise<void>((resolve) => {
					const off = sim.onRequest((r) => r.path === heldPath(two.id) && (off(), resolve()));
				});
				// loaded the static data before the other process's claim; its request waits
				const slowDelivery = slow.deliver({ event, call_id: two.id });
				await held;
				expect(keysOf([await emitting.deliver({ event: 'call_ended', call_id: one.id })])).toEqual([
					`callFinished:${one.id}`,
				]);
				// the slow process's next delivery loads the claim; it emits nothing and saves nothing
				expect(keysOf([await slow.deliver({ event: 'call_started', call_id: one.id })])).toEqual(
					[],
				);
				answer();
				expect(keysOf([await slowDelivery])).toEqual(emits ? [`callFinished:${two.id}`] : []);
				const claimed = Object.keys(workflow.staticData().emitted as IDataObject);
				const expected = [one, ...(emits ? [two] : [])].map((c) => `callFinished:${c.id}`);
				expect(claimed.sort()).toEqual(expected.sort());
				// both processes gone, a new one sweeps twice past the horizon: only a call never emitted
				const late = workflow.n8nProcess();
				const sweeps: Delivery[] = [];
				for (const shift of [4 * MINUTE, MINUTE + 1_000]) {
					time.by(shift);
					sweeps.push(await late.deliver({ event: 'transcript_ready', call_id: two.id }));
				}
				expect(keysOf(sweeps)).toEqual(emits ? [] : [`callFinished:${two.id}`]);
			} finally {
				time.restore();
			}
		},
	);

	it('queue mode, the stated duplicate: the claim overwritten and every process that knew it stopped; the recovery emits the event again, recovered, same key; with Recover Lost Deliveries off, nothing and no list', async () => {
		const time = shiftNodeTime();
		try {
			for (const recover of [true, false]) {
				const race = await overwrittenClaim(recover);
				const key = `callFinished:${race.one.id}`;
				await race.overwrite();
				expect(race.claimed()).not.toContain(key);
				const late = race.workflow.n8nProcess();
				for (const body of [
					{ event: 'call_started', call_id: race.one.id },
					{ event: 'call_ended', call_id: race.two.id },
				])
					await late.deliver(body);
				const requests = sim.requestsTo().length;
				const sweeps: Delivery[] = [];
				for (const shift of [4 * MINUTE, MINUTE + 1_000]) {
					time.by(shift);
					sweeps.push(await late.deliver({ event: 'transcript_ready', call_id: race.two.id }));
				}
				const items = sweeps.flatMap((d) => d.items);
				const lists = sim
					.requestsTo()
					.slice(requests)
					.filter((r) => r.path === '/v1/calls');
				if (recover) {
					expect(items.map((i) => `${String(i.json.emission_key)} ${i.json.recovered}`)).toEqual([
						`${key} true`,
					]);
					expect(lists).toHaveLength(2);
				} else {
					expect(items.map((i) => `${String(i.json.emission_key)} ${i.json.recovered}`)).toEqual(
						[],
					);
					expect(lists).toHaveLength(0);
				}
			}
		} finally {
			time.restore();
		}
	});

	it('a call whose delivery was lost, and one whose read failed, are emitted once by the deliveries 3 and 4 minutes later, at one list request a minute at most', async () => {
		const time = shiftNodeTime();
		try {
			const workflow = finishedCallsTrigger(sim, [agent().id]);
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
			// its repeats' backoffs pass on fake time
			await expect(
				onFakeTime(() => process.deliver({ event: 'call_ended', call_id: failedRead.id })),
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
			// an agent of its own: the calls of the tests before end in this test's future
			const own = { agent_id: [...sim.org.agents.values()][1].id };
			const workflow = finishedCallsTrigger(sim, [own.agent_id], {
				waitForAnalysis: true,
				analysisWaitMinutes: 5,
			});
			const process = workflow.n8nProcess();
			await process.activate();
			time.by(1_000);
			const lost = finishedCall(Date.now(), own);
			const other = finishedCall(Date.now(), own);
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
