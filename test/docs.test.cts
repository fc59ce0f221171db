import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { missingPaths, repositoryPaths } from './docPaths.cts';

/** Every file name README.md and docs/*.md mention, in backticks or as a link, exists. */

const ROOT = path.resolve(__dirname, '..');
const DOCS = [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

describe('file names in the docs', () => {
	const paths = repositoryPaths(ROOT);

	it.each(DOCS)('%s names only files that exist', (doc) => {
		expect(missingPaths(readFileSync(path.join(ROOT, doc), 'utf8'), doc, paths)).toEqual([]);
	});

	it('names a stale file, a stale link and a file outside the repository folders', () => {
		const text = [
			'the stand-ins (`baseNodes.ts`), the forms test (`test/node/forms.test.ts`),',
			'a folder (`scripts/n8n/`), a link to [a page](gone.md) and [one](calls.md#waits);',
			'not paths: `audio/*`, `zod/v4`, `GET /v1/calls`, `~/.n8n-files`, `dist/nodes/x.js`.',
		].join('\n');
		expect(missingPaths(text, 'docs/x.md', paths)).toEqual([
			'baseNodes.ts',
			'test/node/forms.test.ts',
			'gone.md',
		]);
	});

	it('links the release page from the README', () => {
		const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		expect(readme.split('\n').filter((line) => line.includes('(docs/release.md)'))).toHaveLength(1);
	});
});
