import { LoggerProxy } from 'n8n-workflow';

import { findSecret } from '../../harness/secrets';

/**
 * Runs in every test file: records every console and n8n logger line, and fails the test after
 * which a line contained a registered API key.
 */
const lines: string[] = [];

function record(args: unknown[]): void {
	lines.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
}

function safeJson(value: unknown): string {
	try {
		return value instanceof Error
			? `${value.message} ${value.stack ?? ''} ${safeJson({ ...value })}`
			: JSON.stringify(value);
	} catch {
		return String(value);
	}
}

for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		record(args);
		original(...args);
	};
}

const logTo =
	(..._: unknown[]) =>
	(message: string, meta?: unknown) =>
		record([message, meta]);
LoggerProxy.init({
	error: logTo(),
	warn: logTo(),
	info: logTo(),
	debug: logTo(),
} as unknown as Parameters<typeof LoggerProxy.init>[0]);

afterEach(() => {
	const leaked = lines.map(findSecret).find(Boolean);
	lines.length = 0;
	if (leaked) throw new Error(`A log line contained ${leaked}`);
});
