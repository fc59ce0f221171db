import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS, type Endpoint } from '../../nodes/VoiceAgentCrm/transport/endpoints';

/**
 * The one pager reads whether a list pages from the endpoint table: every Get Many sends
 * `limit` and `offset` exactly when its endpoint's row says the list pages, and returns no more
 * than its Limit either way.
 */
describe('Every Get Many through the one pager', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	const lists = RESOURCES.flatMap((resource) =>
		resource.operations
			.filter((op) => op.kind === 'list')
			.map((op) => ({ resource: resource.option.value, op })),
	);

	it.each(lists.map(({ resource, op }) => [`${resource}.${op.option.value}`, resource, op]))(
		'%s',
		async (_name, resource, op) => {
			const endpoint: Endpoint = ENDPOINTS[op.endpoint];
			const before = sim.requests.length;
			const { items, error } = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource,
					operation: op.option.value,
					returnAll: false,
					limit: 1,
				} as INodeParameters,
			});
			expect(error).toBeUndefined();
			expect(items.length).toBeLessThanOrEqual(1);
			const sent = sim.requests.slice(before).filter((r) => r.path === endpoint.path);
			expect(sent).toHaveLength(1);
			expect(sent[0].query).toEqual(
				endpoint.pages
					? expect.objectContaining({ limit: '1', offset: '0' })
					: expect.not.objectContaining({ limit: expect.anything() }),
			);
		},
	);

	it('lists a record once when one is created between its pages (Call → Get Many, newest first)', async () => {
		sim.org.calls.clear();
		for (let n = 0; n < 1_500; n++) insertCall(sim);
		// the second page's request: a call placed meanwhile moves every record one place down
		let pages = 0;
		const stopListening = sim.onRequest((request) => {
			if (request.path === '/v1/calls' && ++pages === 2)
				insertCall(sim, { created_at: sim.clock.iso(sim.clock.now()) });
		});
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'call', operation: 'getAll', returnAll: true },
		}).finally(stopListening);
		expect(error).toBeUndefined();
		expect(pages).toBe(2);
		const ids = items.map((item) => item.json.call_id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toHaveLength(1_500);
	});

	it('covers lists that page and lists that answer whole', () => {
		const pages = lists.map(({ op }) => (ENDPOINTS[op.endpoint] as Endpoint).pages === true);
		expect(pages).toContain(true);
		expect(pages).toContain(false);
	});
});
