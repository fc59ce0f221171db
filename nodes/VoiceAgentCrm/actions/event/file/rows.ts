/**
 * The rows of a CSV (RFC 4180) or NDJSON file, read from text given in pieces of any size: a
 * piece may end anywhere, inside a quoted field, between CR and LF or in the middle of a line.
 * Nothing here knows about events or n8n; each parser is fed text and gives back the records it
 * completed, so a file is never held whole.
 *
 * Written by hand: community nodes may have no runtime dependencies and n8n gives nodes no CSV
 * parser (docs/decisions.md, "Event → Send from a file").
 */

/** One record of the file: its row number and its fields, or why it cannot be read. */
export interface FileRecord {
	/** As a spreadsheet shows it for CSV (the header is row 1), the line number for NDJSON. */
	row: number;
	fields?: Record<string, unknown>;
	error?: string;
}

export interface RowParser {
	/** The records completed by this piece of text. */
	push(text: string): FileRecord[];
	/** The last record, once the file has ended. */
	end(): FileRecord[];
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

type CsvState = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterCr';

/**
 * CSV as RFC 4180 writes it, read leniently where spreadsheets differ from it: records end with
 * CRLF, LF or CR; a quoted field may hold delimiters, doubled quotes and line breaks; the first
 * record is the header. A record with more fields than the header, or text after a closing quote,
 * is reported on its row (nothing of it is guessed); a record with fewer fields has the missing
 * ones empty; blank lines are skipped but keep their row number.
 */
export class CsvParser implements RowParser {
	private readonly delimiter: number;
	private state: CsvState = 'fieldStart';
	private field = '';
	private record: string[] = [];
	private recordError?: string;
	/** Row number of the record being read; rows are counted by records, from the header's 1. */
	private row = 1;
	private header?: string[];
	private out: FileRecord[] = [];

	constructor(delimiter = ',') {
		if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r')
			throw new Error(
				`The delimiter must be one character other than a quote or a line break (got "${delimiter}")`,
			);
		this.delimiter = delimiter.charCodeAt(0);
	}

	push(text: string): FileRecord[] {
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
				this.field += text.slice(i, close === -1 ? text.length : close);
				if (close === -1) break;
				i = close;
				this.state = 'quoteInQuoted';
				continue;
			}
			if (this.state === 'quoteInQuoted') {
				if (code === QUOTE) {
					this.field += '"';
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
			this.field += text.slice(i, end);
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
		if (!this.header) this.out.push({ row: 1, error: 'the file has no header row' });
		const done = this.out;
		this.out = [];
		return done;
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
	}

	private finishRecord(): void {
		const { record, row } = this;
		const error = this.recordError;
		this.record = [];
		this.recordError = undefined;
		this.row++;
		const blank = record.length === 1 && record[0] === '' && !error;
		if (!this.header) {
			if (blank) return;
			this.header = record.map((name) => name.trim());
			if (error) this.out.push({ row, error: `the header row cannot be read: ${error}` });
			return;
		}
		if (blank) return;
		if (error) {
			this.out.push({ row, error });
			return;
		}
		if (record.length > this.header.length) {
			this.out.push({
				row,
				error: `the row has ${record.length} fields, the header ${this.header.length}`,
			});
			return;
		}
		const fields: Record<string, unknown> = {};
		for (const [position, name] of this.header.entries()) {
			if (name !== '' && !(name in fields)) fields[name] = record[position] ?? '';
		}
		this.out.push({ row, fields });
	}
}

/** NDJSON: one JSON object per line (LF or CRLF); blank lines are skipped but keep their number. */
export class NdjsonParser implements RowParser {
	private rest = '';
	private row = 0;

	push(text: string): FileRecord[] {
		const lines = (this.rest + text).split('\n');
		this.rest = lines.pop() ?? '';
		return lines.flatMap((line) => this.record(line));
	}

	end(): FileRecord[] {
		const last = this.rest;
		this.rest = '';
		return last === '' ? [] : this.record(last);
	}

	private record(line: string): FileRecord[] {
		const row = ++this.row;
		const text = line.endsWith('\r') ? line.slice(0, -1) : line;
		if (text.trim() === '') return [];
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch (error) {
			return [{ row, error: `the line is not valid JSON: ${(error as Error).message}` }];
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			return [{ row, error: 'the line must hold one JSON object' }];
		return [{ row, fields: value as Record<string, unknown> }];
	}
}

export type FileFormat = 'csv' | 'ndjson';

export function parserFor(format: FileFormat, delimiter: string): RowParser {
	return format === 'csv' ? new CsvParser(delimiter) : new NdjsonParser();
}

/**
 * The records of a file given as byte pieces (a stream's chunks): UTF-8 decoded across piece
 * boundaries, a leading byte order mark dropped.
 */
export async function* recordsOf(
	pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
	parser: RowParser,
): AsyncGenerator<FileRecord> {
	// fatal: false: a byte that is not UTF-8 becomes U+FFFD in its field, not a failed file
	const decoder = new TextDecoder('utf-8');
	for await (const piece of pieces) {
		yield* parser.push(decoder.decode(piece, { stream: true }));
	}
	yield* parser.push(decoder.decode());
	yield* parser.end();
}
