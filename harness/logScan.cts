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

// every line of n8n's logger goes through `log`, those of its LoggerProxy and its ErrorReporter too
const prototype = Logger.prototype as unknown as LoggerMethods;
const log = prototype.log;
prototype.log = function (level, message, metadata) {
	recordLogLine([message, metadata]);
	if (printed) log.call(this, level, message, metadata);
};

// before n8n creates its Logger (during the first run), its LoggerProxy lines are recorded here
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;
type ProxyLogger = Parameters<typeof LoggerProxy.init>[0];
LoggerProxy.init(
	Object.fromEntries(
		LEVELS.map((level) => [
			level,
			(message: string, meta?: unknown) => recordLogLine([message, meta]),
		]),
	) as unknown as ProxyLogger,
);
