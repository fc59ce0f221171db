/**
 * The API key must never appear in an output item, an error message or description, or a log
 * line. Every key the harness hands to a credential is registered here; every run through the
 * engine is scanned, and every console or n8n logger line of every test is scanned after it
 * (`recordLogLine`, `leakedLogLine`; see `test/setup/secretScan.cts`), so the whole suite asserts
 * it without each test having to.
 *
 * Not only the key as is: any part of it of `SCANNED_FRAGMENT` characters or more, in any case,
 * its base64 (at any alignment, and base64url) and its URL-encoded form. The nodes remove parts
 * from 8 characters on; `test/reliability/keyForms.test.cts` checks those shorter parts by hand.
 * The scan reads this independently of the nodes' own removal, so a form the nodes miss shows.
 *
 * A long text (`LONG_TEXT` characters or more: a file's bytes as base64, a large CSV) is read in
 * windows of `LONG_WINDOW`, so parts from `LONG_SCANNED_FRAGMENT` characters on: the whole key and
 * its encodings. In 8-character windows, 10 MB of random base64 met a registered key by chance in
 * about one suite run in ten (a base64 key's window is 8 characters of the same alphabet); in
 * 16-character windows the chance is below 10^-15 a scan. Each string of a value is read apart.
 */
const WINDOW = 8;
const LONG_WINDOW = 16;
export const LONG_TEXT = 65_536;
/**
 * Every part this long contains a window that starts at a multiple of the window's length in the
 * scanned text, so the scan reads one window in `WINDOW` positions.
 */
export const SCANNED_FRAGMENT = 2 * WINDOW - 1;
export const LONG_SCANNED_FRAGMENT = 2 * LONG_WINDOW - 1;

/** Every lower-case window of every form of a registered key → that key, by window length. */
const windows = new Map<number, Map<string, string>>([
	[WINDOW, new Map()],
	[LONG_WINDOW, new Map()],
]);

/** The keys registered: each run registers its key again, and its windows are already there. */
const registered = new Set<string>();

export function registerSecret(value: string): void {
	// short values would match by accident; real and test keys are long
	if (value.length < 12 || registered.has(value)) return;
	registered.add(value);
	for (const form of formsOf(value)) {
		const lower = form.toLowerCase();
		for (const [size, ofSize] of windows)
			for (let at = 0; at + size <= lower.length; at++)
				ofSize.set(lower.slice(at, at + size), value);
	}
}

/**
 * Forgets every registered key: a test file that ends leaves no key to the next file of its part
 * (test/parts/parts.cts), as a process of its own would. Many keys would make chance matches of
 * 8 characters in a large random file (10 MB of base64) likely.
 */
export function forgetSecrets(): void {
	registered.clear();
	for (const ofSize of windows.values()) ofSize.clear();
}

function formsOf(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	const forms = [key, encodeURIComponent(key)];
	for (let pad = 0; pad < 3; pad++) {
		const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
		// the characters that depend on the key's bytes alone
		const core = encoded.slice(
			Math.ceil((8 * pad) / 6),
			Math.floor((8 * (pad + bytes.length)) / 6),
		);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/** The registered secret found in `text`, if any (never the secret itself in the message). */
export function findSecret(text: string): string | undefined {
	const size = text.length >= LONG_TEXT ? LONG_WINDOW : WINDOW;
	const ofSize = windows.get(size)!;
	if (!ofSize.size) return undefined;
	const lower = text.toLowerCase();
	for (let at = 0; at + size <= lower.length; at += size) {
		const key = ofSize.get(lower.slice(at, at + size));
		if (key) return `a key ending in …${key.slice(-4)} (or a part or an encoding of it)`;
	}
	return undefined;
}

export function assertNoSecret(what: string, value: unknown): void {
	for (const text of visibleTexts(value)) {
		const found = findSecret(text);
		if (found) throw new Error(`${what} contains ${found}`);
	}
}

/** Every string a value holds, one a line (`visibleTexts`). */
export function visibleText(value: unknown): string {
	return visibleTexts(value).join('\n');
}

/**
 * Every string a value holds: errors with all their own properties, the non-enumerable ones
 * included (message, stack, description, cause, context, …), cycles once.
 */
function visibleTexts(value: unknown): string[] {
	const texts: string[] = [];
	const seen = new Set<object>();
	const visit = (entry: unknown): void => {
		if (typeof entry === 'string') texts.push(entry);
		else if (typeof entry === 'number' || typeof entry === 'boolean') texts.push(String(entry));
		else if (entry && typeof entry === 'object' && !seen.has(entry)) {
			seen.add(entry);
			if (Buffer.isBuffer(entry) || ArrayBuffer.isView(entry)) return;
			if (entry instanceof Map) return [...entry].forEach(visit);
			if (entry instanceof Set) return [...entry].forEach(visit);
			for (const name of Object.getOwnPropertyNames(entry)) {
				texts.push(name);
				visit((entry as Record<string, unknown>)[name]);
			}
		}
	};
	visit(value);
	return texts;
}

/** Log lines since the last scan. */
const logLines: string[] = [];
/** Beyond this many lines (a bench, with no test to scan them), only those with a known key are kept. */
const MAX_LOG_LINES = 10_000;

/** Record a console or logger line (its arguments) for the next `leakedLogLine`. */
export function recordLogLine(args: unknown[]): void {
	logLines.push(args.map((a) => (typeof a === 'string' ? a : visibleText(a))).join(' '));
	if (logLines.length > MAX_LOG_LINES) {
		const leaking = logLines.filter((line) => findSecret(line));
		logLines.splice(0, logLines.length, ...leaking);
	}
}

/** The lines recorded since the last scan, for tests that check a log line themselves. */
export function recordedLogLines(): string[] {
	return [...logLines];
}

/** The key found in a line recorded since the last call, if any; the lines are dropped. */
export function leakedLogLine(): string | undefined {
	const leaked = logLines.map(findSecret).find(Boolean);
	logLines.length = 0;
	return leaked;
}
