/**
 * The rows of a CSV (RFC 4180) or NDJSON file, read from byte pieces of any size (a stream's
 * chunks): decoded in the file's encoding, split into records, the CSV header read. Nothing here
 * knows about a resource or n8n, so every operation that reads a file reads it the same way.
 *
 * Linear in the file's size and bounded in memory: a piece is cut into 64 KiB slices before it is
 * decoded, nothing already read is scanned again, and one row holds at most `MAX_ROW_CHARACTERS`
 * (a longer row ends the reading with a `FileReadError` naming it).
 *
 * Written by hand: community nodes may have no runtime dependencies and n8n gives nodes no CSV
 * parser (docs/decisions.md, "Event → Send from a file").
 */

/** One record of the file: its row number and its fields, or why it cannot be read. */
export interface FileRecord {
	/** As a spreadsheet shows it for CSV (the header is row 1), the line number for NDJSON. */
	row: number;
	/** CSV: a null-prototype object, so a column named `constructor` or `__proto__` is one like any other. */
	fields?: Record<string, unknown>;
	error?: string;
}

export type FileFormat = 'csv' | 'ndjson';

export type FileEncoding =
	| 'auto'
	| 'utf-8'
	| 'utf-16le'
	| 'utf-16be'
	| 'windows-1252'
	| 'iso-8859-1';

/**
 * The most one row (a CSV record, an NDJSON line) may hold: 1 MiB of characters. The API takes
 * at most 32,000 characters of params an event, so a longer row is never one event: it is a file
 * without line breaks, a quote never closed, or a JSON document picked as NDJSON.
 */
export const MAX_ROW_CHARACTERS = 1_048_576;

/** How much of the start of a file Auto-Detect looks at when the file has no byte order mark. */
export const SNIFF_BYTES = 65_536;

/** Text is decoded in slices of this size, whatever the size of the pieces given. */
const SLICE_BYTES = 65_536;

const ENCODING_NAMES: Record<Exclude<FileEncoding, 'auto'>, string> = {
	'utf-8': 'UTF-8',
	'utf-16le': 'UTF-16 LE',
	'utf-16be': 'UTF-16 BE',
	'windows-1252': 'Windows-1252',
	'iso-8859-1': 'ISO-8859-1 (Latin-1)',
};

/** A file that cannot be read on: an encoding refused, a row past the cap. The rows before it were read. */
export class FileReadError extends Error {
	constructor(
		message: string,
		readonly description: string,
		/** The row it happened on, when it is one row's fault. */
		readonly row?: number,
	) {
		super(message);
		this.name = 'FileReadError';
	}
}

export interface ReadOptions {
	format: FileFormat;
	/** CSV only: one character, `,` by default. */
	delimiter?: string;
	encoding?: FileEncoding;
	/** CSV only: called with the header's column names (trimmed) before any record; may throw to refuse the file. */
	onHeader?: (columns: string[]) => void;
	/** Tests only: a smaller cap than `MAX_ROW_CHARACTERS`. */
	maxRowCharacters?: number;
}

/** The records of a file given as byte pieces, in order. Throws `FileReadError` when the file cannot be read on. */
export async function* readRecords(
	pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
	options: ReadOptions,
): AsyncGenerator<FileRecord> {
	const max = options.maxRowCharacters ?? MAX_ROW_CHARACTERS;
	const parser: RowParser =
		options.format === 'csv'
			? new CsvParser(options.delimiter ?? ',', max, options.onHeader)
			: new NdjsonParser(max);
	const decoding = new Decoding(options.encoding ?? 'auto');
	for await (const piece of pieces) {
		for (let from = 0; from < piece.length; from += SLICE_BYTES) {
			const text = decoding.push(piece.subarray(from, from + SLICE_BYTES));
			if (text !== '') yield* parser.push(text, decoding.damage);
		}
	}
	yield* parser.push(decoding.end(), decoding.damage);
	yield* parser.end();
}

