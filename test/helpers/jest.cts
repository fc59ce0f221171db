import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export interface JestReport {
	testResults: {
		name: string;
		status: string;
		message: string;
		assertionResults: { fullName: string; status: string }[];
	}[];
}

/**
 * Runs jest in a process of its own on the test files of `tree` that `testMatch` names, with the
 * repository's test environment and transform; answers its JSON report and what it printed.
 */
export function runJestOn(
	tree: string,
	testMatch: string[],
): { report: JestReport; output: string } {
	const config = {
		rootDir: tree,
		testEnvironment: path.join(ROOT, 'test', 'setup', 'environment.js'),
		testMatch,
		moduleFileExtensions: ['js', 'cts', 'ts', 'json'],
		transform: { '^.+\\.c?ts$': path.join(ROOT, 'test', 'setup', 'transform.js') },
		sandboxInjectedGlobals: ['Math', 'JSON', 'Object', 'Array', 'String', 'Number'],
	};
	const file = path.join(tree, 'report.json');
	const run = spawnSync(
		process.execPath,
		[
			path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
			'--config',
			JSON.stringify(config),
			'--json',
			'--outputFile',
			file,
		],
		{ cwd: tree, encoding: 'utf8' },
	);
	return { report: JSON.parse(readFileSync(file, 'utf8')) as JestReport, output: run.stderr };
}
