import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ACTION_NODE_NAME, actionWorkflow, runWorkflow } from '../../harness/engine.cts';
import { ACTION_NODE } from '../../harness/nodeTypes.cts';
import { MAIN_ORG_IDS, startSimulator, type Simulator } from '../../simulator/index.cts';
import { copyRepository, filesTouched, ROOT, write } from './recipe.cts';

/**
 * docs/architecture.md, "Changing an operation without breaking saved workflows", followed in a
 * copy: the node gets version 2 (`version: [1, 2]`), and Contact → Get Tags names its field
 * `contact` from version 2 on (`displayOptions.show['@version']`). A workflow saved on version 1
 * keeps its `contactId` and runs unchanged through n8n's engine; a new node is version 2.
 */

const GET_TAGS = 'nodes/VoiceAgentCrm/actions/contact/getTags.operation.ts';
const NODE_FILE = 'nodes/VoiceAgentCrm/VoiceAgentCrm.node.ts';

describe('A breaking change of an operation, in a new node version', () => {
	let tree: string;
	let copy: string;
	let node: INodeType;
	let sim: Simulator;
	const contactId = MAIN_ORG_IDS.contacts.mariaGarcia;
	const byId = { __rl: true, mode: 'id', value: contactId };

	beforeAll(async () => {
		tree = mkdtempSync(path.join(tmpdir(), 'version-'));
		symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
		copy = path.join(tree, 'versioned');
		copyRepository(copy);
		const description = readFileSync(path.join(copy, NODE_FILE), 'utf8');
		write(
			copy,
			NODE_FILE,
			description.replace('\t\tversion: 1,\n', '\t\tversion: [1, 2],\n\t\tdefaultVersion: 2,\n'),
		);
		write(
			copy,
			GET_TAGS,
			readFileSync(path.join(__dirname, 'getTags.v2.operation.ts.txt'), 'utf8'),
		);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { VoiceAgentCrm } = require(path.join(copy, 'nodes/VoiceAgentCrm/VoiceAgentCrm.node'));
		node = new VoiceAgentCrm();
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim?.stop();
		rmSync(tree, { recursive: true, force: true });
	});

	/** A workflow as n8n saves it: the node's type version and the parameters it was saved with. */
	const run = (typeVersion: number, parameters: INodeParameters) =>
		runWorkflow(
			actionWorkflow({
				typeVersion,
				parameters: { resource: 'contact', operation: 'getTags', ...parameters },
			}),
			{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			{ [ACTION_NODE]: node },
		);

	/** The parameters n8n keeps for a node of that version: those its fields show. */
	const kept = (typeVersion: number, parameters: INodeParameters) =>
		NodeHelpers.getNodeParameters(
			node.description.properties,
			{ resource: 'contact', operation: 'getTags', ...parameters },
			false,
			false,
			{ typeVersion },
			node.description,
		);

	it('costs the node description line and the operation file', () => {
		expect(filesTouched(copy)).toEqual([NODE_FILE, GET_TAGS]);
		expect(node.description).toMatchObject({ version: [1, 2], defaultVersion: 2 });
	});

	it('keeps the field of a workflow saved on version 1, and shows the new one from version 2', () => {
		expect(kept(1, { contactId: byId })).toMatchObject({ contactId: byId });
		expect(kept(1, { contactId: byId })).not.toHaveProperty('contact');
		expect(kept(2, { contact: byId })).toMatchObject({ contact: byId });
		expect(kept(2, { contact: byId })).not.toHaveProperty('contactId');
	});

	it.each([
		['a workflow saved on version 1, unchanged', 1, { contactId: byId }],
		['a node added on version 2', 2, { contact: byId }],
	])('runs %s through the engine', async (_name, typeVersion, parameters) => {
		const before = sim.requests.length;
		const result = await run(typeVersion, parameters);
		const task = result.data.resultData.runData[ACTION_NODE_NAME][0];
		expect(task.error).toBeUndefined();
		expect(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /v1/contacts/${contactId}/tags`,
		]);
	});

	it("would break the saved workflow without the version: its contactId is not version 2's field", async () => {
		// n8n refuses the workflow before it runs: version 2's required Contact is empty
		await expect(run(2, { contactId: byId })).rejects.toThrow('Parameter "Contact" is required');
	});
});
