import type { INodeParameters } from 'n8n-workflow';

import type * as Engine from '../../harness/engine.cts';
import { MAIN_ORG_IDS, startSimulator, type Simulator } from '../../simulator/index.cts';
import { byId, commentBy } from '../helpers/parameters.cts';

/**
 * n8n provides `zod` to community nodes, and is moving from zod 3 to zod 4, which ignores zod 3's
 * `errorMap`, `invalid_type_error` and `required_error` and would put its generic words ("Invalid
 * option: expected one of …") where the node's own messages stand. The same bad input runs through
 * the engine twice: with zod 3 (what n8n 2.38 ships) and with zod 4's API, which zod 3.25 carries
 * at `zod/v4`, given to the nodes' modules only (n8n-core and n8n-workflow keep the zod they were
 * built with, loaded first). Each run must fail with the node's own message, word for word the same.
 */

const { agents } = MAIN_ORG_IDS;

const placeCall = (parameters: INodeParameters): INodeParameters => ({
	resource: 'call',
	operation: 'placePhoneCall',
	agentId: byId(agents.salesFollowUp),
	toNumber: '+14155550123',
	fullName: 'Ana',
	fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
	...parameters,
});

const CASES: Array<{ name: string; parameters: INodeParameters; message: string }> = [
	{
		name: 'an enum (thread status filter)',
		parameters: {
			resource: 'thread',
			operation: 'getAll',
			returnAll: true,
			filters: { status: '={{ "pending" }}' },
		},
		message: 'Item 0: Status: must be open or closed (got "pending")',
	},
	{
		name: 'an enum with a built message (task status filter)',
		parameters: {
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			filters: { status: '={{ "later" }}' },
		},
		message: 'must be one of ',
	},
	{
		name: 'an enum of a required field (channel sort)',
		parameters: { resource: 'channel', operation: 'getAll', returnAll: true, sort: '={{ "up" }}' },
		message: 'must be asc (oldest first) or desc (newest first) (got "up")',
	},
	{
		name: 'an enum in upper case (comment creator type)',
		parameters: commentBy('={{ "ai" }}', '={{ "" }}'),
		message: '(upper case) (got "ai")',
	},
	{
		name: 'an enum of a write (thread status)',
		parameters: {
			resource: 'thread',
			operation: 'update',
			threadId: byId('thr-1'),
			status: '={{ "snoozed" }}',
		},
		message: 'must be open, closed or unchanged (got "snoozed")',
	},
	{
		name: 'a text rule given a number (contact phone)',
		parameters: { resource: 'contact', operation: 'create', phoneNumber: '={{ 5 }}' },
		message:
			'Item 0: Phone Number: must be a phone number in international E.164 format: + then 8 to 15 digits, like +14155550123 (got 5)',
	},
	{
		name: 'a number rule given text (limit)',
		parameters: {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: '={{ "ten" }}',
		},
		message: 'Item 0: Limit: must be a whole number of 1 or more (got "ten")',
	},
	{
		name: 'a text value given an object (call metadata)',
		parameters: placeCall({
			additionalFields: { metadata: { entries: [{ key: 'plan', value: '={{ { a: 1 } }}' }] } },
		}),
		message: 'must be text',
	},
	{
		name: 'the wait choice (Place AI Call)',
		parameters: placeCall({ waitFor: 'forever' }),
		message: 'must be one of none (Don\'t Wait), ended or analysis (got "forever")',
	},
];

/** The engine with the nodes' `zod` as given; n8n's own packages are loaded first, with their own. */
function engineWith(zod: 'zod' | 'zod/v4'): typeof Engine {
	let engine: typeof Engine | undefined;
	jest.isolateModules(() => {
		jest.requireActual('n8n-workflow');
		jest.requireActual('n8n-core');
		jest.doMock('zod', () => jest.requireActual(zod));
		engine = jest.requireActual<typeof Engine>('../../harness/engine.cts');
		jest.dontMock('zod');
	});
	return engine!;
}

describe('Validation messages under zod 3 and zod 4', () => {
	let sim: Simulator;
	const messages: Record<string, string[]> = {};

	beforeAll(async () => {
		sim = await startSimulator({ seed: true });
	});
	afterAll(async () => {
		await sim.stop();
	});

	it.each(['zod', 'zod/v4'] as const)(
		'with %s the nodes give their own message for every rule',
		async (zod) => {
			const { runNode } = engineWith(zod);
			const zodInUse = jest.requireActual<{ z: unknown }>(zod);
			expect(zodInUse).toBeDefined();
			messages[zod] = [];
			for (const { name, parameters, message } of CASES) {
				const run = await runNode({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					parameters,
				});
				const said = run.error?.message ?? '';
				expect({ name, said }).toEqual({ name, said: expect.stringContaining(message) });
				expect(said).not.toMatch(/Invalid (input|option|enum)|Expected|Required/);
				messages[zod].push(said);
			}
			expect(sim.requests.filter((request) => request.method !== 'GET')).toEqual([]);
		},
	);

	it('zod 4 words each message as zod 3 does', () => {
		expect(messages.zod).toHaveLength(CASES.length);
		expect(messages['zod/v4']).toEqual(messages.zod);
	});
});