/** The delimiter a CSV header looks written with when it is not the one chosen, or undefined. */
export function likelyDelimiter(columns: string[], delimiter: string): string | undefined {
	const line = columns.join(delimiter);
	let best: string | undefined;
	let bestCount = 0;
	for (const candidate of [',', ';', '\t', '|']) {
		if (candidate === delimiter) continue;
		const count = line.split(candidate).length - 1;
		if (count > bestCount) [best, bestCount] = [candidate, count];
	}
	// "a;b,c;d" read with commas: more semicolons than the columns the commas made
	return bestCount >= columns.length ? best : undefined;
}

/** What a delimiter is called in the editor's list. */
export function delimiterName(delimiter: string): string {
	return (
		{ ',': 'Comma (,)', ';': 'Semicolon (;)', '\t': 'Tab', '|': 'Pipe (|)' }[delimiter] ??
		`"${delimiter}"`
	);
}

// ---------------------------------------------------------------------------------------------
// Decoding

/**
 * Bytes to text in the chosen encoding, across piece boundaries. A byte order mark always wins
 * (as browsers decide): UTF-8's, UTF-16 LE's or BE's. Auto-Detect without one reads the first
 * 64 KiB: valid UTF-8 is UTF-8; anything else is refused, naming the encoding it looks like.
 * Bytes not valid in the encoding become U+FFFD, and `damage` then says what the row reader must
 * report on the rows holding them: nothing is stored with a character guessed.
 */
class Decoding {
	damage?: string;
	private started = false;
	/** UTF-8 and UTF-16; the single-byte encodings are read by `windows1252`. */
	private decoder?: InstanceType<typeof TextDecoder>;
	private encoding: Exclude<FileEncoding, 'auto'> = 'utf-8';
	private head: Uint8Array[] = [];
	private headLength = 0;

	constructor(private readonly chosen: FileEncoding) {}

	push(bytes: Uint8Array): string {
		if (this.started) return this.decode(bytes, true);
		this.head.push(bytes);
		this.headLength += bytes.length;
		return this.headLength < SNIFF_BYTES ? '' : this.start(true);
	}

	end(): string {
		return (this.started ? '' : this.start(false)) + this.decode(new Uint8Array(0), false);
	}

	private start(more: boolean): string {
		const head = concat(this.head, this.headLength);
		this.head = [];
		this.started = true;
		this.encoding = byteOrderMark(head) ?? this.guess(head, more);
		// fatal: false: a byte not valid in the encoding becomes U+FFFD, and its row is reported
		if (!singleByte(this.encoding)) this.decoder = new TextDecoder(this.encoding);
		return this.decode(head, more);
	}

	private guess(head: Uint8Array, more: boolean): Exclude<FileEncoding, 'auto'> {
		if (this.chosen !== 'auto') return this.chosen;
		const utf16 = utf16WithoutBom(head);
		if (utf16) {
			const name = ENCODING_NAMES[utf16];
			throw new FileReadError(
				`The file looks like ${name} without a byte order mark, not UTF-8`,
				`Its first bytes hold a zero byte every other byte, as ${name} writes plain letters. Set Encoding to ${name}, or save the file as "CSV UTF-8".`,
			);
		}
		const bad = firstInvalidUtf8(head, more);
		if (bad === undefined) return 'utf-8';
		const line = lineOf(head, bad);
		const byte = `0x${head[bad].toString(16).toUpperCase().padStart(2, '0')}`;
		const as1252 = windows1252(head.subarray(bad, bad + 1));
		throw new FileReadError(
			'The file is not UTF-8: it looks like Windows-1252',
			`Byte ${byte} on line ${line} is not valid UTF-8 (in Windows-1252 it is "${as1252}"). Excel on Windows saves "CSV (Comma delimited)" in Windows-1252. Set Encoding to Windows-1252 (or ISO-8859-1), or save the file as "CSV UTF-8". Nothing was sent.`,
			line,
		);
	}

