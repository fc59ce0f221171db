import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { storedEvents } from '../../simulator/index.cts';

/**
 * Event → Send against small events budgets (5 requests, 2 anonymous, per 1-second window), on the
 * fake clock: the pacing's waits and those after a 429 pass at once, and the budget windows of the
 * simulator follow the same clock.
 */
describe('Event → Send on the events budgets', () => {
	let time: FakeTime;
	let sim: Simulator;
	beforeAll(async () => {
		time = installFakeTime();
		sim = await startSimulator({
			windowMs: 1000,
			fractionalSeconds: true,
			limits: { events: 5, eventsAnonymous: 2 },
		});
	});
	afterAll(async () => {
		await sim.stop();
		time.uninstall();
	});
	afterEach(() => sim.faults.clear());

	const parameters = {
		resource: 'event',
		operation: 'send',
		eventInput: 'json',
		eventJson: '={{ $json }}',
	};
	const run = (items: IDataObject[]) =>
		time.runUntilSettled(
			runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters, items }),
			{ stepMs: 50 },
		);
	const tooMany = () => sim.requestsTo('POST', '/v1/events').filter((r) => r.status === 429).length;

	it('loses none and stores none twice of 5,000 rows with IDs, through 429s and a dropped connection', async () => {
		const rows = Array.from({ length: 5000 }, (_, i) => ({
			event_name: 'budget_run',
			event_id: `budget-${i}`,
			contact: { email: `budget-${i % 50}@example.com` },
		}));
		sim.faults.inject({
			method: 'POST',
			path: '/v1/events',
			fault: {
				status: 429,
				retryAfter: 0.2,
				body: { statusCode: 429, message: 'Too many requests' },
			},
			times: 3,
		});
		sim.faults.inject({
			method: 'POST',
			path: '/v1/events',
			fault: { drop: true, afterHandling: true },
		});
		const before = sim.requestsTo('POST', '/v1/events').length;

		const { items, error } = await run(rows);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(5000);
		expect(
			items.every(
				(item, i) =>
					['created', 'duplicate'].includes(item.json.status as string) &&
					item.json.event_id === `budget-${i}`,
			),
		).toBe(true);
		const stored = storedEvents(sim.org, { event_name: 'budget_run' });
		expect(stored).toHaveLength(5000);
		expect(new Set(stored.map((event) => event.event_id)).size).toBe(5000);
		// 50 batches, 3 answered 429 and 1 dropped after it was stored, each sent again
		expect(sim.requestsTo('POST', '/v1/events').length - before).toBe(54);
		// the batch whose answer was lost is answered `duplicate` when repeated; the others `created`
		expect(items.filter((item) => item.json.status === 'duplicate')).toHaveLength(100);
		// pacing on the headers: the only 429s are the injected ones
		expect(tooMany()).toBe(3);
	}, 60_000);

	it('paces anonymous batches on the anonymous budget and keeps identified ones off it', async () => {
		const rows = Array.from({ length: 1000 }, (_, i) =>
			i % 2
				? { event_name: 'anon_mix', event_id: `anon-${i}`, session_id: `sess-${i}` }
				: {
						event_name: 'anon_mix',
						event_id: `anon-${i}`,
						contact: { email: `mix-${i % 20}@example.com` },
					},
		);
		// pacing state lives in one execution: start this one on a fresh window
		await time.advance(1100);
		const beforeCount = sim.requestsTo('POST', '/v1/events').length;
		const beforeTooMany = tooMany();

		const { items, error } = await run(rows);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual(
			rows.map((_, i) => (i % 2 ? 'pending' : 'created')),
		);
		const sent = sim.requestsTo('POST', '/v1/events').slice(beforeCount);
		expect(sent).toHaveLength(10);
		const anonymousBatches = sent.filter((r) =>
			(r.body as { events: IDataObject[] }).events.every((event) => event.session_id),
		);
		expect(anonymousBatches).toHaveLength(5);
		expect(tooMany()).toBe(beforeTooMany);
	}, 60_000);
});
