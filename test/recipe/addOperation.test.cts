import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { actionWorkflow, runWorkflow } from '../../harness/engine.cts';
import { ACTION_NODE } from '../../harness/nodeTypes.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import type { Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import {
	descriptionsTooLong,
	kindsBelyingTheirRequest,
	listsBreakingTheirRule,
} from '../node/operationRules.cts';
import { generateBadInputs } from '../reliability/badInputs.cts';
import type { Samples } from '../helpers/samples.cts';
import {
	copyRepository,
	filesTouched,
	inferredWithoutDecision,
	insertLine,
	ROOT,
	runTestsOfCopy,
	write,
} from './recipe.cts';

/**
 * docs/architecture.md, "Where to add things", followed to the letter in copies of the repository,
 * and its cost counted (docs aside): an operation on an existing endpoint is its file, one line of
 * its resource's index and its test (3 files); on a new endpoint, also the endpoint's row and the
 * simulator's route (5), and the decisions row for an inferred one; a new resource is its index,
 * its operation, two lines of the resource list and its test (4). Each copy's new test then runs
 * in a jest of its own against the copy's simulator; what the node derives from the operation
 * (the list, the subtitle, the rules, the bad-input cases) is checked here, against lists derived
 * from the repository, not written out.
 */

const fixture = (name: string) => readFileSync(path.join(__dirname, name), 'utf8');
const CONTACT = 'nodes/VoiceAgentCrm/actions/contact';
const DECISIONS_ROW =
	'| get contact | `GET /v1/contacts/{contactId}` | `{statusCode, data: Contact}` |';

/** The copy's module `file`, loaded fresh (the copy changes between loads). */
function load<T>(copy: string, file: string): T {
	let loaded: T;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require(path.join(copy, file)) as T;
	});
	return loaded!;
}

const nodeOf = (copy: string): INodeType => {
	const { VoiceAgentCrm } = load<{ VoiceAgentCrm: new () => INodeType }>(
		copy,
		'nodes/VoiceAgentCrm/VoiceAgentCrm.node',
	);
	return new VoiceAgentCrm();
};

