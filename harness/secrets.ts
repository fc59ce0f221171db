/**
 * The API key must never appear in an output item, an error message or description, or a log
 * line. Every key the harness hands to a credential is registered here; every run through the
 * engine is scanned, and every console or n8n logger line of every test is scanned after it
 * (see `setupSecrets.ts`), so the whole suite asserts it without each test having to.
 */
const secrets = new Set<string>();

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
