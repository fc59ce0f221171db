import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { sendFields } from '../../nodes/VoiceAgentCrm/actions/event/send.fields';
import { contactByEmail } from '../../simulator/index.cts';
import { eventFileBench, fileItem } from './eventFiles.cts';

/** Files as people have them (issue 31): other encodings, long lines, re-exports, odd headers. */

describe('Event → Send: files as people have them', () => {
	const { sim, posts, run, storedWith: storedFor } = eventFileBench();
	const hintsOf = (execution: Awaited<ReturnType<typeof run>>['run']) =>
		execution.data.resultData.runData['Voice Agent CRM'][0].hints ?? [];

	describe('encodings', () => {
		// what Excel on Windows saves as "CSV (Comma delimited)"
		const cp1252 = Buffer.from(
			'event_name,email,name\r\nSignup,jos\xE9@example.com,Zo\xEB Mu\xF1oz\r\n',
			'latin1',
		);

		it('Auto-Detect refuses a Windows-1252 CSV before any request, naming the encoding and the option', async () => {
			const before = posts();
			const { error } = await run(fileItem(cp1252));
			expect(error?.message).toBe('The file is not UTF-8: it looks like Windows-1252');
			expect(error?.description).toContain(
				'Byte 0xE9 on line 2 is not valid UTF-8 (in Windows-1252 it is "é")',
			);
			expect(error?.description).toContain('Set Encoding to Windows-1252');
			expect(error?.description).toContain('Nothing was sent.');
			expect(posts()).toBe(before);
		});

		it('with Encoding Windows-1252 it stores "Zoë Muñoz" and josé@example.com as written', async () => {
			const { items, error } = await run(fileItem(cp1252), {
				fileOptions: { encoding: 'windows-1252' },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.summary).toMatchObject({ rows_read: 1, created: 1 });
			expect(contactByEmail(sim().org, 'josé@example.com').full_name).toBe('Zoë Muñoz');
		});

		it('reads UTF-16 LE and BE with a byte order mark (Excel\'s "Unicode Text") under Auto-Detect', async () => {
			const text = 'event_name\temail\tname\r\nSignup\tutf16-le@example.com\tZoë 😀\r\n';
			const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
			const be = Buffer.from(le.toString('utf16le').replace('le@', 'be@'), 'utf16le').swap16();
			for (const bytes of [le, be]) {
				const { items, error } = await run(fileItem(bytes), { csvDelimiter: '\t' });
				expect(error).toBeUndefined();
				expect(items[0].json.summary).toMatchObject({ rows_read: 1, created: 1 });
			}
			expect(contactByEmail(sim().org, 'utf16-le@example.com').full_name).toBe('Zoë 😀');
			expect(contactByEmail(sim().org, 'utf16-be@example.com').full_name).toBe('Zoë 😀');
		});

		it('bytes that are not UTF-8 in the middle of a file: that row is reported, every other row stored', async () => {
			const lines = Array.from(
				{ length: 1200 },
				(_, i) => `Signup,mid-${i}@example.com,Person number ${i} of the file`,
			);
			const bytes = Buffer.concat([
				Buffer.from(`event_name,email,name\n${lines.join('\n')}\n`),
				Buffer.from('Signup,mid-bad@example.com,Zo\xEB\n', 'latin1'),
				Buffer.from('Signup,mid-last@example.com,Zoë\n'),
			]);
			const { items, error } = await run(fileItem(bytes));
			expect(error).toBeUndefined();
			expect(items[0].json.summary).toMatchObject({ rows_read: 1202, created: 1201, invalid: 1 });
			expect(items[0].json.not_accepted).toEqual([
				{
					row: 1202,
					status: 'invalid',
					reason: expect.stringContaining('the row holds bytes that are not valid UTF-8'),
				},
			]);
			expect(storedFor('mid-bad')).toHaveLength(0);
			expect(contactByEmail(sim().org, 'mid-last@example.com').full_name).toBe('Zoë');
		});
	});

	// the 50 MB cases, and that reading stops right past the cap, are tested on the reader
	// (events.fileRows.test.cts) and measured in bench/fileRows.bench.cts: here, the node's wording,
	// with 8 MB (the harness carries a file as base64 in the execution data, and scans it for the key)
	describe('rows past 1 MiB', () => {
		it('an 8 MB NDJSON line stops the run at its row, after the rows before it, with the row to go on from', async () => {
			const before = posts();
			const valid = Array.from({ length: 150 }, (_, i) =>
				JSON.stringify({ event_name: 'Signup', email: `long-${i}@example.com` }),
			);
			const bytes = Buffer.concat([
				Buffer.from(`${valid.join('\n')}\n{"event_name":"Signup","params":{"blob":"`),
				Buffer.alloc(8_000_000, 0x61),
				Buffer.from('"}}\n'),
			]);
			const { error } = await run(fileItem(bytes, 'rows.ndjson'), { fileFormat: 'ndjson' });
			expect(error?.message).toBe('Row 151 of the file is longer than 1,048,576 characters');
			expect(error?.description).toContain('a JSON document written on one line');
			// rows 1 to 100 went in one request; rows 101 to 150 were waiting in the next batch
			expect(error?.description).toContain('Row 101 is the first row not known to be stored');
			expect(posts() - before).toBe(1);
			expect(storedFor('long-')).toHaveLength(100);
		});

		it('an 8 MB CSV without a line break fails on row 1 before any request', async () => {
			const before = posts();
			const { error } = await run(fileItem(Buffer.alloc(8_000_000, 0x61)));
			expect(error?.message).toBe('Row 1 of the file is longer than 1,048,576 characters');
			expect(error?.description).toContain('no line break');
			expect(error?.description).toContain('Nothing was sent.');
			expect(posts()).toBe(before);
		});
	});

	describe('derived event IDs survive the next export', () => {
		/** 1,000 rows without a time: rows i and i+500 are identical (two real, identical events). */
		const exportRows = () =>
			Array.from(
				{ length: 1000 },
				(_, i) => `Coffee Bought,again-${i % 50}@example.com,${(i % 500) / 10}`,
			);
		const csv = (rows: string[]) => `event_name,email,value\n${rows.join('\n')}\n`;
		const countsOf = (rows: string[]) => {
			const counts = new Map<string, number>();
			for (const row of rows) {
				const [, email, value] = row.split(',');
				const key = `${email}|${Number(value)}`;
				counts.set(key, (counts.get(key) ?? 0) + 1);
			}
			return counts;
		};
		const storedCounts = () => {
			const counts = new Map<string, number>();
			for (const event of storedFor('again-')) {
				const key = `${sim().org.contacts.get(event.contact_id!)!.email}|${event.value}`;
				counts.set(key, (counts.get(key) ?? 0) + 1);
			}
			return counts;
		};

		it('a row inserted at the top and the rows re-sorted: 0 stored twice, 0 missing', async () => {
			const rows = exportRows();
			const first = await run(fileItem(csv(rows)));
			expect(first.items[0].json.summary).toMatchObject({ created: 1000, duplicate: 0 });

			const inserted = ['Coffee Bought,again-new@example.com,7.5', ...rows];
			const second = await run(fileItem(csv(inserted)));
			expect(second.items[0].json.summary).toMatchObject({ created: 1, duplicate: 1000 });

			const resorted = [...inserted].sort().reverse();
			const third = await run(fileItem(csv(resorted)));
			expect(third.items[0].json.summary).toMatchObject({ created: 0, duplicate: 1001 });

			expect(storedFor('again-')).toHaveLength(1001);
			expect(storedCounts()).toEqual(countsOf(inserted));
			// one more identical row is one more event, and only that
			const fourth = await run(fileItem(csv([...resorted, rows[0]])));
			expect(fourth.items[0].json.summary).toMatchObject({ created: 1, duplicate: 1001 });
		});
	});

	describe('the result file, the columns, the options named', () => {
		it('writes cells a spreadsheet would run as formulas with a leading quote', async () => {
			const csv = [
				'event_id,event_name,email',
				'"=cmd|\' /C calc\'!A0",Signup,',
				'"=HYPERLINK(""http://x"")",Signup,',
				'@SUM(1+1),Signup,',
				'+1 2,Signup,',
				'-2 3,Signup,',
			].join('\n');
			const { items } = await run(fileItem(csv), { fileOptions: { resultFile: true } });
			const text = Buffer.from(items[0].binary!.data.data, 'base64').toString('utf8');
			const cells = text
				.split('\r\n')
				.slice(1, -1)
				.map((line) => line.slice(line.lastIndexOf(',') + 1));
			expect(cells).toEqual([
				"'=cmd|' /C calc'!A0",
				'"\'=HYPERLINK(""http://x"")"',
				"'@SUM(1+1)",
				"'+1 2",
				"'-2 3",
			]);
		});

		it('reads columns named constructor, toString, valueOf and __proto__ as ordinary columns', async () => {
			const csv =
				'constructor,toString,valueOf,__proto__\nSignup,proto@example.com,12.5,Ana Proto\n';
			const { items, error } = await run(fileItem(csv), {
				columnNames: {
					eventName: 'constructor',
					email: 'toString',
					value: 'valueOf',
					contactName: '__proto__',
				},
			});
			expect(error).toBeUndefined();
			expect(items[0].json.summary).toMatchObject({ created: 1 });
			const [event] = storedFor('proto@');
			expect(event).toMatchObject({ event_name: 'signup', value: 12.5 });
			expect(contactByEmail(sim().org, 'proto@example.com').full_name).toBe('Ana Proto');
			// without the column, `constructor` is not read from Object.prototype
			const missing = await run(fileItem('email\nproto2@example.com\n'), {
				columnNames: { eventName: 'constructor' },
			});
			expect(missing.error?.message).toContain('no column "constructor"');
		});

		it("a request that could not be repeated names the file's own option, Derive Event IDs", async () => {
			sim().faults.inject({
				method: 'POST',
				path: '/v1/events',
				fault: { drop: true, afterHandling: true },
			});
			const { error } = await run(fileItem('event_name,email\nSignup,never-ids@example.com\n'), {
				fileOptions: { deriveEventIds: 'never' },
			});
			expect(error?.message).toContain('Options → Derive Event IDs: "From Each Row"');
			expect(`${error?.message} ${error?.description}`).not.toContain('Derive Missing Event IDs');
		});
	});

	describe('headers that do not match', () => {
		it('a semicolon file read with commas fails before any request, naming the column and the delimiter', async () => {
			const before = posts();
			const { error } = await run(fileItem('event_name;email\nSignup;semi@example.com\n'));
			expect(error?.message).toBe(
				'The file\'s header has no column "event_name" (the event name; Field Names → Event Name Field) and no column one of "email", "phone", "contact_id", "external_id", "contact", "session_id" (whom the event is about)',
			);
			expect(error?.description).toBe(
				'Columns found in row 1: "event_name;email". The header looks separated by Semicolon (;), not Comma (,): set Delimiter to Semicolon (;). Nothing was sent.',
			);
			expect(posts()).toBe(before);
		});

		it('a header "event,mail" names the missing columns and the Field Names that would read them', async () => {
			const { error } = await run(fileItem('event,mail\nSignup,mail@example.com\n'));
			expect(error?.message).toContain('no column "event_name"');
			expect(error?.description).toBe(
				'Columns found in row 1: "event", "mail". Name the file\'s columns under Field Names: Event Name Field = "event", Email Field = "mail". Nothing was sent.',
			);
		});
	});

	describe('Map Automatically and the columns it does not send', () => {
		const csv =
			'event_name,email,full_name,plan,amount,notes\nSignup,other-1@example.com,Ana Other,pro,19.90,\n';

		it("names the columns not sent in the output and a hint; reads full_name as the contact's name", async () => {
			const { items, run: execution } = await run(fileItem(csv));
			expect(items[0].json.columns_not_sent).toEqual(['plan', 'amount', 'notes']);
			expect(hintsOf(execution)).toEqual([
				{
					message:
						'Columns not sent: "plan", "amount", "notes". To send them with each event, set Options → Other Columns to "Send as Params".',
					type: 'info',
					location: 'outputPane',
				},
			]);
			expect(contactByEmail(sim().org, 'other-1@example.com').full_name).toBe('Ana Other');
			expect(storedFor('other-1@')[0].params ?? {}).toEqual({});
		});

		it('Other Columns → Send as Params sends them as params (blank cells left out)', async () => {
			const { items, run: execution } = await run(fileItem(csv.replace('other-1', 'other-2')), {
				fileOptions: { otherFields: 'params' },
			});
			expect(items[0].json.columns_not_sent).toBeUndefined();
			expect(hintsOf(execution)).toEqual([]);
			expect(storedFor('other-2@')[0].params).toEqual({ plan: 'pro', amount: '19.90' });
		});

		it('on items: a hint names the fields not sent, Other Fields sends them, first_name and last_name make the name', async () => {
			const items = [
				{
					event_name: 'Signup',
					email: 'other-3@example.com',
					first_name: 'Ben',
					last_name: 'Items',
					plan: 'team',
				},
			];
			const auto = { resource: 'event', operation: 'send', eventInput: 'autoMapInputData' };
			const first = await runNode({
				credentials: { apiKey: sim().apiKey, baseUrl: sim().baseUrl },
				parameters: auto,
				items,
			});
			expect(hintsOf(first.run)).toEqual([
				expect.objectContaining({
					message:
						'Fields not sent: "plan". To send them with each event, set Options → Other Fields to "Send as Params".',
				}),
			]);
			expect(contactByEmail(sim().org, 'other-3@example.com').full_name).toBe('Ben Items');
			await runNode({
				credentials: { apiKey: sim().apiKey, baseUrl: sim().baseUrl },
				parameters: { ...auto, options: { otherFields: 'params' } },
				items: [{ ...items[0], email: 'other-4@example.com' }],
			});
			expect(storedFor('other-4@')[0].params).toEqual({ plan: 'team' });
		});
	});

	it('JSON mode with a flat row says the email belongs under contact', async () => {
		const { items, run: execution } = await runNode({
			credentials: { apiKey: sim().apiKey, baseUrl: sim().baseUrl },
			parameters: {
				resource: 'event',
				operation: 'send',
				eventInput: 'json',
				eventJson: '={{ $json }}',
			},
			items: [{ event_name: 'Signup', email: 'flat@example.com' } as IDataObject],
		});
		expect(items[0].json).toMatchObject({
			status: 'rejected',
			reason: 'no_identity',
			hint: expect.stringContaining('"email" must be inside "contact"'),
		});
		expect(hintsOf(execution)[0].message).toContain('"email" must be inside "contact"');
	});

	it('the form says, for the item modes, that a re-run stores an event again without an Event ID or Occurred At', () => {
		const notice = sendFields.find((field) => field.name === 'rerunNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayName).toContain('Running the workflow again stores an event again');
		expect(notice?.displayOptions).toEqual({ hide: { eventInput: ['file'] } });
	});
});
