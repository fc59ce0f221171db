import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { recordedLogLines } from '../../harness/secrets.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { contactCall, firstAgent, phoneCall, TO_EACH_ITEM } from '../helpers/placement.cts';

/**
 * The call's trace (docs/decisions.md, "The call's trace and the never-twice memory"): every
 * placement writes who placed it into the call's metadata, beside the user's own keys, and the
 * service gives it back on Get and on the call list.
 */

const PLACEMENTS = /^\/v1\/calls\/single-(phone|contact)-call$/;
const TRACE_KEYS = [
	'n8n_execution_id',
	'n8n_fingerprint',
	'n8n_item',
	'n8n_node',
	'n8n_run',
	'n8n_workflow_id',
];

let sim: Simulator;
beforeEach(async () => {
	sim = await startSimulator();
});
afterEach(async () => {
	await sim.stop();
});

describe("The call's trace in its metadata", () => {
	const eachPerson = (additionalFields: INodeParameters = {}): INodeParameters =>
		phoneCall(sim, { ...TO_EACH_ITEM, additionalFields });
	const people = [
		{ to: '+14155550101', name: 'Ann' },
		{ to: '+14155550102', name: 'Bob' },
	];
	const run = (parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items: people,
			...extra,
		});
	/** The call as the service gives it back: Get, and its row in the agent's call list. */
	const readBack = async (callId: string) => {
		const headers = { 'x-api-key': sim.apiKey };
		const record = (await (
			await fetch(`${sim.baseUrl}/v1/calls/${callId}?include_transcript=false`, { headers })
		).json()) as IDataObject;
		const list = (await (
			await fetch(`${sim.baseUrl}/v1/calls?agent_id=${firstAgent(sim).id}&limit=1000&offset=0`, {
				headers,
			})
		).json()) as { data: IDataObject[] };
		return { record, listed: list.data.find((call) => call.id === callId)! };
	};

	it('without metadata of the user: each call carries execution, workflow, node, run, item and a fingerprint, on Get and on the list', async () => {
		const { items, error } = await run(eachPerson(), { executionId: 'exec-41' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		const fingerprints = new Set<string>();
		for (const [itemIndex, item] of items.entries()) {
			expect(item.json).toMatchObject({ already_placed: false, placed_by_execution: 'exec-41' });
			const { record, listed } = await readBack(item.json.call_id as string);
			const metadata = record.metadata as IDataObject;
			expect(Object.keys(metadata).sort()).toEqual(TRACE_KEYS);
			expect(metadata).toMatchObject({
				n8n_execution_id: 'exec-41',
				n8n_workflow_id: 'wf-test',
				n8n_node: 'Voice Agent CRM',
				n8n_run: '0',
				n8n_item: String(itemIndex),
			});
			expect(metadata.n8n_fingerprint).toMatch(/^[0-9a-f]{16}$/);
			fingerprints.add(metadata.n8n_fingerprint as string);
			expect(listed.metadata).toEqual(metadata);
		}
		expect(fingerprints.size).toBe(2);
	});

	it("with metadata of the user: the user's keys stay as given beside the trace, and the fingerprint ignores them", async () => {
		const plain = await run(eachPerson(), { executionId: 'exec-1' });
		const withOwn = await run(
			eachPerson({
				metadata: {
					entries: [
						{ key: 'order_id', value: '={{ "A-" + $itemIndex }}' },
						{ key: 'source', value: 'crm' },
					],
				},
			}),
			{ executionId: 'exec-2' },
		);
		expect(withOwn.error).toBeUndefined();
		for (const [itemIndex, item] of withOwn.items.entries()) {
			const { record, listed } = await readBack(item.json.call_id as string);
			const metadata = record.metadata as IDataObject;
			expect(metadata).toMatchObject({
				order_id: `A-${itemIndex}`,
				source: 'crm',
				n8n_execution_id: 'exec-2',
				n8n_item: String(itemIndex),
			});
			expect(Object.keys(metadata)).toHaveLength(TRACE_KEYS.length + 2);
			expect(listed.metadata).toEqual(metadata);
			// the same placement by another execution, with other metadata: the same fingerprint
			const earlier = await readBack(plain.items[itemIndex].json.call_id as string);
			expect(metadata.n8n_fingerprint).toBe(
				(earlier.record.metadata as IDataObject).n8n_fingerprint,
			);
		}
	});

	it('Place AI Call to Contact carries the trace too', async () => {
		const { items, error } = await run(
			contactCall(sim, {
				additionalFields: { metadata: { entries: [{ key: 'campaign', value: 'spring' }] } },
			}),
			{ items: [{}], executionId: 'exec-7' },
		);
		expect(error).toBeUndefined();
		const { record } = await readBack(items[0].json.call_id as string);
		expect(record.metadata).toMatchObject({
			campaign: 'spring',
			n8n_execution_id: 'exec-7',
			n8n_item: '0',
		});
	});

	it('a key of the user that starts with n8n_ is refused before any request, naming the item and the field', async () => {
		const { error, items } = await run(
			eachPerson({
				metadata: {
					entries: [{ key: '={{ $itemIndex === 1 ? "n8n_execution_id" : "ref" }}', value: 'x' }],
				},
			}),
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			'Item 1: Metadata → 0 → key: must not start with n8n_, which the node keeps for its own trace of the call (got "n8n_execution_id")',
		);
		expect(sim.requestsTo('POST', PLACEMENTS)).toHaveLength(0);

		const onFail = await run(
			eachPerson({
				metadata: {
					entries: [{ key: '={{ $itemIndex === 1 ? "n8n_item" : "ref" }}', value: 'x' }],
				},
			}),
			{ continueOnFail: true },
		);
		expect(onFail.items[1].json.error).toMatch(/^Item 1: Metadata → 0 → key: must not start/);
		expect(sim.requestsTo('POST', PLACEMENTS)).toHaveLength(1);
	});

	it('logs one line per placement with the call ID, the execution, the node and the item, never the person', async () => {
		const { items } = await run(eachPerson(), { executionId: 'exec-99' });
		const lines = recordedLogLines().filter((line) => line.includes('placed call'));
		for (const [itemIndex, item] of items.entries()) {
			const line = lines.find((l) => l.includes(item.json.call_id as string));
			expect(line).toBeDefined();
			expect(line).toContain('exec-99');
			expect(line).toContain('Voice Agent CRM');
			expect(line).toMatch(new RegExp(`item\\W+${itemIndex}\\b`));
			expect(line).not.toContain(people[itemIndex].to);
			expect(line).not.toContain(people[itemIndex].name);
		}
	});
});

describe('Call → Get Many filtered on the trace', () => {
	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
	const place = (executionId: string, count: number) =>
		runNode({
			credentials: credentials(),
			executionId,
			items: Array.from({ length: count }, (_, n) => ({ to: `+1415555020${n}` })),
			parameters: phoneCall(sim, { toNumber: '={{ $json.to }}' }),
		});
	const getMany = (filters: IDataObject, listing: IDataObject = { returnAll: true }) =>
		runNode({
			credentials: credentials(),
			parameters: { resource: 'call', operation: 'getAll', ...listing, filters } as INodeParameters,
		});
	const listings = () => sim.requestsTo('GET', '/v1/calls').length;

	it('Placed by Execution answers exactly that execution’s calls, newest first, with their trace', async () => {
		const a = await place('exec-A', 3);
		await place('exec-B', 2);
		const { items, error } = await getMany({ placedByExecution: 'exec-A' });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.call_id)).toEqual(
			a.items.map((item) => item.json.call_id).reverse(),
		);
		expect(items.map((item) => (item.json.metadata as IDataObject).n8n_item)).toEqual([
			'2',
			'1',
			'0',
		]);
		const byWorkflow = await getMany({ placedByWorkflow: 'wf-test' });
		expect(byWorkflow.items).toHaveLength(5);
		expect((await getMany({ placedByWorkflow: 'another' })).items).toHaveLength(0);
	});

	it('stops at the Limit, and at the first call older than Created After', async () => {
		await place('exec-A', 2);
		const before = listings();
		const limited = await getMany({ placedByExecution: 'exec-A' }, { returnAll: false, limit: 1 });
		expect(limited.items).toHaveLength(1);
		expect(listings() - before).toBe(1);

		const none = await getMany({
			placedByExecution: 'exec-A',
			createdAfter: new Date(Date.now() + 60_000).toISOString(),
		});
		expect(none.items).toHaveLength(0);
		const bad = await getMany({ createdAfter: 'yesterday-ish' });
		expect(bad.error?.message).toMatch(/^Item 0: Filters → Created After: must be a date and time/);
	});
});
