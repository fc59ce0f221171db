import { readdirSync } from 'node:fs';
import path from 'node:path';

import { forgetSecrets } from '../../harness/secrets.cts';

/**
 * `npm test` runs the test files in a few parts, each part one jest test file that loads the
 * test files given to it, each inside a describe named after it. Jest gives every test file a
 * module registry of its own, and loading n8n-core into one costs about a second of CPU: once a
 * part instead of once a file halves the suite's CPU. A part's files share n8n-core, as the
 * workflows of one n8n process do; a file that leaves fake timers or n8n's binary data mode behind
 * fails (test/setup/environment.js). `npx jest <path>` runs files on their own (jest.config.js).
 *
 * Each test file belongs to the first part whose pattern matches its path; the last takes the
 * rest, so that a new test file runs without being listed.
 */
export const PARTS = {
	simulator: /^simulator\//,
	calls: /^test\/node\/(call|recording)/,
	events: /^test\/node\/events/,
	node: /^test\/node\//,
	triggers: /^test\/trigger\//,
	reliability: /^test\/reliability\//,
	release: /^test\/release\//,
	repository: /./,
} as const;

export type PartName = keyof typeof PARTS;

const ROOT = path.resolve(__dirname, '..', '..');
const FOLDERS = ['test', 'simulator'];

/** Every test file of the repository, relative to its root, with `/` separators. */
export function testFiles(): string[] {
	return FOLDERS.flatMap((folder) =>
		readdirSync(path.join(ROOT, folder), { recursive: true })
			.map((file) => `${folder}/${String(file).split(path.sep).join('/')}`)
			.filter((file) => file.endsWith('.test.cts') && !file.startsWith('test/.tmp/')),
	).sort();
}

/** The part a test file runs in. */
export function partOf(file: string): PartName {
	return (Object.keys(PARTS) as PartName[]).find((name) => PARTS[name].test(file))!;
}

/** Registers the tests of every file of `part`, each under a describe named after its file. */
export function runPart(part: PartName): void {
	for (const file of testFiles().filter((f) => partOf(f) === part)) {
		describe(file, () => {
			afterAll(forgetSecrets);
			// a test file's tests are registered as it loads, so inside its describe
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			require(path.join(ROOT, file));
		});
	}
}
