import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { copyRepository, ROOT } from '../recipe/recipe.cts';
import { LONG, shortLists, wholeListCases } from './wholeLists.cts';

/**
 * Every Get Many whose list pages, against lists of 1,500 records (more than a page of 1,000):
 * each answers all of them with Return All. The test of the test plants in a copy of the
 * repository the single-page reads the review found passing the suite (one `readPage` where the
 * whole list was meant, a newest-first read cut at one page) and expects each named.
 */
describe('Every list read whole, past its first page', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const cases = wholeListCases(RESOURCES);

	it(`answers all ${LONG} records of every list that pages`, async () => {
		expect(cases.map((c) => c.name).sort()).toEqual([
			'agent.getAll',
			'call.getAll',
			'call.getAll placed by workflow',
			'channel.getAll',
			'contact.getAll',
			'task.getAll',
			'thread.getAll',
		]);
		expect(await shortLists(sim, cases)).toEqual([]);
	});

	describe('in a copy with single-page reads planted', () => {
		let tree: string;
		let planted: INodeType;
		const PAGING = 'nodes/VoiceAgentCrm/transport/paging.ts';
		const CONTACTS = 'nodes/VoiceAgentCrm/actions/contact/getMany.operation.ts';
		beforeAll(() => {
			tree = mkdtempSync(path.join(tmpdir(), 'whole-lists-'));
			symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
			copyRepository(path.join(tree, 'copy'));
			const edit = (file: string, from: RegExp, to: string) => {
				const at = path.join(tree, 'copy', file);
				const text = readFileSync(at, 'utf8');
				if (!from.test(text)) throw new Error(`${file} no longer has ${String(from)}`);
				writeFileSync(at, text.replace(from, to));
			};
			// Contact → Get Many reads its first page alone, as one readPage does
			edit(
				CONTACTS,
				/await apiList\.call\(this, 'listContacts', \{/,
				"await firstPage.call(this, 'listContacts', {",
			);
			edit(
				CONTACTS,
				/^/,
				// (the import is the copy's, written so that this file's own layer check does not read it)
				`import { readPage } from ${"'../../transport/paging'"};\nconst firstPage = async function (this: never, name: never, options: { query?: object; itemIndex?: number }) { return (await readPage.call(this, name, { ...options, size: 1000 })).records; };\n`,
			);
			// every newest-first read stops after its first page and says it is complete
			edit(
				PAGING,
				/if \(pages === maxPages \|\| read\.size >= maxRecords\) return answer\(false\);/,
				'if (pages === 1) return answer(true);',
			);
			jest.isolateModules(() => {
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const { VoiceAgentCrm } = require(
					path.join(tree, 'copy', 'nodes/VoiceAgentCrm/VoiceAgentCrm.node'),
				) as { VoiceAgentCrm: new () => INodeType };
				planted = new VoiceAgentCrm();
			});
		});
		afterAll(() => rmSync(tree, { recursive: true, force: true }));

		it('names each planted read', async () => {
			expect(await shortLists(sim, cases, planted)).toEqual([
				`contact.getAll: 1000 of ${LONG}`,
				`call.getAll placed by workflow: 1000 of ${LONG}`,
			]);
		});
	});
});