	private decode(bytes: Uint8Array, stream: boolean): string {
		const text = this.decoder ? this.decoder.decode(bytes, { stream }) : windows1252(bytes);
		if (this.damage === undefined && text.includes('\uFFFD'))
			this.damage = `the row holds bytes that are not valid ${ENCODING_NAMES[this.encoding]} (read as "\uFFFD"), so it was not sent${
				this.encoding === 'utf-8'
					? '. If the file is Windows-1252 (Excel\'s "CSV (Comma delimited)"), set Encoding to Windows-1252'
					: ''
			}`;
		return text;
	}
}

function singleByte(encoding: FileEncoding): boolean {
	return encoding === 'windows-1252' || encoding === 'iso-8859-1';
}

/**
 * Bytes 0x80 to 0x9F in Windows-1252; the five it leaves undefined are U+FFFD, so that their rows
 * are reported. Read by hand: Node's own TextDecoder('windows-1252') reads these bytes as
 * ISO-8859-1's control codes in some versions (Node 20), and WHATWG reads ISO-8859-1 as
 * Windows-1252, as this does.
 */
const CP1252_HIGH =
	'\u20AC\uFFFD\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\uFFFD\u017D\uFFFD' +
	'\uFFFD\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\uFFFD\u017E\u0178';

function windows1252(bytes: Uint8Array): string {
	const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
	return latin1.replace(/[\u0080-\u009F]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
}

function byteOrderMark(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
	if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
	if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
	if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
	return undefined;
}

/** UTF-16 without a byte order mark: plain letters make every other byte zero. */
function utf16WithoutBom(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
	let even = 0;
	let odd = 0;
	for (let i = 0; i < head.length; i++) {
		if (head[i] !== 0) continue;
		if (i % 2) odd++;
		else even++;
	}
	if (even + odd === 0 || even + odd < head.length / 8) return undefined;
	return odd > even ? 'utf-16le' : 'utf-16be';
}

/** The offset of the first byte that is not UTF-8, or undefined; `more`: the head may end inside a character. */
function firstInvalidUtf8(head: Uint8Array, more: boolean): number | undefined {
	const fails = (length: number) => {
		try {
			new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, length), {
				stream: more || length < head.length,
			});
			return false;
		} catch {
			return true;
		}
	};
	if (!fails(head.length)) return undefined;
	// the shortest prefix that fails ends with the first invalid byte
	let low = 0;
	let high = head.length;
	while (low + 1 < high) {
		const middle = (low + high) >>> 1;
		if (fails(middle)) high = middle;
		else low = middle;
	}
	// the decoder fails at the byte that breaks a sequence: the sequence starts at its lead byte
	const at = high - 1;
	if (head[at] < 0x80 || head[at] >= 0xc0) {
		let lead = at - 1;
		while (lead > 0 && head[lead] >= 0x80 && head[lead] < 0xc0) lead--;
		if (lead >= 0 && head[lead] >= 0xc0) return lead;
	}
	return at;
}

function lineOf(bytes: Uint8Array, offset: number): number {
	let line = 1;
	for (let i = 0; i < offset; i++) if (bytes[i] === 10) line++;
	return line;
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
	if (pieces.length === 1) return pieces[0];
	const bytes = new Uint8Array(length);
	let at = 0;
	for (const piece of pieces) {
		bytes.set(piece, at);
		at += piece.length;
	}
	return bytes;
}

// ---------------------------------------------------------------------------------------------
// Records

