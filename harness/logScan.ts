import { LoggerProxy } from 'n8n-workflow';

import { recordLogLine } from './secrets';

/**
 * n8n's logger for the runs the harness starts: every line is recorded for the key scan that
 * follows each test (`test/setup/secretScan.ts`). Set up here, where the engine is loaded, so that
 * a test that never loads n8n does not pay for loading it.
 */
const record =
	() =>
	(message: string, meta?: unknown): void =>
		recordLogLine([message, meta]);

LoggerProxy.init({
	error: record(),
	warn: record(),
	info: record(),
	debug: record(),
} as unknown as Parameters<typeof LoggerProxy.init>[0]);
