/**
 * The API key must never appear in an output item, an error message or description, or a log
 * line. Every key the harness hands to a credential is registered here; every run through the
 * engine is scanned, and every console or n8n logger line of every test is scanned after it
 * (`recordLogLine`, `leakedLogLine`; see `test/setup/secretScan.ts`), so the whole suite asserts
 * it without each test having to.
 */
const secrets = new Set<string>();

/** Log lines since the last scan. */
const logLines: string[] = [];
/** Beyond this many lines (a bench, with no test to scan them), only those with a known key are kept. */
const MAX_LOG_LINES = 10_000;

export function registerSecret(value: string): void {
	// short values would match by accident; real and test keys are long
	if (value.length >= 12) secrets.add(value);
}

/** The registered secret found in `text`, if any (never the secret itself in the message). */
export function findSecret(text: string): string | undefined {
	for (const secret of secrets)
		if (text.includes(secret)) return `a key ending in …${secret.slice(-4)}`;
	return undefined;
}

/** Record a console or logger line (its arguments) for the next `leakedLogLine`. */
export function recordLogLine(args: unknown[]): void {
	logLines.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
	if (logLines.length > MAX_LOG_LINES) {
		const leaking = logLines.filter((line) => findSecret(line));
		logLines.splice(0, logLines.length, ...leaking);
	}
}

/** The key found in a line recorded since the last call, if any; the lines are dropped. */
export function leakedLogLine(): string | undefined {
	const leaked = logLines.map(findSecret).find(Boolean);
	logLines.length = 0;
	return leaked;
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

export function assertNoSecret(what: string, value: unknown): void {
	const text = typeof value === 'string' ? value : JSON.stringify(value, errorAware);
	const found = text === undefined ? undefined : findSecret(text);
	if (found) throw new Error(`${what} contains ${found}`);
}

/** Errors serialize with their message, description and cause, which JSON.stringify skips. */
function errorAware(_key: string, value: unknown): unknown {
	if (value instanceof Error) {
		const e = value as Error & { description?: unknown; cause?: unknown; context?: unknown };
		return {
			name: e.name,
			message: e.message,
			description: e.description,
			context: e.context,
			cause: e.cause,
			stack: e.stack,
		};
	}
	return value;
}
