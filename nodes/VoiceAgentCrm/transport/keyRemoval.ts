/**
 * Removing the credential's secrets from anything the service sends back before a user, a log or a
 * saved execution sees it. A service (or a proxy in front of it) may quote the key whole, in part,
 * in another case, encoded (URL, base64, hex, HTML entities), or broken up by markup or by
 * invisible characters; the Base URL may carry a `user:password@`.
 */

/** Quoted fragments of the key this long or longer are removed; shorter ones match by accident. */
const MIN_KEY_FRAGMENT = 8;

const API_KEY_SHOWN_AS = '[API key removed]';
const USERINFO_SHOWN_AS = '[Base URL user info removed]';

export interface KeyRemover {
	/** `text` with every form of the secrets replaced. */
	text(text: string): string;
	/** A JSON value with every string (and property name) cleaned; the same value when nothing was found. */
	value<T>(value: T): T;
}

/** Removers of the credentials in use, so that each request does not build its own again. */
const removers = new Map<string, KeyRemover>();
const REMOVERS_KEPT = 16;

/** The remover for one credential: its API key and the user info of its Base URL. */
export function keyRemover(apiKey: string | undefined, baseUrl?: string): KeyRemover {
	const id = JSON.stringify([apiKey, baseUrl]);
	let remover = removers.get(id);
	if (!remover) {
		if (removers.size >= REMOVERS_KEPT) removers.delete(removers.keys().next().value as string);
		remover = newKeyRemover(apiKey, baseUrl);
		removers.set(id, remover);
	}
	return remover;
}

function newKeyRemover(apiKey: string | undefined, baseUrl?: string): KeyRemover {
	const fragments = fragmentsOf(apiKey ? keyForms(apiKey) : []);
	const userinfo = baseUrl ? userinfoForms(baseUrl) : [];
	const text = (input: string) => withoutFragments(withoutExact(input, userinfo), fragments);
	return {
		text,
		value: <T>(value: T): T => {
			if (value === undefined || (!fragments.texts.size && !userinfo.length)) return value;
			// one pass over the whole answer; strings with markup are looked at one by one
			const serialized = JSON.stringify(value) ?? '';
			const found =
				MAY_HIDE.test(serialized) ||
				HEX_RUN.test(serialized) ||
				rangesOf(serialized, fragments).length > 0 ||
				userinfo.some((form) => serialized.includes(form));
			return found ? (cleaned(value, text) as T) : value;
		},
	};
}

/**
 * The key as it may be quoted: as is, URL-encoded, and in base64 (and base64url) at each of the
 * three byte alignments it can have inside a longer encoded text (only the characters that depend
 * on the key alone).
 */
function keyForms(apiKey: string): string[] {
	const forms = new Set([apiKey, encodeURIComponent(apiKey)]);
	const bytes = Buffer.from(apiKey, 'utf8');
	for (let pad = 0; pad < 3; pad++) {
		const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
		const first = Math.ceil((8 * pad) / 6);
		const end = Math.floor((8 * (pad + bytes.length)) / 6);
		const core = encoded.slice(first, end);
		forms.add(core);
		forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...forms];
}

interface Windows {
	texts: Set<string>;
	/** One bit per value of the hash's top `HASH_BITS` bits: set for the windows' hashes. */
	hashes: Uint8Array;
}

const HASH_BITS = 20;

/** Every lower-case window of `MIN_KEY_FRAGMENT` characters of the forms, and their hashes. */
function fragmentsOf(forms: string[]): Windows {
	const texts = new Set<string>();
	for (const form of forms) {
		const lower = asciiLower(form);
		for (let i = 0; i + MIN_KEY_FRAGMENT <= lower.length; i++)
			texts.add(lower.slice(i, i + MIN_KEY_FRAGMENT));
	}
	const hashes = new Uint8Array(2 ** (HASH_BITS - 3));
	for (const window of texts) {
		const slot = hashOf(window) >>> (32 - HASH_BITS);
		hashes[slot >>> 3] |= 1 << (slot & 7);
	}
	return { texts, hashes };
}

