import {
	likelyDelimiter,
	readRecords,
	type FileRecord,
	type ReadOptions,
} from '../../nodes/VoiceAgentCrm/shared/fileRows';
import { randomSource as random } from '../trigger/simulation.cts';

async function parse(bytes: Uint8Array, options: ReadOptions, cuts: number[] = []) {
	const pieces: Uint8Array[] = [];
	let from = 0;
	for (const cut of [...cuts].sort((a, b) => a - b)) {
		pieces.push(bytes.subarray(from, cut));
		from = cut;
	}
	pieces.push(bytes.subarray(from));
	const records: FileRecord[] = [];
	for await (const record of readRecords(pieces, options)) records.push(record);
	return records;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const CSV = (delimiter = ','): ReadOptions => ({ format: 'csv', delimiter });
const csv = (text: string, delimiter = ',') => parse(utf8(text), CSV(delimiter));

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

	it('skips blank lines but keeps their row numbers; fewer fields than the header lack the others', async () => {
		const records = await csv('a,b\n\n1,2\n\n3\n');
		expect(records).toEqual([
			{ row: 3, fields: { a: '1', b: '2' } },
			{ row: 5, fields: { a: '3' } },
		]);
		expect('b' in records[1].fields!).toBe(false);
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

	it('refuses a delimiter that cannot separate fields', async () => {
		await expect(csv('a\n', '"')).rejects.toThrow(
			'one character other than a quote or a line break',
		);
		await expect(csv('a\n', ',,')).rejects.toThrow('one character');
	});

	it('reads UTF-8 characters split between two pieces of the stream', async () => {
		const bytes = utf8('name\nCafé 😀 Ü\n');
		for (let cut = 1; cut < bytes.length; cut++) {
			expect(await parse(bytes, CSV(), [cut])).toEqual([{ row: 2, fields: { name: 'Café 😀 Ü' } }]);
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
			const got = await parse(bytes, CSV(delimiter), cuts);
			if (JSON.stringify(got) !== JSON.stringify(expected))
				throw new Error(`seed ${seed}: ${JSON.stringify(text)} read as ${JSON.stringify(got)}`);
		}
	});
});

const NDJSON: ReadOptions = { format: 'ndjson' };

describe('NDJSON rows', () => {
	const ndjson = (text: string, cuts: number[] = []) => parse(utf8(text), NDJSON, cuts);

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
			const cutUp = await parse(bytes, NDJSON, cuts);
			expect(cutUp).toEqual(got);
			expect(cutUp).toEqual(objects.map((fields, index) => ({ row: index + 1, fields })));
		}
	});
});

describe('Encodings', () => {
	const rows = (bytes: Uint8Array, options: Partial<ReadOptions> = {}, cuts: number[] = []) =>
		parse(bytes, { format: 'csv', ...options }, cuts);
	const CP1252 = Buffer.from(
		'name,email\nZo\xEB Mu\xF1oz,jos\xE9@example.com\nCaf\xE9 \x80,c@example.com\n',
		'latin1',
	);

	it('Auto-Detect refuses a Windows-1252 file, naming the byte, its line, the encoding it looks like and the option', async () => {
		const refused = rows(CP1252);
		await expect(refused).rejects.toMatchObject({
			name: 'FileReadError',
			message: 'The file is not UTF-8: it looks like Windows-1252',
			row: 2,
		});
		await expect(rows(CP1252)).rejects.toHaveProperty(
			'description',
			expect.stringContaining('Byte 0xEB on line 2 is not valid UTF-8 (in Windows-1252 it is "ë")'),
		);
		await expect(rows(CP1252)).rejects.toHaveProperty(
			'description',
			expect.stringContaining('Set Encoding to Windows-1252'),
		);
	});

	it('reads Windows-1252 and ISO-8859-1 when chosen, cut anywhere', async () => {
		const expected = [
			{ row: 2, fields: { name: 'Zoë Muñoz', email: 'josé@example.com' } },
			{ row: 3, fields: { name: 'Café €', email: 'c@example.com' } },
		];
		for (const encoding of ['windows-1252', 'iso-8859-1'] as const)
			for (let cut = 0; cut < CP1252.length; cut += 7)
				expect(await rows(CP1252, { encoding }, [cut])).toEqual(expected);
	});

	it('reports on its row a byte Windows-1252 leaves undefined, and sends the others', async () => {
		const bytes = Buffer.from('name\nok\nbad \x81 byte\n', 'latin1');
		expect(await rows(bytes, { encoding: 'windows-1252' })).toEqual([
			{ row: 2, fields: { name: 'ok' } },
			{ row: 3, error: expect.stringContaining('not valid Windows-1252') },
		]);
	});

	it('honours UTF-16 LE and BE byte order marks under Auto-Detect and any choice, cut anywhere', async () => {
		const text = 'event_name,name\nSignup,Zoë 😀\n';
		const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
		const be = Buffer.from(le);
		be.swap16();
		for (const bytes of [le, be])
			for (const encoding of ['auto', 'utf-8', 'windows-1252'] as const)
				for (let cut = 0; cut < bytes.length; cut += 5)
					expect(await rows(bytes, { encoding }, [cut])).toEqual([
						{ row: 2, fields: { event_name: 'Signup', name: 'Zoë 😀' } },
					]);
	});

	it('Auto-Detect refuses UTF-16 without a byte order mark, naming it; reads it when chosen', async () => {
		const bytes = Buffer.from('event_name,email\nSignup,a@example.com\n', 'utf16le');
		await expect(rows(bytes)).rejects.toThrow(
			'The file looks like UTF-16 LE without a byte order mark',
		);
		expect(await rows(bytes, { encoding: 'utf-16le' })).toEqual([
			{ row: 2, fields: { event_name: 'Signup', email: 'a@example.com' } },
		]);
	});

	it('a UTF-8 file with bytes that are not UTF-8 past the first 64 KiB: those rows reported, the others read', async () => {
		const filler = Array.from({ length: 2000 }, (_, i) => `row ${i} ${'x'.repeat(40)}`);
		const bytes = Buffer.concat([
			Buffer.from(`name\n${filler.join('\n')}\n`),
			Buffer.from('Zo\xEB\n', 'latin1'),
			Buffer.from('Zoë\n'),
		]);
		const records = await rows(bytes, {}, [70_000, 100_001]);
		expect(records).toHaveLength(2002);
		expect(records[2000]).toEqual({
			row: 2002,
			error: expect.stringContaining(
				'the row holds bytes that are not valid UTF-8 (read as "\uFFFD"), so it was not sent. If the file is Windows-1252',
			),
		});
		expect(records[2001]).toEqual({ row: 2003, fields: { name: 'Zoë' } });
	});

	it('a chosen UTF-8 reads a BOM-less file with a bad byte and reports its row (no refusal)', async () => {
		const bytes = Buffer.from('name\nZo\xEB\nAna\n', 'latin1');
		expect(await rows(bytes, { encoding: 'utf-8' })).toEqual([
			{ row: 2, error: expect.stringContaining('not valid UTF-8') },
			{ row: 3, fields: { name: 'Ana' } },
		]);
	});
});

