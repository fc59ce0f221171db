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

// n8n's Logger installs itself as the proxy's logger when it is first created (during a run);
// wrapping `init` keeps every later line recorded too.
const installLogger = LoggerProxy.init;
installLogger(recording());
(LoggerProxy as { init: typeof installLogger }).init = (logger) => installLogger(recording(logger));