/** The `user:password` of a Base URL, as written and decoded, and the password alone when it is long enough not to match by accident. */
function userinfoForms(baseUrl: string): string[] {
	const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@\s]*)@/i.exec(baseUrl.trim());
	if (!match || !match[1]) return [];
	const written = match[1];
	const forms = new Set([written, safeDecode(written)]);
	const password = written.includes(':') ? written.slice(written.indexOf(':') + 1) : '';
	if (password.length >= MIN_KEY_FRAGMENT) forms.add(password).add(safeDecode(password));
	return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/**
 * The Base URL without its `user:password@`, for messages that name it (the credential test); also
 * as written without a scheme, which the credential test refuses by quoting it.
 */
export function withoutUserinfo(baseUrl: string): string {
	return baseUrl.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]*@/i, '$1');
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

function withoutExact(text: string, forms: string[]): string {
	return forms.reduce((out, form) => out.split(form).join(USERINFO_SHOWN_AS), text);
}

/** Lower-cases A-Z only, as the hash folds them. */
function asciiLower(text: string): string {
	return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * `text` with every run of characters made of windows of the key's forms replaced. What may hide a
 * run is looked through: markup in its middle (`ab<b>cd</b>ef`), HTML entities (`&#x41;`, `&#65;`,
 * `&plus;`), invisible characters between its letters (a zero-width space), and hex (the key's
 * bytes, 16 hex digits or more); what a run covers is removed, the hiding included.
 */
function withoutFragments(text: string, windows: Windows): string {
	if (!windows.texts.size || text.length < MIN_KEY_FRAGMENT) return text;
	const ranges = rangesOf(text, windows);
	if (MAY_HIDE.test(text)) {
		const { readable, starts, ends } = readableView(text);
		for (const [start, end] of rangesOf(readable, windows))
			ranges.push([starts[start], ends[end - 1]]);
	}
	ranges.push(...hexRanges(text, windows));
	if (!ranges.length) return text;
	let out = '';
	let at = 0;
	for (const [start, end] of merged(ranges)) {
		out += text.slice(at, start) + API_KEY_SHOWN_AS;
		at = end;
	}
	return out + text.slice(at);
}

/**
 * The runs of `text` made of windows in `windows`: a rolling hash of each window of the text,
 * checked against the windows' hashes, then compared, so that a long answer is read once.
 */
function rangesOf(text: string, windows: Windows): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	let hash = 0;
	for (let i = 0; i < text.length; i++) {
		if (i >= MIN_KEY_FRAGMENT)
			hash = (hash - Math.imul(foldedAt(text, i - MIN_KEY_FRAGMENT), HIGHEST_POWER)) >>> 0;
		hash = (Math.imul(hash, BASE) + foldedAt(text, i)) >>> 0;
		const start = i + 1 - MIN_KEY_FRAGMENT;
		const slot = hash >>> (32 - HASH_BITS);
		if (start < 0 || !(windows.hashes[slot >>> 3] & (1 << (slot & 7)))) continue;
		if (!windows.texts.has(asciiLower(text.slice(start, i + 1)))) continue;
		const last = ranges[ranges.length - 1];
		if (last && last[1] >= start) last[1] = i + 1;
		else ranges.push([start, i + 1]);
	}
	return ranges;
}

const BASE = 31;
const HIGHEST_POWER = (BASE ** (MIN_KEY_FRAGMENT - 1)) >>> 0;

/** The character code at `index`, A-Z folded to a-z. */
function foldedAt(text: string, index: number): number {
	const code = text.charCodeAt(index);
	return code >= 65 && code <= 90 ? code + 32 : code;
}

function hashOf(window: string): number {
	let hash = 0;
	for (let i = 0; i < window.length; i++)
		hash = (Math.imul(hash, BASE) + foldedAt(window, i)) >>> 0;
	return hash;
}

/**
 * What may hide a form of the key from a plain scan: markup, entities, invisible characters, and
 * `\uXXXX` escapes (a JSON or JavaScript string quoted as written, e.g. Go's `\u0026` for `&`).
 */
const MAY_HIDE = /[<&\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]|\\u[0-9a-fA-F]{4}/;

