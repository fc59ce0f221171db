import { leakedLogLine, recordLogLine } from '../../harness/secrets';

/**
 * Runs in every test file: records every console line (and the harness, once loaded, every n8n
 * logger line: `harness/logScan.ts`), and fails the test after which a line contained a registered
 * API key.
 */
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		recordLogLine(args);
		original(...args);
	};
}

afterEach(() => {
	const leaked = leakedLogLine();
	if (leaked) throw new Error(`A log line contained ${leaked}`);
});