interface RowParser {
	/** The records completed by this text; `damage`: the reason to report rows holding U+FFFD. */
	push(text: string, damage: string | undefined): FileRecord[];
	/** The last record, once the file has ended. */
	end(): FileRecord[];
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

function rowTooLong(row: number, max: number, why: string): FileReadError {
	return new FileReadError(
		`Row ${row} of the file is longer than ${max.toLocaleString('en-US')} characters`,
		`A row may hold at most ${max.toLocaleString('en-US')} characters (1 MiB); no event or contact needs more. ${why}`,
		row,
	);
}

type CsvState = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterCr';

/**
 * CSV as RFC 4180 writes it, read leniently where spreadsheets differ from it: records end with
 * CRLF, LF or CR; a quoted field may hold delimiters, doubled quotes and line breaks; the first
 * record is the header. A record with more fields than the header, or text after a closing quote,
 * is reported on its row (nothing of it is guessed); a record with fewer fields lacks the missing
 * ones; blank lines are skipped but keep their row number.
 */
class CsvParser implements RowParser {
	private readonly delimiter: number;
	private state: CsvState = 'fieldStart';
	private field = '';
	private record: string[] = [];
	private recordLength = 0;
	private recordError?: string;
	/** Row number of the record being read; rows are counted by records, from the header's 1. */
	private row = 1;
	/** The header's first column of each name, in order: [position, name]. */
	private columns?: Array<[number, string]>;
	private headerLength = 0;
	private out: FileRecord[] = [];
	private damage?: string;

	constructor(
		delimiter: string,
		private readonly max: number,
		private readonly onHeader?: (columns: string[]) => void,
	) {
		if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r')
			throw new FileReadError(
				`The delimiter must be one character other than a quote or a line break (got "${delimiter}")`,
				'Choose comma, semicolon, tab or pipe.',
			);
		this.delimiter = delimiter.charCodeAt(0);
	}

	push(text: string, damage: string | undefined): FileRecord[] {
		this.damage = damage;
		const { delimiter } = this;
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (this.state === 'afterCr') {
				this.state = 'fieldStart';
				// CRLF is one line break; a lone CR ended the record and this character starts the next
				if (code === LF) continue;
			}
			if (this.state === 'quoted') {
				const close = text.indexOf('"', i);
				this.append(text, i, close === -1 ? text.length : close);
				if (close === -1) break;
				i = close;
				this.state = 'quoteInQuoted';
				continue;
			}
			if (this.state === 'quoteInQuoted') {
				if (code === QUOTE) {
					this.append('"', 0, 1);
					this.state = 'quoted';
					continue;
				}
				if (code === delimiter || code === LF || code === CR) {
					this.endOfField(code);
					continue;
				}
				// `"ab"c`: RFC 4180 has no reading for it; the row is reported, not guessed
				this.recordError ??=
					'a quoted field must end at a delimiter or a line break (a quote inside a field is written "")';
				this.state = 'unquoted';
			} else if (this.state === 'fieldStart') {
				if (code === QUOTE) {
					this.state = 'quoted';
					continue;
				}
				this.state = 'unquoted';
			}
			// unquoted, the common case: jump to the end of the field
			let end = i;
			while (end < text.length) {
				const c = text.charCodeAt(end);
				if (c === delimiter || c === LF || c === CR) break;
				end++;
			}
			this.append(text, i, end);
			i = end;
			if (end < text.length) this.endOfField(text.charCodeAt(end));
		}
		const done = this.out;
		this.out = [];
		return done;
	}

	end(): FileRecord[] {
		if (this.state === 'quoted') {
			this.recordError = 'a quoted field is not closed before the end of the file';
			this.finishRecord();
		} else if (this.state !== 'fieldStart' && this.state !== 'afterCr') {
			this.finishField();
			this.finishRecord();
		} else if (this.record.length) {
			// the file ended right after a delimiter: the last field is empty
			this.finishField();
			this.finishRecord();
		}
		if (!this.columns) this.out.push({ row: 1, error: 'the file has no header row' });
		const done = this.out;
		this.out = [];
		return done;
	}

	/** Adds text[from, to) to the field, counting it against the row's cap as it comes. */
	private append(text: string, from: number, to: number): void {
		this.recordLength += to - from;
		if (this.recordLength > this.max) {
			throw rowTooLong(
				this.row,
				this.max,
				this.state === 'quoted'
					? `A quote opened in this row is not closed, so the rest of the file reads as one field: check the row's quotes (a quote inside a field is written "").`
					: `It has no line break (LF, CRLF or CR) within that length: the file may not be a CSV file.`,
			);
		}
		this.field += from === 0 && to === text.length ? text : text.slice(from, to);
	}

