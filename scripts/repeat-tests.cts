import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

/**
 * `npm run test:repeat -- <runs>`: `npm test` that many times in a row (10 unless told), to catch
 * a test that fails only now and then. Prints a line per run (passed or failed, its counts, its
 * wall time, the load average it started on) and the names of the tests that failed, then how
 * often each of them failed. Each run's whole output and jest's JSON results are kept in
 * test/.tmp/repeat/. Exits 1 when any run failed.
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

function runsAsked(args: string[]): number {
	const runs = Number(args[0] ?? 10);
	if (!Number.isInteger(runs) || runs < 1) {
		console.error(`usage: npm run test:repeat -- <runs> (a whole number from 1; got "${args[0]}")`);
		process.exit(2);
	}
	return runs;
}

/** One `npm test`, its output into run-<n>.log and jest's results into run-<n>.json. */
async function runOnce(run: number): Promise<RunResult> {
	const json = path.join(OUT, `run-${run}.json`);
	rmSync(json, { force: true });
	const log = openSync(path.join(OUT, `run-${run}.log`), 'w');
	const started = Date.now();
	const code = await new Promise<number | null>((resolve, reject) => {
		const child = spawn('npm', ['test', '--', '--json', `--outputFile=${json}`], {
			cwd: ROOT,
			stdio: ['ignore', log, log],
		});
		child.on('error', reject);
		child.on('exit', resolve);
	});
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
	const runs = runsAsked(process.argv.slice(2));
	mkdirSync(OUT, { recursive: true });
	const failedRuns: number[] = [];
	const timesFailed = new Map<string, number>();
	for (let run = 1; run <= runs; run++) {
		const load = loadavg()
			.map((value) => value.toFixed(2))
			.join(' ');
		const result = await runOnce(run);
		const ok = result.code === 0 && result.failures.length === 0;
		if (!ok) failedRuns.push(run);
		console.log(
			`run ${run}/${runs}: ${ok ? 'passed' : 'FAILED'}, ${result.passed ?? '?'} tests passed, ${result.failures.length} failed, ${result.seconds.toFixed(1)} s wall, load average ${load} at its start`,
		);
		for (const name of result.failures) {
			console.log(`  failed: ${name}`);
			timesFailed.set(name, (timesFailed.get(name) ?? 0) + 1);
		}
	}
	console.log(`\n${runs - failedRuns.length} of ${runs} runs passed`);
	if (failedRuns.length) console.log(`failed runs: ${failedRuns.join(', ')}`);
	for (const [name, times] of [...timesFailed].sort((a, b) => b[1] - a[1]))
		console.log(`  ${times} of ${runs}: ${name}`);
	console.log(`each run's output and results: ${path.relative(ROOT, OUT)}/run-<n>.log, .json`);
	process.exitCode = failedRuns.length ? 1 : 0;
}

void main();