describe('Adding operations as docs/architecture.md says, in copies of the repository', () => {
	let tree: string;
	const existing = () => path.join(tree, 'existing');
	const newEndpoint = () => path.join(tree, 'newEndpoint');
	const newResource = () => path.join(tree, 'newResource');
	// jest reads a file once a test file: the state without the row is a copy of its own
	const withoutRow = () => path.join(tree, 'withoutRow');
	let sim: Simulator;

	beforeAll(async () => {
		tree = mkdtempSync(path.join(tmpdir(), 'recipe-'));
		symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
		copyRepository(existing());
		copyRepository(newEndpoint());
		copyRepository(withoutRow());
		copyRepository(newResource());
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim?.stop();
		rmSync(tree, { recursive: true, force: true });
	});

	describe('on an existing endpoint: Contact → Get by Phone Number, on the contact list', () => {
		let resources: Resource[];
		let node: INodeType;
		beforeAll(() => {
			write(
				existing(),
				`${CONTACT}/getByPhone.operation.ts`,
				fixture('getByPhone.operation.ts.txt'),
			);
			insertLine(
				existing(),
				`${CONTACT}/index.ts`,
				"export { getContactByPhone } from './getByPhone.operation';",
			);
			write(existing(), 'test/node/contactByPhone.test.cts', fixture('getByPhone.test.cts.txt'));
			resources = load<{ RESOURCES: Resource[] }>(
				existing(),
				'nodes/VoiceAgentCrm/actions/resources',
			).RESOURCES;
			node = nodeOf(existing());
		});

		it('costs 3 files: the operation, one line of the index, its test', () => {
			expect(filesTouched(existing())).toEqual([
				`${CONTACT}/getByPhone.operation.ts`,
				`${CONTACT}/index.ts`,
				'test/node/contactByPhone.test.cts',
			]);
		});

		it('shows in the Contact list, in the order of names, with its fields and subtitle', () => {
			const names = (list: Resource[]) =>
				list
					.find((resource) => resource.option.value === 'contact')!
					.operations.map((op) => op.option.name);
			const expected = [...names(RESOURCES), 'Get by Phone Number'].sort((a, b) =>
				a.localeCompare(b, 'en', { sensitivity: 'base' }),
			);
			expect(names(resources)).toEqual(expected);
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
			expect(cases.map((c) => c.path)).toEqual(cases.map(() => 'phoneNumber'));
			expect(cases.length).toBeGreaterThan(3);
			expect(cases[0].parameters).toMatchObject({ resource: 'contact', operation: 'getByPhone' });
		});
	});

	describe('on a new endpoint: Contact → Get, GET /v1/contacts/{contactId} (inferred)', () => {
		const parameters = {
			resource: 'contact',
			operation: 'get',
			contactId: { __rl: true, mode: 'id', value: 'c0474c70-0000-4000-8000-000000000001' },
		};
		beforeAll(() => {
			for (const copy of [newEndpoint(), withoutRow()]) {
				write(copy, `${CONTACT}/get.operation.ts`, fixture('get.operation.ts.txt'));
				insertLine(copy, `${CONTACT}/index.ts`, "export { getContact } from './get.operation';");
			}
			write(newEndpoint(), 'test/node/contactGet.test.cts', fixture('get.test.cts.txt'));
		});

		it('without its endpoint row, fails naming the endpoint and the table', async () => {
			const run = await runWorkflow(
				actionWorkflow({ parameters }),
				{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				{ [ACTION_NODE]: nodeOf(withoutRow()) },
			);
			expect(run.data.resultData.error?.message).toContain(
				'The endpoint getContact has no row in the endpoint table (transport/endpoints.ts)',
			);
		});

		it('inferred, without its docs/decisions.md row, is named', () => {
			insertLine(
				newEndpoint(),
				'nodes/VoiceAgentCrm/transport/endpoints.ts',
				"\tgetContact: read('/v1/contacts/{contactId}', 'envelope', true),",
				'listContacts: paged(',
			);
			const decisions = () => readFileSync(path.join(newEndpoint(), 'docs/decisions.md'), 'utf8');
			const { ENDPOINTS: endpoints } = load<{ ENDPOINTS: typeof ENDPOINTS }>(
				newEndpoint(),
				'nodes/VoiceAgentCrm/transport/endpoints',
			);
			expect(inferredWithoutDecision(endpoints, decisions())).toEqual(['getContact']);
			insertLine(newEndpoint(), 'docs/decisions.md', DECISIONS_ROW, '| list agents |');
			expect(inferredWithoutDecision(endpoints, decisions())).toEqual([]);
		});

		it('costs 5 files: the operation, the index line, its test, the endpoint row, the route', () => {
			insertLine(
				newEndpoint(),
				'simulator/routes/contacts.cts',
				"\t{ method: 'GET', pattern: '/v1/contacts/:contactId', handler: answering((req) => envelope(findContact(req.org, req.params.contactId))) },",
				'export const contactRoutes',
			);
			expect(filesTouched(newEndpoint())).toEqual([
				`${CONTACT}/get.operation.ts`,
				`${CONTACT}/index.ts`,
				'nodes/VoiceAgentCrm/transport/endpoints.ts',
				'simulator/routes/contacts.cts',
				'test/node/contactGet.test.cts',
			]);
		});
	});

	describe('a new resource: Voice → Get Many, on the voice catalog', () => {
		const VOICE = 'nodes/VoiceAgentCrm/actions/voice';
		beforeAll(() => {
			write(newResource(), `${VOICE}/index.ts`, fixture('voice.index.ts.txt'));
			write(
				newResource(),
				`${VOICE}/getMany.operation.ts`,
				fixture('voice.getMany.operation.ts.txt'),
			);
			const resources = 'nodes/VoiceAgentCrm/actions/resources.ts';
			insertLine(newResource(), resources, "import * as voice from './voice';", "from './thread'");
			insertLine(newResource(), resources, '\tvoice,', '\twhatsapp,');
			write(newResource(), 'test/node/voice.test.cts', fixture('voice.test.cts.txt'));
		});

		it('costs 4 files: the index, the operation, two lines of the resource list, its test', () => {
			expect(filesTouched(newResource())).toEqual([
				'nodes/VoiceAgentCrm/actions/resources.ts',
				`${VOICE}/getMany.operation.ts`,
				`${VOICE}/index.ts`,
				'test/node/voice.test.cts',
			]);
		});

		it('shows in the resource list, last, with its operation', () => {
			const node = nodeOf(newResource());
			const selector = node.description.properties.find((p) => p.name === 'resource')!;
			expect((selector.options as Array<{ value: string }>).at(-1)!.value).toBe('voice');
			expect(node.description.subtitle).toContain('"voice.getAll":"Voice: Get Many"');
		});
	});

	it("runs each copy's new test, through the engine against the copy's simulator", () => {
		const files = [
			'existing/test/node/contactByPhone.test.cts',
			'newEndpoint/test/node/contactGet.test.cts',
			'newResource/test/node/voice.test.cts',
			// the repository's own rules of the forms hold for the new resource unchanged
			'newResource/test/node/forms.test.cts',
		];
		const { passed, output } = runTestsOfCopy(tree, files);
		expect({ passed: passed.sort(), output: passed.length === files.length ? '' : output }).toEqual(
			{
				passed: [...files].sort(),
				output: '',
			},
		);
	}, 120_000);
});

describe("The repository's own endpoint table", () => {
	it('has a docs/decisions.md row for every inferred endpoint', () => {
		const decisions = readFileSync(path.join(ROOT, 'docs', 'decisions.md'), 'utf8');
		expect(inferredWithoutDecision(ENDPOINTS, decisions)).toEqual([]);
	});
});
