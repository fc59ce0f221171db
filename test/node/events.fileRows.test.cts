import {
	CsvParser,
	NdjsonParser,
	recordsOf,
	type FileRecord,
	type RowParser,
} from '../../nodes/VoiceAgentCrm/actions/event/file/rows';
import { randomSource as random } from '../trigger/simulation.cts';

async function parse(bytes: Uint8Array, parser: RowParser, cuts: number[] = []) {
	const pieces: Uint8Array[] = [];
	let from = 0;
	for (const cut of [...cuts].sort((a, b) => a - b)) {
		pieces.push(bytes.subarray(from, cut));
		from = cut;
	}
	pieces.push(bytes.subarray(from));
	const records: FileRecord[] = [];
	for await (const record of recordsOf(pieces, parser)) records.push(record);
	return records;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const csv = (text: string, delimiter = ',') => parse(utf8(text), new CsvParser(delimiter));

describe('CSV rows (RFC 4180)', () => {
	it('reads a header and rows, the header as row 1', async () => {
		expect(await csv('event_name,email\nSignup,a@example.com\r\nPurchase,b@example.com\n')).toEqual(
			[
				{ row: 2, fields: { event_name: 'Signup', email: 'a@example.com' } },
				{ row: 3, fields: { event_name: 'Purchase', email: 'b@example.com' } },
			],
		);
	});

	it('reads quoted fields with delimiters, doubled quotes and line breaks; a record spanning lines is one row', async () => {
		const text = 'a,b,c\n"x, y","say ""hi""","line 1\r\nline 2"\nlast,"",\n';
		expect(await csv(text)).toEqual([
			{ row: 2, fields: { a: 'x, y', b: 'say "hi"', c: 'line 1\r\nline 2' } },
			{ row: 3, fields: { a: 'last', b: '', c: '' } },
		]);
	});

	it('drops a byte order mark, reads a chosen delimiter, and CR alone as a line break', async () => {
		expect(await csv('\uFEFFname;value\rA;1\rB;"2;3"', ';')).toEqual([
			{ row: 2, fields: { name: 'A', value: '1' } },
			{ row: 3, fields: { name: 'B', value: '2;3' } },
		]);
		expect(await csv('name\tvalue\nA\t1\n', '\t')).toEqual([
			{ row: 2, fields: { name: 'A', value: '1' } },
		]);
	});

	it('skips blank lines but keeps their row numbers; fewer fields than the header read as empty', async () => {
		expect(await csv('a,b\n\n1,2\n\n3\n')).toEqual([
			{ row: 3, fields: { a: '1', b: '2' } },
			{ row: 5, fields: { a: '3', b: '' } },
		]);
	});

	it('reports a row with more fields than the header, text after a closing quote, and a quote left open, each on its row', async () => {
		expect(await csv('a,b\n1,2,3\n"x"y,2\nok,1\n"open,2\nmore\n')).toEqual([
			{ row: 2, error: 'the row has 3 fields, the header 2' },
			{
				row: 3,
				error:
					'a quoted field must end at a delimiter or a line break (a quote inside a field is written "")',
			},
			{ row: 4, fields: { a: 'ok', b: '1' } },
			{ row: 5, error: 'a quoted field is not closed before the end of the file' },
		]);
	});

	it('reports a file without a header row', async () => {
		expect(await csv('')).toEqual([{ row: 1, error: 'the file has no header row' }]);
		expect(await csv('\n\n')).toEqual([{ row: 1, error: 'the file has no header row' }]);
	});

	it('refuses a delimiter that cannot separate fields', () => {
		expect(() => new CsvParser('"')).toThrow('one character other than a quote or a line break');
		expect(() => new CsvParser(',,')).toThrow('one character');
	});

	it('reads UTF-8 characters split between two pieces of the stream', async () => {
		const bytes = utf8('name\nCafé 😀 Ü\n');
		for (let cut = 1; cut < bytes.length; cut++) {
			expect(await parse(bytes, new CsvParser(), [cut])).toEqual([
				{ row: 2, fields: { name: 'Café 😀 Ü' } },
			]);
		}
	});

	/**
	 * Property: any table written as RFC 4180 allows (random fields of quotes, delimiters, CR, LF,
	 * tabs, spaces and non-ASCII; quoted when needed or by chance; CRLF or LF; with or without BOM
	 * and a last line break), cut into random byte pieces, reads back as exactly that table.
	 */
	it('reads back any table written as RFC 4180, cut anywhere (fuzzed, 400 cases)', async () => {
		const alphabet = [
			'a',
			'b',
			'Z',
			'1',
			' ',
			',',
			';',
			'\t',
			'|',
			'"',
			'\r',
			'\n',
			'é',
			'😀',
			'ß',
		];
		for (let seed = 1; seed <= 400; seed++) {
			const next = random(seed);
			const pick = <T,>(list: T[]) => list[Math.floor(next() * list.length)];
			const delimiter = pick([',', ';', '\t', '|']);
			const columns = 1 + Math.floor(next() * 5);
			const header = Array.from({ length: columns }, (_, i) => `col${i}`);
			const value = () =>
				Array.from({ length: Math.floor(next() * 8) }, () => pick(alphabet)).join('');
			const rows = Array.from({ length: Math.floor(next() * 12) }, () =>
				Array.from({ length: columns }, value),
			);
			// a one-column row that is empty is a blank line: not a row
			const table = rows.filter((row) => !(columns === 1 && row[0] === ''));
			const encode = (field: string) =>
				/["\r\n]/.test(field) || field.includes(delimiter) || next() < 0.2
					? `"${field.replace(/"/g, '""')}"`
					: field;
			const newline = pick(['\r\n', '\n']);
			const text =
				(next() < 0.5 ? '\uFEFF' : '') +
				[header, ...table].map((row) => row.map(encode).join(delimiter)).join(newline) +
				(next() < 0.5 ? newline : '');
			const bytes = utf8(text);
			const cuts = Array.from({ length: Math.floor(next() * 6) }, () =>
				Math.floor(next() * bytes.length),
			);
			const expected = table.map((row, index) => ({
				row: index + 2,
				fields: Object.fromEntries(header.map((name, i) => [name, row[i]])),
			}));
			const got = await parse(bytes, new CsvParser(delimiter), cuts);
			if (JSON.stringify(got) !== JSON.stringify(expected))
				throw new Error(`seed ${seed}: ${JSON.stringify(text)} read as ${JSON.stringify(got)}`);
		}
	});
});

describe('NDJSON rows', () => {
	const ndjson = (text: string, cuts: number[] = []) => parse(utf8(text), new NdjsonParser(), cuts);

	it('reads one object per line, LF or CRLF, numbered by line; blank lines skipped; no last line break needed', async () => {
		expect(await ndjson('{"a":1}\r\n\n{"a":"x,\\"y\\"\\n"}\n{"a":3}')).toEqual([
			{ row: 1, fields: { a: 1 } },
			{ row: 3, fields: { a: 'x,"y"\n' } },
			{ row: 4, fields: { a: 3 } },
		]);
	});

	it('reports a line that is not JSON or not an object, on its line', async () => {
		const records = await ndjson('{"a":1}\n{"a":\n[1]\n"text"\n{"a":2}\n');
		expect(records.map((r) => [r.row, r.error === undefined])).toEqual([
			[1, true],
			[2, false],
			[3, false],
			[4, false],
			[5, true],
		]);
		expect(records[1].error).toMatch(/^the line is not valid JSON/);
		expect(records[2].error).toBe('the line must hold one JSON object');
	});

	it('reads back random objects with a BOM, cut anywhere (fuzzed, 200 cases)', async () => {
		for (let seed = 1; seed <= 200; seed++) {
			const next = random(seed);
			const objects = Array.from({ length: Math.floor(next() * 10) }, (_, i) => ({
				i,
				text: Array.from(
					{ length: Math.floor(next() * 6) },
					() => ['a', '"', '\n', '\r', ',', 'é', '😀', '\\'][Math.floor(next() * 8)],
				).join(''),
			}));
			const newline = next() < 0.5 ? '\r\n' : '\n';
			const bytes = utf8(
				(next() < 0.5 ? '\uFEFF' : '') + objects.map((o) => JSON.stringify(o)).join(newline),
			);
			const cuts = Array.from({ length: 4 }, () => Math.floor(next() * bytes.length));
			const got = await ndjson(new TextDecoder().decode(bytes, { stream: false }), []);
			const cutUp = await parse(bytes, new NdjsonParser(), cuts);
			expect(cutUp).toEqual(got);
			expect(cutUp).toEqual(objects.map((fields, index) => ({ row: index + 1, fields })));
		}
	});
});
