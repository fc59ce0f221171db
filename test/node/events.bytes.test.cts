import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

const SEND = {
	resource: 'event',
	operation: 'send',
	eventInput: 'autoMapInputData',
	columnNames: { eventName: 'name' },
};

/**
 * Event → Send's batches go out and come back as JSON bytes (transport `asBytes`, so that n8n does
 * not keep each batch's objects on the heap): what the service receives and what the rows answer
 * are unchanged, and an answer that is no JSON is still reported as one.
 */
describe('Event → Send: a batch sent and answered as JSON bytes', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({
			limits: { events: 100_000, eventsAnonymous: 100_000, ip: 100_000 },
		});
	});
	afterAll(() => sim.stop());
	const run = (rows: number) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: SEND,
			items: Array.from({ length: rows }, (_, i) => ({
				name: 'Purchase Completed',
				email: `bytes-${i}@example.com`,
			})),
		});

	it('sends the events as a JSON body and gives each row its result without the batch index', async () => {
		const before = sim.requestsTo('POST', '/v1/events').length;
		const { items, error } = await run(3);
		expect(error).toBeUndefined();
		const sent = sim.requestsTo('POST', '/v1/events').slice(before);
		expect(sent).toHaveLength(1);
		expect(sent[0].headers['content-type']).toMatch(/^application\/json/);
		expect((sent[0].body as { events: Array<{ contact: { email: string } }> }).events).toEqual(
			[0, 1, 2].map((i) =>
				expect.objectContaining({ contact: { email: `bytes-${i}@example.com` } }),
			),
		);
		expect(items.map((item) => item.json.status)).toEqual(['created', 'created', 'created']);
		for (const item of items) expect(item.json).not.toHaveProperty('index');
	});

	it('an HTML page answering the batch is read as the answer that is no JSON it is', async () => {
		sim.faults.inject({
			path: '/v1/events',
			fault: { status: 200, rawBody: '<html><body>Welcome</body></html>' },
		});
		const { error } = await run(1);
		expect(error?.message).toMatch(
			/may have been stored: the service answered POST \/v1\/events with HTTP 200 but a body that is not JSON/,
		);
	});
});
