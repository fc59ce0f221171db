import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

/**
 * `npm run test:repeat -- <runs> [suite]`: `npm test` (or a real-n8n suite: `test:n8n`,
 * `test:n8n:queue`, `test:n8n:all`) that many times in a row (10 unless told), to catch a test
 * that fails only now and then. Prints a line per run (passed or failed, its counts, its wall time,
 * the load average it started on) and the names of the tests (the checks) that failed, then how
 * often each of them failed. Each run's whole output (and jest's JSON results) is kept in
 * test/.tmp/repeat/. The environment passes through: `TEST_N8N_QUEUE_ONLY_KILL=1` repeats that
 * part alone. Exits 1 when any run failed.
 */

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'test', '.tmp', 'repeat');

interface JestResults {
	numPassedTests: number;
	numFailedTests: number;
	testResults: {
		name: string;
		status: string;
		message: string;
		assertionResults: { fullName: string; status: string }[];
	}[];
}

interface RunResult {
	code: number | null;
	seconds: number;
	passed?: number;
	/** The failing tests' full names; a test file that failed outside its tests, by its path. */
	failures: string[];
}

const REAL_N8N_SUITES = ['test:n8n', 'test:n8n:queue', 'test:n8n:all'];
const USAGE = `usage: npm run test:repeat -- <runs> [${['test', ...REAL_N8N_SUITES].join('|')}]`;

function runsAsked(args: string[]): { runs: number; suite: string } {
	const runs = Number(args[0] ?? 10);
	const suite = args[1] ?? 'test';
	if (!Number.isInteger(runs) || runs < 1) {
		console.error(`${USAGE} (runs: a whole number from 1; got "${args[0]}")`);
		process.exit(2);
	}
	if (suite !== 'test' && !REAL_N8N_SUITES.includes(suite)) {
		console.error(`${USAGE} (got suite "${suite}")`);
		process.exit(2);
	}
	return { runs, suite };
}

/** A command's exit code, its output into `logFile`. */
function exitCodeOf(command: string, args: string[], logFile: string): Promise<number | null> {
	const log = openSync(logFile, 'w');
	return new Promise<number | null>((resolve, reject) => {
		const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', log, log] });
		child.on('error', reject);
		child.on('exit', resolve);
	});
}

/**
 * One run of a real-n8n suite: its checks passed from its closing lines ("test:n8n: 199 passed,
 * 0 failed"; test:n8n:all prints one per suite), the checks that failed from its "FAILED" lines.
 */
async function runSuiteOnce(suite: string, run: number): Promise<RunResult> {
	const logFile = path.join(OUT, `run-${run}.log`);
	const started = Date.now();
	const code = await exitCodeOf('npm', ['run', suite], logFile);
	const seconds = (Date.now() - started) / 1000;
	const lines = readFileSync(logFile, 'utf8').split('\n');
	const passed = lines
		.map((line) => /test:n8n(?::queue)?: (\d+) passed, \d+ failed/.exec(line)?.[1])
		.reduce((sum, count) => sum + Number(count ?? 0), 0);
	const failures = lines
		.map((line) => /^(\[[\w.-]+\] )?.*FAILED after \d+s: (.*)$/.exec(line))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => `${match[1] ?? ''}${match[2]}`);
	if (code !== 0 && !failures.length) failures.push(`exit code ${code}, no FAILED line`);
	return { code, seconds, passed, failures };
}

/** One `npm test`, its output into run-<n>.log and jest's results into run-<n>.json. */
async function runOnce(run: number): Promise<RunResult> {
	const json = path.join(OUT, `run-${run}.json`);
	rmSync(json, { force: true });
	const started = Date.now();
	const code = await exitCodeOf(
		'npm',
		['test', '--', '--json', `--outputFile=${json}`],
		path.join(OUT, `run-${run}.log`),
	);
	const seconds = (Date.now() - started) / 1000;
	if (!existsSync(json))
		return { code, seconds, failures: [`no results written (exit code ${code})`] };
	const results = JSON.parse(readFileSync(json, 'utf8')) as JestResults;
	return { code, seconds, passed: results.numPassedTests, failures: failuresOf(results) };
}

function failuresOf(results: JestResults): string[] {
	return results.testResults.flatMap((file) => {
		const failed = file.assertionResults
			.filter((test) => test.status === 'failed')
			.map((test) => test.fullName);
		if (failed.length || file.status !== 'failed') return failed;
		// a file that failed without a failing test: it did not load, or its environment refused it
		const firstLine = file.message.split('\n').find((line) => line.trim()) ?? '';
		return [`${path.relative(ROOT, file.name)}: ${firstLine.trim()}`];
	});
}

async function main(): Promise<void> {
	const { runs, suite } = runsAsked(process.argv.slice(2));
	mkdirSync(OUT, { recursive: true });
	const failedRuns: number[] = [];
	const timesFailed = new Map<string, number>();
	for (let run = 1; run <= runs; run++) {
		const load = loadavg()
			.map((value) => value.toFixed(2))
			.join(' ');
		const result = suite === 'test' ? await runOnce(run) : await runSuiteOnce(suite, run);
		const ok = result.code === 0 && result.failures.length === 0;
		if (!ok) failedRuns.push(run);
		console.log(
			`run ${run}/${runs}: ${ok ? 'passed' : 'FAILED'}, ${result.passed ?? '?'} ${suite === 'test' ? 'tests' : 'checks'} passed, ${result.failures.length} failed, ${result.seconds.toFixed(1)} s wall, load average ${load} at its start`,
		);
		for (const name of result.failures) {
			console.log(`  failed: ${name}`);
			timesFailed.set(name, (timesFailed.get(name) ?? 0) + 1);
		}
	}
	console.log(`\n${suite}: ${runs - failedRuns.length} of ${runs} runs passed`);
	if (failedRuns.length) console.log(`failed runs: ${failedRuns.join(', ')}`);
	for (const [name, times] of [...timesFailed].sort((a, b) => b[1] - a[1]))
		console.log(`  ${times} of ${runs}: ${name}`);
	console.log(`each run's output and results: ${path.relative(ROOT, OUT)}/run-<n>.log, .json`);
	process.exitCode = failedRuns.length ? 1 : 0;
}

void main();