	private endOfField(code: number): void {
		this.finishField();
		if (code === this.delimiter) {
			this.state = 'fieldStart';
			return;
		}
		this.finishRecord();
		this.state = code === CR ? 'afterCr' : 'fieldStart';
	}

	private finishField(): void {
		this.record.push(this.field);
		this.field = '';
		// a delimiter counts against the cap too: a row of a million empty fields is not a row
		this.recordLength++;
	}

	private finishRecord(): void {
		const { record, row } = this;
		const error = this.recordError;
		this.record = [];
		this.recordLength = 0;
		this.recordError = undefined;
		this.row++;
		const blank = record.length === 1 && record[0] === '' && !error;
		if (!this.columns) {
			if (blank) return;
			this.readHeader(record, row, error);
			return;
		}
		if (blank) return;
		if (error) {
			this.out.push({ row, error });
			return;
		}
		if (record.length > this.headerLength) {
			this.out.push({
				row,
				error: `the row has ${record.length} fields, the header ${this.headerLength}`,
			});
			return;
		}
		if (this.damage !== undefined && record.some((field) => field.includes('\uFFFD'))) {
			this.out.push({ row, error: this.damage });
			return;
		}
		// only the fields the row has: a row's cost is its own length, not the header's
		const fields = Object.create(null) as Record<string, unknown>;
		for (const [position, name] of this.columns) {
			if (position >= record.length) break;
			fields[name] = record[position];
		}
		this.out.push({ row, fields });
	}

	private readHeader(record: string[], row: number, error: string | undefined): void {
		const names = record.map((name) => name.trim());
		const seen = new Set<string>();
		this.columns = [];
		for (const [position, name] of names.entries()) {
			if (name === '' || seen.has(name)) continue;
			seen.add(name);
			this.columns.push([position, name]);
		}
		this.headerLength = names.length;
		if (error) this.out.push({ row, error: `the header row cannot be read: ${error}` });
		this.onHeader?.(names);
	}
}

/** NDJSON: one JSON object per line (LF or CRLF); blank lines are skipped but keep their number. */
class NdjsonParser implements RowParser {
	/** The start of the line being read, from earlier pieces (at most `max` characters). */
	private rest = '';
	private row = 0;
	private damage?: string;

	constructor(private readonly max: number) {}

	push(text: string, damage: string | undefined): FileRecord[] {
		this.damage = damage;
		const out: FileRecord[] = [];
		let start = 0;
		for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
			const line = this.rest + text.slice(start, end);
			this.rest = '';
			this.checkLength(line.length);
			const record = this.record(line);
			if (record) out.push(record);
			start = end + 1;
		}
		if (start < text.length) {
			this.checkLength(this.rest.length + text.length - start);
			this.rest += text.slice(start);
		}
		return out;
	}

	end(): FileRecord[] {
		const last = this.rest;
		this.rest = '';
		const record = last === '' ? undefined : this.record(last);
		return record ? [record] : [];
	}

	private checkLength(length: number): void {
		if (length > this.max)
			throw rowTooLong(
				this.row + 1,
				this.max,
				'NDJSON holds one JSON object per line: a JSON document written on one line (a JSON array, minified JSON) is not NDJSON.',
			);
	}

	private record(line: string): FileRecord | undefined {
		const row = ++this.row;
		const text = line.endsWith('\r') ? line.slice(0, -1) : line;
		if (text.trim() === '') return undefined;
		if (this.damage !== undefined && text.includes('\uFFFD')) return { row, error: this.damage };
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch (error) {
			return { row, error: `the line is not valid JSON: ${(error as Error).message}` };
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			return { row, error: 'the line must hold one JSON object' };
		return { row, fields: value as Record<string, unknown> };
	}
}
