import { LoggerProxy } from 'n8n-workflow';

import { findSecret, visibleText } from '../../harness/secrets';

/**
 * Runs in every test file: records every console and n8n logger line, and fails the test after
 * which a line contained a registered API key, a part of it or an encoding of it (`harness/secrets.ts`).
 */
const lines: string[] = [];

/** Each argument with every string it holds, errors with their non-enumerable properties too. */
function record(args: unknown[]): void {
	lines.push(args.map((a) => (typeof a === 'string' ? a : visibleText(a))).join(' '));
}

for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		record(args);
		original(...args);
	};
}

type Logger = Parameters<typeof LoggerProxy.init>[0];
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** A logger that records each line and hands it on to `next` (n8n's own logger, once it exists). */
function recording(next?: Logger): Logger {
	const logger = {} as Record<(typeof LEVELS)[number], (message: string, meta?: unknown) => void>;
	for (const level of LEVELS)
		logger[level] = (message, meta) => {
			record([message, meta]);
			next?.[level](message, meta as never);
		};
	return logger as unknown as Logger;
}

// n8n's Logger installs itself as the proxy's logger when it is first created (during a run);
// wrapping `init` keeps every later line recorded too.
const installLogger = LoggerProxy.init;
installLogger(recording());
(LoggerProxy as { init: typeof installLogger }).init = (logger) => installLogger(recording(logger));

/** The lines logged so far in the running test, for tests that check a log line themselves. */
export function linesOfThisTest(): string[] {
	return [...lines];
}

afterEach(() => {
	const leaked = lines.map(findSecret).find(Boolean);
	lines.length = 0;
	if (leaked) throw new Error(`A log line contained ${leaked}`);
});
