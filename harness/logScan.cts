import { Logger } from '@n8n/backend-common';
import { LoggerProxy } from 'n8n-workflow';

import { recordLogLine } from './secrets.cts';

/**
 * n8n's logger for the runs the harness starts: every line is recorded for the key scan that
 * follows each test (`test/setup/secretScan.cts`), and printed only when asked: with
 * `N8N_LOG_LEVEL` set (n8n's own setting, e.g. `N8N_LOG_LEVEL=debug npx jest <file>`), n8n's
 * logger prints at that level as in n8n; unset, a test run prints none of it (an error a test
 * provokes on purpose is n8n's error report, one block per failing node). Set up here, where the
 * engine is loaded, so that a test that never loads n8n does not pay for loading it.
 */
type LoggerMethods = {
	log(level: string, message: string, metadata: Record<string, unknown>): void;
};
const printed = process.env.N8N_LOG_LEVEL !== undefined;

// n8n's lines through its LoggerProxy, every level (n8n's own logger drops those below its level)
type ProxyLogger = Parameters<typeof LoggerProxy.init>[0];
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;
function recording(next?: ProxyLogger): ProxyLogger {
	const logger = {} as Record<(typeof LEVELS)[number], (message: string, meta?: unknown) => void>;
	for (const level of LEVELS)
		logger[level] = (message, meta) => {
			recordLogLine([message, meta]);
			if (printed) next?.[level](message, meta as never);
		};
	return logger as unknown as ProxyLogger;
}
// n8n's Logger installs itself as the proxy's logger when it is first created (during a run)
const installLogger = LoggerProxy.init;
installLogger(recording());
(LoggerProxy as { init: typeof installLogger }).init = (logger) => installLogger(recording(logger));

// the lines n8n writes to its Logger directly (its ErrorReporter's report of a node's error)
const prototype = Logger.prototype as unknown as LoggerMethods;
const log = prototype.log;
prototype.log = function (level, message, metadata) {
	// printed, a proxy line comes here too and is recorded twice: harmless to the scan
	recordLogLine([message, metadata]);
	if (printed) log.call(this, level, message, metadata);
};