describe('Bounded rows', () => {
	const MiB = 1_048_576;
	/** `size` bytes given in 64 KiB pieces made on the fly: the reader, not the test, holds what it holds. */
	function* generated(head: string, size: number, fill: number) {
		yield Buffer.from(head);
		const piece = Buffer.alloc(65_536, fill);
		for (let sent = 0; sent < size; sent += piece.length) yield piece;
	}
	const first = async (pieces: Iterable<Uint8Array>, options: ReadOptions) => {
		const records: FileRecord[] = [];
		for await (const record of readRecords(pieces, options)) records.push(record);
		return records;
	};

	it('a 50 MB NDJSON line fails at 1 MiB, naming its line, after the lines before it were read', async () => {
		let read = 0;
		const pieces = (function* () {
			for (const piece of generated('{"a":1}\n{"a":"', 50_000_000, 0x61)) {
				read += piece.length;
				yield piece;
			}
		})();
		await expect(first(pieces, { format: 'ndjson' })).rejects.toMatchObject({
			message: 'Row 2 of the file is longer than 1,048,576 characters',
			row: 2,
			description: expect.stringContaining('a JSON document written on one line'),
		});
		// fails fast: it stopped reading right past the cap, not at the end of the 50 MB
		expect(read).toBeLessThan(MiB + 2 * 65_536);
	});

	it('a 50 MB CSV without a line break fails at 1 MiB naming row 1; a quote never closed names its row', async () => {
		let read = 0;
		const counted = (pieces: Iterable<Uint8Array>) =>
			(function* () {
				for (const piece of pieces) {
					read += piece.length;
					yield piece;
				}
			})();
		await expect(
			first(counted(generated('', 50_000_000, 0x61)), { format: 'csv' }),
		).rejects.toMatchObject({
			message: 'Row 1 of the file is longer than 1,048,576 characters',
			description: expect.stringContaining('no line break'),
		});
		expect(read).toBeLessThan(MiB + 2 * 65_536);
		await expect(
			first(generated('a,b\n1,2\n3,"open', 5_000_000, 0x0a), { format: 'csv' }),
		).rejects.toMatchObject({
			row: 3,
			description: expect.stringContaining('A quote opened in this row is not closed'),
		});
	});

	it('a row of a million empty fields counts against the cap; a row just under it is read', async () => {
		await expect(first(generated('a\n', 2 * MiB, 0x2c), { format: 'csv' })).rejects.toMatchObject({
			row: 2,
		});
		const long = 'x'.repeat(1000);
		expect(
			await first([Buffer.from(`a\n${long}\n`)], { format: 'csv', maxRowCharacters: 1000 }),
		).toEqual([{ row: 2, fields: { a: long } }]);
		await expect(
			first([Buffer.from(`a\n${long}x\n`)], { format: 'csv', maxRowCharacters: 1000 }),
		).rejects.toMatchObject({ row: 2 });
	});
});

describe('Columns', () => {
	it('reads columns named like Object.prototype members as ordinary columns', async () => {
		const [record] = await csv(
			'constructor,toString,valueOf,__proto__,hasOwnProperty\na,b,c,d,e\n',
		);
		expect(Object.getPrototypeOf(record.fields)).toBeNull();
		expect({ ...record.fields }).toEqual({
			constructor: 'a',
			toString: 'b',
			valueOf: 'c',
			['__proto__']: 'd',
			hasOwnProperty: 'e',
		});
	});

	it('gives the header to onHeader before any record, and a guess at the delimiter it was written with', async () => {
		const seen: string[][] = [];
		await parse(utf8('event;email\nSignup;a@example.com\n'), {
			format: 'csv',
			onHeader: (names) => seen.push(names),
		});
		expect(seen).toEqual([['event;email']]);
		expect(likelyDelimiter(['event;email'], ',')).toBe(';');
		expect(likelyDelimiter(['a;b', 'c;d'], ',')).toBe(';');
		expect(likelyDelimiter(['event\temail'], ',')).toBe('\t');
		expect(likelyDelimiter(['event', 'email'], ',')).toBeUndefined();
		expect(likelyDelimiter(['only'], ',')).toBeUndefined();
	});
});
