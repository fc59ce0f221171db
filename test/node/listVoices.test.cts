import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { runNode } from '../../harness/engine.cts';

describe('Agent → List Voices through the engine', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('returns one item per voice of the simulator catalog, paired to the input', async () => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'agent', operation: 'listVoices' },
		});
		expect(error).toBeUndefined();
		const catalog = (await (
			await fetch(`${sim.baseUrl}/v1/agents/voices`, { headers: { 'x-api-key': sim.apiKey } })
		).json()) as { data: Array<{ id: string }> };
		expect(items.map((i) => i.json.id)).toEqual(catalog.data.map((v) => v.id));
		expect(items.every((i) => JSON.stringify(i.pairedItem) === JSON.stringify({ item: 0 }))).toBe(
			true,
		);
		const sent = sim.requestsTo('GET', '/v1/agents/voices')[0];
		expect(sent.headers['x-api-key']).toBe(sim.apiKey);
	});

	it('tolerates a base URL pasted with /v1 and a trailing slash', async () => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: `${sim.baseUrl}/v1/` },
			parameters: { resource: 'agent', operation: 'listVoices' },
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
	});
});
