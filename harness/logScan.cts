import { LoggerProxy } from 'n8n-workflow';

import { recordLogLine } from './secrets.cts';

/**
 * n8n's logger for the runs the harness starts: every line is recorded for the key scan that
 * follows each test (`test/setup/secretScan.cts`). Set up here, where the engine is loaded, so that
 * a test that never loads n8n does not pay for loading it.
 */
type Logger = Parameters<typeof LoggerProxy.init>[0];
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** A logger that records each line and hands it on to `next` (n8n's own logger, once it exists). */
function recording(next?: Logger): Logger {
	const logger = {} as Record<(typeof LEVELS)[number], (message: string, meta?: unknown) => void>;
	for (const level of LEVELS)
		logger[level] = (message, meta) => {
			recordLogLine([message, meta]);
			next?.[level](message, meta as never);
		};
	return logger as unknown as Logger;
}

/** What a node's own lines print in the tests: warnings and errors, or all when N8N_LOG_LEVEL asks. */
const printed = (level: string) =>
	Boolean(process.env.N8N_LOG_LEVEL) || level === 'warn' || level === 'error';

/**
 * n8n's Logger: nodes write through `this.logger`, the Logger itself rather than the proxy, so
 * its own methods are wrapped to record each line too. Levels below n8n's are fixed no-ops, left
 * as they are (they write nothing). Answers the unwrapped methods, for the proxy's lines.
 */
function recordNodeLines(logger: Logger): Logger {
	const methods = logger as unknown as Record<string, (...args: unknown[]) => unknown>;
	const own = {} as Record<string, (...args: unknown[]) => unknown>;
	for (const level of LEVELS) {
		own[level] = methods[level].bind(logger);
		if (Object.getOwnPropertyDescriptor(logger, level)?.writable === false) continue;
		methods[level] = (message, meta) => {
			recordLogLine([message, meta]);
			return printed(level) ? own[level](message, meta) : undefined;
		};
	}
	return own as unknown as Logger;
}

// n8n's Logger installs itself as the proxy's logger when it is first created (during a run);
// wrapping `init` keeps every later line recorded too.
const installLogger = LoggerProxy.init;
installLogger(recording());
(LoggerProxy as { init: typeof installLogger }).init = (logger) =>
	installLogger(recording(recordNodeLines(logger)));
