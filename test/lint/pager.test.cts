import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INode } from 'n8n-workflow';

import {
	ENDPOINTS,
	type Endpoint,
	type PagedEndpointName,
} from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { apiRequest, type ApiContext } from '../../nodes/VoiceAgentCrm/transport/request';

/**
 * Every list the nodes read goes through the one pager (`transport/paging.ts`): a list that pages
 * (its endpoint row's `pages`) read with one `apiRequest` would stop at its first page, silently.
 * Three locks: `apiRequest`'s types take no paged endpoint, it refuses one at run time, and only
 * the pager imports the request that sends pages (`pageRequest`).
 */

const ROOT = path.join(__dirname, '..', '..');
const PAGER = 'nodes/VoiceAgentCrm/transport/paging.ts';
const REQUEST = 'nodes/VoiceAgentCrm/transport/request.ts';
const PICKERS = 'nodes/VoiceAgentCrm/methods/';

/** The files of `nodes/` under `root`, relative to it, with `/` separators. */
function nodeFiles(root: string): string[] {
	return readdirSync(path.join(root, 'nodes'), { recursive: true })
		.map((file) => `nodes/${String(file).split(path.sep).join('/')}`)
		.filter((file) => file.endsWith('.ts'));
}

/**
 * Files that read a single page of a list that pages: only the pager's named reads (the whole list,
 * the first N, newest first until a bound) and the editor's pickers, which page for the editor.
 */
function singlePageReaders(root: string): string[] {
	return nodeFiles(root).filter(
		(file) =>
			file !== PAGER &&
			!file.startsWith(PICKERS) &&
			/import\s*\{[^}]*\breadPage\b[^}]*\}\s*from/.test(
				readFileSync(path.join(root, file), 'utf8'),
			),
	);
}

/** Files other than the pager (and the transport that defines it) that use the pager's request. */
function pagerBypasses(root: string): string[] {
	return nodeFiles(root).filter(
		(file) =>
			file !== PAGER &&
			file !== REQUEST &&
			/\bpageRequest\b/.test(readFileSync(path.join(root, file), 'utf8')),
	);
}

const PAGED = (Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]).filter(
	(name) => (ENDPOINTS[name] as Endpoint).pages,
) as PagedEndpointName[];

const NODE: INode = {
	id: 'n1',
	name: 'Voice Agent CRM',
	type: 'n8n-nodes-voice-agent-crm.voiceAgentCrm',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('The one pager', () => {
	it('is the only reader of the lists that page in nodes/', () => {
		expect(PAGED.length).toBeGreaterThan(3);
		expect(pagerBypasses(ROOT)).toEqual([]);
	});

	it("reads single pages only in its named reads and in the editor's pickers", () => {
		expect(singlePageReaders(ROOT)).toEqual([]);
	});

	it.each(PAGED)(
		'apiRequest refuses %s, a list that pages, naming it and the pager, before any request',
		async (name) => {
			const context = { getNode: () => NODE } as unknown as ApiContext;
			// the types refuse it too: `npm run typecheck` fails if this line ever compiles
			// @ts-expect-error a list that pages is not apiRequest's
			const bypass = apiRequest.call(context, name, {});
			await expect(bypass).rejects.toThrow(
				`The list ${name} pages, so one request reads only its first page: read it through the pager (transport/paging.ts: apiList or readPage)`,
			);
		},
	);

	describe('a planted bypass', () => {
		let tree: string;
		beforeEach(() => {
			tree = mkdtempSync(path.join(tmpdir(), 'pager-'));
		});
		afterEach(() => rmSync(tree, { recursive: true, force: true }));

		it("is found: an operation importing the pager's request to read a list itself", () => {
			const file = 'nodes/VoiceAgentCrm/actions/contact/getByPhone.operation.ts';
			mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
			writeFileSync(
				path.join(tree, file),
				// written apart, so that the layer check does not read it as this file's import
				['import { pageRequest } from', "'../../transport/request';\n"].join(' ') +
					"export const read = (context: never) => pageRequest.call(context, 'listContacts', {});\n",
			);
			expect(pagerBypasses(tree)).toEqual([file]);
		});

		it('is found: a file reading one page of a list where a named read was meant', () => {
			const file = 'nodes/VoiceAgentCrm/shared/contactDirectory.ts';
			mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
			writeFileSync(
				path.join(tree, file),
				['import { readPage } from', "'../transport/paging';\n"].join(' ') +
					"export const first = (context: never) => readPage.call(context, 'listContacts', { size: 1000 });\n",
			);
			expect(singlePageReaders(tree)).toEqual([file]);
		});
	});
});