/** A tag, an HTML entity (named ones end with `;`), a `\uXXXX` escape, or an invisible character. */
const HIDING =
	/<[^<>]*>|&#[xX]([0-9a-fA-F]{1,6});?|&#([0-9]{1,7});?|&([a-zA-Z][a-zA-Z0-9]{1,31});|\\u([0-9a-fA-F]{4})|[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;

/** The named entities of the characters a key is made of (HTML's own names, as an encoder writes them). */
const NAMED_ENTITIES: Record<string, string> = {
	excl: '!',
	quot: '"',
	num: '#',
	dollar: '$',
	percnt: '%',
	amp: '&',
	apos: "'",
	lpar: '(',
	rpar: ')',
	ast: '*',
	midast: '*',
	plus: '+',
	comma: ',',
	period: '.',
	sol: '/',
	colon: ':',
	semi: ';',
	lt: '<',
	equals: '=',
	gt: '>',
	quest: '?',
	commat: '@',
	lsqb: '[',
	lbrack: '[',
	bsol: '\\',
	rsqb: ']',
	rbrack: ']',
	hat: '^',
	lowbar: '_',
	underbar: '_',
	grave: '`',
	lcub: '{',
	lbrace: '{',
	verbar: '|',
	vert: '|',
	rcub: '}',
	rbrace: '}',
	tilde: '~',
	hyphen: '-',
	dash: '-',
	minus: '-',
};

/** What a tag, an entity, an escape or an invisible character reads as; `undefined` for an unknown entity, kept as written. */
function readAs(match: RegExpMatchArray): string | undefined {
	const [whole, hex, decimal, name, escaped] = match;
	if (hex !== undefined || decimal !== undefined || escaped !== undefined) {
		const code = decimal !== undefined ? Number(decimal) : parseInt(hex ?? escaped, 16);
		return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
	}
	if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()];
	return whole.startsWith('<') || whole.length === 1 ? '' : undefined;
}

/**
 * The text as a reader sees it: tags and invisible characters out, entities decoded. For each of
 * its characters, where it starts and ends in `text`.
 */
function readableView(text: string): { readable: string; starts: number[]; ends: number[] } {
	let readable = '';
	const starts: number[] = [];
	const ends: number[] = [];
	const add = (part: string, start: number, end: number) => {
		readable += part;
		for (let i = 0; i < part.length; i++) {
			starts.push(part.length === end - start ? start + i : start);
			ends.push(part.length === end - start ? start + i + 1 : end);
		}
	};
	let at = 0;
	for (const match of text.matchAll(HIDING)) {
		add(text.slice(at, match.index), at, match.index);
		at = match.index + match[0].length;
		add(readAs(match) ?? match[0], match.index, at);
	}
	add(text.slice(at), at, text.length);
	return { readable, starts, ends };
}

/** A run of hex digits long enough to hold 8 bytes of the key. */
const HEX_RUN = /[0-9a-fA-F]{16,}/;

/** The runs of hex digits that spell windows of the key's bytes, at either digit alignment. */
function hexRanges(text: string, windows: Windows): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	for (const run of text.matchAll(/[0-9a-fA-F]{16,}/g)) {
		for (const shift of [0, 1]) {
			const digits = run[0].slice(shift, shift + 2 * Math.floor((run[0].length - shift) / 2));
			const bytes = Buffer.from(digits, 'hex').toString('latin1');
			const first = run.index + shift;
			for (const [start, end] of rangesOf(bytes, windows))
				ranges.push([first + 2 * start, first + 2 * end]);
		}
	}
	return ranges;
}

function merged(ranges: Array<[number, number]>): Array<[number, number]> {
	const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
	const out: Array<[number, number]> = [];
	for (const [start, end] of sorted) {
		const last = out[out.length - 1];
		if (last && start <= last[1]) last[1] = Math.max(last[1], end);
		else out.push([start, end]);
	}
	return out;
}

function cleaned(value: unknown, text: (input: string) => string): unknown {
	if (typeof value === 'string') return text(value);
	if (Array.isArray(value)) return value.map((entry) => cleaned(entry, text));
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => [text(name), cleaned(entry, text)]),
		);
	}
	return value;
}
