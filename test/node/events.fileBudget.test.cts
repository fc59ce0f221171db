import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/** A file run's summary says how long it took and the budget that bounded it, as the service announced it. */
describe('Event → Send from a file: time and budget in the summary', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false, limits: { events: 45 } });
	});
	afterAll(() => sim.stop());

	it("states the events budget from the answers' X-RateLimit-Limit, the requests drawn on it, and the least time they take", async () => {
		const lines = ['event_name,email,occurred_at'];
		for (let i = 0; i < 150; i++)
			lines.push(
				`Purchase,b${i}@example.com,${new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()}`,
			);
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'event', operation: 'send', eventInput: 'file' },
			items: [{}],
			binary: [
				{
					data: {
						data: Buffer.from(lines.join('\n')).toString('base64'),
						mimeType: 'text/csv',
						fileName: 'b.csv',
					},
				},
			],
		});
		expect(error).toBeUndefined();
		const summary = items[0].json.summary as Record<string, unknown>;
		expect(summary).toMatchObject({
			created: 150,
			requests: 2,
			// the simulator's size for this run, not the 60 the node could have assumed
			budgets_announced: { events: 45 },
			bounded_by: 'events',
			budget_minutes: 0.04,
			budget_note:
				'2 requests on the events budget, which the service announced as 45 a minute (X-RateLimit-Limit): at least 0.04 minutes at that budget',
		});
		expect(typeof summary.took_seconds).toBe('number');
	});
});
