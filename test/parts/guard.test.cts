import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runJestOn, type JestReport } from '../helpers/jest.cts';

/**
 * The guard of test/setup/environment.js: a test file that leaves fake timers or n8n's binary data
 * mode behind fails, in a plain jest run and in a part, and the next file of the part starts clean.
 * Planted test files run in a jest of their own, with the repository's environment and transform.
 */

const ROOT = path.join(__dirname, '..', '..');
const harness = (module: string) => JSON.stringify(path.join(ROOT, 'harness', module));

/** Runs jest on the planted files, answers its JSON report. */
function runJest(files: Record<string, string>): JestReport {
	const tree = mkdtempSync(path.join(tmpdir(), 'guard-'));
	try {
		for (const [name, source] of Object.entries(files))
			writeFileSync(path.join(tree, name), source);
		return runJestOn(tree, ['**/*.test.cts']).report;
	} finally {
		rmSync(tree, { recursive: true, force: true });
	}
}

/** A plain test file that leaves one thing behind each, one that cleans up, and a part's file. */
const PLANTED = {
	'timers.test.cts': `
		import { installFakeTime } from ${harness('fakeTime.cts')};
		it('passes, but leaves its fake clock installed', () => { installFakeTime(); });
	`,
	'binary.test.cts': `
		import { useFilesystemBinaryData } from ${harness('binaryData.cts')};
		it('passes, but leaves the filesystem mode on', async () => { await useFilesystemBinaryData(); });
	`,
	'clean.test.cts': `
		import { installFakeTime } from ${harness('fakeTime.cts')};
		it('puts its clock back', () => { installFakeTime().uninstall(); });
	`,
	'part.test.cts': `
		describe('test/node/leaves.test.cts', () => {
			it('passes, but leaves fake timers on', () => { jest.useFakeTimers(); });
		});
		describe('test/node/next.test.cts', () => {
			it('runs on real timers', () => { expect(jest.isMockFunction(setTimeout)).toBe(false); expect('clock' in setTimeout).toBe(false); });
		});
	`,
};

describe("The test environment's guard against state left behind", () => {
	// one jest for all the planted files: each file has a registry of its own, as in any jest run
	let results: JestReport['testResults'];
	beforeAll(() => {
		results = runJest(PLANTED).testResults;
	}, 60_000);
	const resultOf = (file: string) => results.find((result) => path.basename(result.name) === file)!;

	it('fails a plain test file that leaves fake timers or the binary data mode behind', () => {
		expect(resultOf('timers.test.cts').message).toContain(
			'This test file left behind: fake timers installed',
		);
		expect(resultOf('binary.test.cts').message).toContain(
			'This test file left behind: n8n binary data in filesystem mode (useFilesystemBinaryData)',
		);
		expect(resultOf('clean.test.cts').message).toBe('');
	});

	it("fails the file of a part that leaves jest's fake timers behind, and the next file starts clean", () => {
		const part = resultOf('part.test.cts');
		expect(part.message).toContain('test/node/leaves.test.cts left behind: fake timers installed');
		expect(part.assertionResults.map((test) => test.status)).toEqual(['passed', 'passed']);
	});
});
