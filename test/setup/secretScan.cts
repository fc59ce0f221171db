import { leakedLogLine, recordedLogLines, recordLogLine } from '../../harness/secrets.cts';

/**
 * Runs in every test file: records every console line (and the harness, once loaded, every n8n
 * logger line: `harness/logScan.cts`), and fails the test after which a line contained a registered
 * API key, a part of it or an encoding of it (`harness/secrets.cts`).
 */
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		recordLogLine(args);
		original(...args);
	};
}

/** The lines logged so far in the running test, for tests that check a log line themselves. */
export function linesOfThisTest(): string[] {
	return recordedLogLines();
}

afterEach(() => {
	const leaked = leakedLogLine();
	if (leaked) throw new Error(`A log line contained ${leaked}`);
});
