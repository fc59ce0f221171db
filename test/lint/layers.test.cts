import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { layerRulesOf, layerViolations } from './layers.cts';

const ROOT = path.join(__dirname, '..', '..');
const rules = layerRulesOf(readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8'));

describe("docs/architecture.md's layers", () => {
	it('name every folder of the package and of its tools', () => {
		expect(rules.map((rule) => rule.folder)).toEqual(
			expect.arrayContaining([
				'credentials/',
				'nodes/VoiceAgentCrm/transport/',
				'nodes/VoiceAgentCrm/shared/',
				'nodes/VoiceAgentCrmTrigger/',
				'nodes/VoiceAgentCrmInstantTrigger/',
				'simulator/',
				'harness/',
				'test/',
				'scripts/',
				'bench/',
			]),
		);
	});

	it('hold in the repository', () => {
		expect(layerViolations(ROOT, rules)).toEqual([]);
	});

	describe('refuse an import that breaks them', () => {
		let tree: string;
		const plant = (file: string, source: string) => {
			mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
			writeFileSync(path.join(tree, file), source);
		};
		beforeEach(() => {
			tree = mkdtempSync(path.join(tmpdir(), 'layers-'));
		});
		afterEach(() => rmSync(tree, { recursive: true, force: true }));

		it.each([
			['the transport importing shared/', 'nodes/VoiceAgentCrm/transport/x.ts', '../shared/text'],
			[
				'one trigger importing the other',
				'nodes/VoiceAgentCrmInstantTrigger/x.ts',
				'../VoiceAgentCrmTrigger/calls',
			],
			[
				'a trigger importing an operation',
				'nodes/VoiceAgentCrmTrigger/x.ts',
				'../VoiceAgentCrm/actions/call/get.operation',
			],
			[
				'the simulator importing a node',
				'simulator/x.ts',
				'../nodes/VoiceAgentCrm/transport/request',
			],
			[
				'a node importing the simulator',
				'nodes/VoiceAgentCrm/shared/x.ts',
				'../../../simulator/index',
			],
		])('%s', (_case, file, imported) => {
			plant(file, `import { thing } from '${imported}';\n`);
			expect(layerViolations(tree, rules)).toEqual([
				expect.objectContaining({
					file,
					imported: path.posix.normalize(path.posix.join(path.posix.dirname(file), imported)),
				}),
			]);
		});

		it('but not one its row allows', () => {
			plant(
				'nodes/VoiceAgentCrm/shared/x.ts',
				"import { apiRequest } from '../transport/request';\n",
			);
			plant('test/x.test.ts', "import { startSimulator } from '../simulator/index';\n");
			expect(layerViolations(tree, rules)).toEqual([]);
		});
	});
});
