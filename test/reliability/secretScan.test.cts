import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..');
/** Where code that runs nodes may live: the tests and the engine harness they share with the demo and benches. */
const SCANNED = ['test', 'harness'].map((dir) => join(REPO_ROOT, dir));
/** n8n-core's ways to run a node: whatever imports one produces outputs and errors the scan must see. */
const NODE_RUNNERS = [
	'WorkflowExecute',
	'PollContext',
	'WebhookContext',
	'ExecuteContext',
	'TriggerContext',
	'RoutingNode',
];

/** The names a file imports as values (not `import type`) from n8n-core. */
function runnersImported(code: string): string[] {
	const imports = [...code.matchAll(/import \{([^}]*)\} from 'n8n-core'/g)].flatMap((m) =>
		m[1].split(','),
	);
	return imports.map((name) => name.trim()).filter((name) => NODE_RUNNERS.includes(name));
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name.startsWith('.') || name === 'node_modules') return [];
		return statSync(path).isDirectory() ? sourceFiles(path) : /\.cts$/.test(name) ? [path] : [];
	});
}

/**
 * The API key scan of `harness/secrets.cts` guards the whole suite only if every run goes
 * through it: every test file that runs a node through n8n-core itself, instead of through a
 * harness, would bypass it. Checked over the test tree, so a new harness or test cannot skip it.
 */
describe('the API key scan covers every way the suite runs a node', () => {
	const runners = SCANNED.flatMap(sourceFiles).filter(
		(path) => runnersImported(readFileSync(path, 'utf8')).length > 0,
	);

	it('finds the harnesses that run nodes', () => {
		expect(runners.map((path) => relative(REPO_ROOT, path))).toEqual(
			expect.arrayContaining(['harness/engine.cts', 'harness/poll.cts']),
		);
	});

	it('every file that runs a node through n8n-core is a harness that scans what the run produced', () => {
		const bypassing = runners
			.filter((path) => !/\bassertNoSecret\(/.test(readFileSync(path, 'utf8')))
			.map((path) => relative(REPO_ROOT, path));
		expect(bypassing).toEqual([]);
	});
});
