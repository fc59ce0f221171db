import {
	cpSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { CREDENTIAL_REF, runWorkflow } from '../../harness/engine.cts';
import { ACTION_NODE, MANUAL_TRIGGER } from '../../harness/nodeTypes.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import type { Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import {
	descriptionsTooLong,
	kindsBelyingTheirRequest,
	listsBreakingTheirRule,
} from '../node/operationRules.cts';
import { generateBadInputs, type Samples } from '../reliability/badInputs.cts';

/**
 * docs/architecture.md, "Where to add things", followed to the letter: in a copy of `nodes/`, an
 * operation on an existing endpoint is added as one file and one line in its resource's
 * `index.ts`, and nothing else. The copy's node then shows and runs it, the rules of the operation
 * list hold for it, and the bad-input generator covers it, without an entry in any list of theirs.
 */

const ROOT = path.join(__dirname, '..', '..');

/**
 * Contact → Get by Phone Number, on the contact list the node already calls. Kept as text (not
 * `.ts`): it is the operation file of the copy, not a module of the tests.
 */
const NEW_OPERATION = readFileSync(path.join(__dirname, 'getByPhone.operation.ts.txt'), 'utf8');

const LINE = "export { getContactByPhone } from './getByPhone.operation';\n";

/** Every file under a folder, by its path relative to it. */
function filesOf(folder: string, under = ''): string[] {
	return readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(under, entry.name);
		return entry.isDirectory() ? filesOf(folder, relative) : [relative];
	});
}

/** What the copy changed against the repository's `nodes/`: files added, and lines added to files. */
function changesOf(copy: string): { added: string[]; linesAdded: Record<string, string[]> } {
	const original = path.join(ROOT, 'nodes');
	const before = new Set(filesOf(original));
	const added: string[] = [];
	const linesAdded: Record<string, string[]> = {};
	for (const file of filesOf(copy)) {
		if (!before.has(file)) {
			added.push(file);
			continue;
		}
		const old = readFileSync(path.join(original, file), 'utf8');
		const now = readFileSync(path.join(copy, file), 'utf8');
		if (old === now) continue;
		const oldLines = old.split('\n');
		linesAdded[file] = now.split('\n').filter((line) => !oldLines.includes(line));
	}
	return { added, linesAdded };
}

describe('Adding an operation on an existing endpoint, as docs/architecture.md says', () => {
	let tree: string;
	let copy: string;
	let resources: Resource[];
	let node: INodeType;
	let sim: Simulator;

	beforeAll(async () => {
		tree = mkdtempSync(path.join(tmpdir(), 'recipe-'));
		copy = path.join(tree, 'nodes');
		cpSync(path.join(ROOT, 'nodes'), copy, { recursive: true });
		// the copy resolves n8n-workflow and zod as the repository does
		symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
		const contact = path.join(copy, 'VoiceAgentCrm', 'actions', 'contact');
		writeFileSync(path.join(contact, 'getByPhone.operation.ts'), NEW_OPERATION);
		writeFileSync(
			path.join(contact, 'index.ts'),
			readFileSync(path.join(contact, 'index.ts'), 'utf8') + LINE,
		);
		/* eslint-disable @typescript-eslint/no-require-imports */
		resources = require(path.join(copy, 'VoiceAgentCrm', 'actions', 'resources')).RESOURCES;
		const { VoiceAgentCrm } = require(path.join(copy, 'VoiceAgentCrm', 'VoiceAgentCrm.node'));
		/* eslint-enable @typescript-eslint/no-require-imports */
		node = new VoiceAgentCrm();
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim?.stop();
		rmSync(tree, { recursive: true, force: true });
	});

	it('touches one new file and one line of the resource index, nothing else of nodes/', () => {
		expect(changesOf(copy)).toEqual({
			added: ['VoiceAgentCrm/actions/contact/getByPhone.operation.ts'],
			linesAdded: { 'VoiceAgentCrm/actions/contact/index.ts': [LINE.trimEnd()] },
		});
	});

	it('shows the operation in the Contact list, in the order of names, with its fields, tool description and subtitle', () => {
		const contact = resources.find((resource) => resource.option.value === 'contact')!;
		expect(contact.operations.map((op) => op.option.name)).toEqual([
			'Create',
			'Create or Update',
			'Delete',
			'Get by Phone Number',
			'Get Comments',
			'Get Many',
			'Get Tags',
			'Update',
		]);
		const shown = node.description.properties.filter(
			(p) =>
				p.displayOptions?.show?.resource?.[0] === 'contact' &&
				p.displayOptions?.show?.operation?.[0] === 'getByPhone',
		);
		// a field the model can fill stands once in the editor's form and once in the tool's
		expect([...new Set(shown.map((p) => p.name))]).toEqual(['phoneNumber', 'toolDescription']);
		expect(node.description.subtitle).toContain(
			'"contact.getByPhone":"Contact: Get by Phone Number"',
		);
	});

	it('keeps the rules of the operation list, read from the operation itself', () => {
		expect(descriptionsTooLong(resources)).toEqual([]);
		expect(listsBreakingTheirRule(resources)).toEqual([]);
		expect(kindsBelyingTheirRequest(resources)).toEqual([]);
	});

	it('is covered by the bad-input generator from its own example', () => {
		const samples = new Proxy({} as Samples, { get: (_, kind) => `sample ${String(kind)}` });
		const cases = generateBadInputs(resources, samples).filter(
			(c) => c.operation === 'contact.getByPhone',
		);
		expect(cases.map((c) => `${c.path} = ${c.kind}`)).toEqual([
			'phoneNumber = null',
			'phoneNumber = a number',
			'phoneNumber = an object',
			'phoneNumber = blank',
			'phoneNumber = very long',
			'phoneNumber = unicode',
		]);
		expect(cases[0].parameters).toMatchObject({ resource: 'contact', operation: 'getByPhone' });
	});

	it('runs through the engine: the router finds it, and its request reaches the API', async () => {
		const contact = [...sim.org.contacts.values()][0];
		const run = await runWorkflow(
			{
				nodes: [
					{
						id: 'n1',
						name: 'Start',
						type: MANUAL_TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: 'n2',
						name: 'Voice Agent CRM',
						type: ACTION_NODE,
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'contact',
							operation: 'getByPhone',
							phoneNumber: contact.phone_number,
						},
						credentials: CREDENTIAL_REF,
					},
				],
				connections: { Start: { main: [[{ node: 'Voice Agent CRM', type: 'main', index: 0 }]] } },
			},
			{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			{ [ACTION_NODE]: node },
		);
		const task = run.data.resultData.runData['Voice Agent CRM'][0];
		expect(task.error).toBeUndefined();
		expect(task.data!.main[0]!.map((item) => item.json.id)).toEqual([contact.id]);
		expect(sim.requestsTo('GET', '/v1/contacts').at(-1)!.query).toMatchObject({
			phone_number: contact.phone_number,
		});
	});
});
