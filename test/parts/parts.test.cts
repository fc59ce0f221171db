import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { PARTS, partOf, testFiles, type PartName } from './parts.cts';

/** The parts `npm test` runs (test/parts/parts.cts): every test file in exactly one, none lost. */
describe('the parts npm test runs', () => {
	const names = Object.keys(PARTS) as PartName[];
	const partFiles = readdirSync(__dirname).filter((file) => file.endsWith('.part.cts'));

	it('has one part file per part, each running its own part', () => {
		expect(partFiles.sort()).toEqual(names.map((name) => `${name}.part.cts`).sort());
		for (const name of names)
			expect(readFileSync(path.join(__dirname, `${name}.part.cts`), 'utf8')).toContain(
				`runPart('${name}');`,
			);
	});

	it('puts every test file of test/ and simulator/ in a part, this one and a new one included', () => {
		const files = testFiles();
		expect(files).toContain('test/parts/parts.test.cts');
		expect(files.length).toBeGreaterThan(70);
		expect(files.filter((file) => !partOf(file))).toEqual([]);
		expect(partOf('test/node/aNewOne.test.cts')).toBe('node');
		expect(partOf('test/somewhere/aNewOne.test.cts')).toBe('repository');
	});

	it('gives every part a file to run', () => {
		const used = new Set(testFiles().map(partOf));
		expect(names.filter((name) => !used.has(name))).toEqual([]);
	});
});
