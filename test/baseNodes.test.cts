import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { BASE_NODE_STAND_INS } from '../harness/baseNodes.cts';
import { runWorkflow } from '../harness/engine.cts';
import { MANUAL_TRIGGER, TEST_ITEMS } from '../harness/nodeTypes.cts';

/**
 * The harness's Compare Datasets (the read-once baseline of `bench/contacts.upsert.bench.cts`)
 * sorts items as n8n's `findMatches` does: the first Input B item with the key, the whole items
 * compared (or, with Fuzzy Compare, Input A's fields only), Use a Mix of Versions taking the
 * listed fields of the other input.
 */

const ROWS: IDataObject[] = [
	{ phone_number: '+1', full_name: 'Ana' },
	{ phone_number: '+2', full_name: 'Ben New' },
	{ phone_number: '+3', full_name: 'Cy' },
];
const CONTACTS: IDataObject[] = [
	{ id: 'c1', phone_number: '+1', full_name: 'Ana', email: null },
	{ id: 'c2', phone_number: '+2', full_name: 'Ben', email: 'ben@example.com' },
	{ id: 'c4', phone_number: '+4', full_name: 'Dee', email: null },
];

const node = (name: string, type: string, parameters: INodeParameters): INode => ({
	id: name,
	name,
	type,
	typeVersion: type === TEST_ITEMS || type === MANUAL_TRIGGER ? 1 : 2.3,
	position: [0, 0],
	parameters,
});

/** Start → (A, B) → Compare Datasets; its four outputs' items. */
async function compare(parameters: INodeParameters) {
	const to = (name: string, index = 0) => ({ node: name, type: 'main' as const, index });
	const run = await runWorkflow(
		{
			nodes: [
				node('Start', MANUAL_TRIGGER, {}),
				node('A', TEST_ITEMS, { items: JSON.stringify(ROWS), binary: '[]' }),
				node('B', TEST_ITEMS, { items: JSON.stringify(CONTACTS), binary: '[]' }),
				node('Compare Datasets', 'n8n-nodes-base.compareDatasets', parameters),
			],
			connections: {
				Start: { main: [[to('A'), to('B')]] },
				A: { main: [[to('Compare Datasets', 0)]] },
				B: { main: [[to('Compare Datasets', 1)]] },
			},
			settings: { executionOrder: 'v1' },
		},
		{ apiKey: 'unused-key-of-the-compare-test', baseUrl: 'http://127.0.0.1:1' },
		BASE_NODE_STAND_INS,
	);
	const task = run.data.resultData.runData['Compare Datasets'][0];
	if (task.error) throw task.error;
	const [onlyA, same, different, onlyB] = task.data!.main.map((items) =>
		(items ?? []).map((item) => item.json),
	);
	return { onlyA, same, different, onlyB };
}

const ON_PHONE = { values: [{ field1: 'phone_number', field2: 'phone_number' }] };

describe('Compare Datasets (harness stand-in)', () => {
	it("with Fuzzy Compare and a mix taking the contact's id: new rows, unchanged rows, changed rows with their contact's id", async () => {
		expect(
			await compare({
				mergeByFields: ON_PHONE,
				resolve: 'mix',
				preferWhenMix: 'input1',
				exceptWhenMix: 'id',
				fuzzyCompare: true,
				options: {},
			}),
		).toEqual({
			onlyA: [ROWS[2]],
			same: [ROWS[0]],
			different: [{ ...ROWS[1], id: 'c2' }],
			onlyB: [CONTACTS[2]],
		});
	});

	it('without Fuzzy Compare, whole items are compared: a contact with more fields than the row differs', async () => {
		const sorted = await compare({ mergeByFields: ON_PHONE, resolve: 'preferInput2', options: {} });
		expect(sorted.same).toEqual([]);
		expect(sorted.different).toEqual([CONTACTS[0], CONTACTS[1]]);
		const skipping = await compare({
			mergeByFields: ON_PHONE,
			resolve: 'preferInput2',
			options: { skipFields: 'id, email' },
		});
		expect(skipping.same).toEqual([ROWS[0]]);
	});

	it('refuses what it does not implement, naming the stand-in', async () => {
		await expect(
			compare({ mergeByFields: ON_PHONE, resolve: 'includeBoth', options: {} }),
		).rejects.toMatchObject({
			message: expect.stringMatching(/test stand-in of this node does not implement/),
		});
	});
});
