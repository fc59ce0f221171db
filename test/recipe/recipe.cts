import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Endpoint } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { runJestOn } from '../helpers/jest.cts';

/** The repository's root. */
export const ROOT = path.join(__dirname, '..', '..');

/** What a copy holds: the package, the simulator, the harness, the tests, the docs. */
const COPIED = ['nodes', 'credentials', 'simulator', 'harness', 'test/node', 'docs', 'README.md'];
/** What the recipe's cost leaves out: the user-facing docs (README row, decisions row). */
const DOCS = /^(docs\/|README\.md$)/;

/** Every file under a folder, by its path relative to it. */
function filesOf(folder: string, under = ''): string[] {
	return readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(under, entry.name);
		return entry.isDirectory() ? filesOf(folder, relative) : [relative];
	});
}

/** A copy of the repository's code, tests and docs under `copy` (a folder of a tree that links node_modules). */
export function copyRepository(copy: string): void {
	for (const entry of COPIED)
		cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
}

/** Writes `text` to a file of the copy (its folders made). */
export function write(copy: string, file: string, text: string): void {
	mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
	writeFileSync(path.join(copy, file), text);
}

/** Inserts `line` into a file of the copy after the line that contains `after` (at its end without). */
export function insertLine(copy: string, file: string, line: string, after?: string): void {
	const lines = readFileSync(path.join(copy, file), 'utf8').split('\n');
	const at = after === undefined ? lines.length - 1 : lines.findIndex((l) => l.includes(after));
	if (at < 0) throw new Error(`${file} has no line with ${after}`);
	lines.splice(at + 1, 0, line);
	writeFileSync(path.join(copy, file), lines.join('\n'));
}

/** The files of the copy that differ from the repository's, added ones included, docs aside. */
export function filesTouched(copy: string): string[] {
	const touched: string[] = [];
	for (const entry of COPIED) {
		const isFile = !entry.includes('/') && entry.includes('.');
		const files = isFile ? [''] : filesOf(path.join(copy, entry));
		for (const file of files) {
			const relative = isFile ? entry : `${entry}/${file}`;
			let original: string | undefined;
			try {
				original = readFileSync(path.join(ROOT, relative), 'utf8');
			} catch {
				original = undefined;
			}
			if (original !== readFileSync(path.join(copy, relative), 'utf8') && !DOCS.test(relative))
				touched.push(relative);
		}
	}
	return touched.sort();
}

/**
 * The inferred endpoints (`inferred: true`) without their row in docs/decisions.md, "Endpoints the
 * reference names but does not describe": a row's request cell names the method and the path.
 */
export function inferredWithoutDecision(
	endpoints: Record<string, Endpoint>,
	decisions: string,
): string[] {
	const section = decisions
		.split(/^## /m)
		.find((part) => part.startsWith('Endpoints the reference'));
	const requests = (section ?? '')
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.map((line) => line.split('|')[2] ?? '');
	return Object.entries(endpoints)
		.filter(([, endpoint]) => endpoint.inferred)
		.filter(
			([, endpoint]) =>
				!requests.some((cell) =>
					new RegExp(`\`${endpoint.method} ${escape(endpoint.path)}[\`?\\s]`).test(cell),
				),
		)
		.map(([name]) => name);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs the given test files of a copy in a jest of their own; answers the names of those that passed. */
export function runTestsOfCopy(
	tree: string,
	files: string[],
): { passed: string[]; output: string } {
	const { report, output } = runJestOn(
		tree,
		files.map((file) => path.join(tree, file)),
	);
	return {
		passed: report.testResults
			.filter((result) => result.status === 'passed')
			.map((result) => path.relative(tree, result.name).split(path.sep).join('/')),
		output,
	};
}
