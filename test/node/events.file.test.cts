import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { onFakeTime } from '../../harness/fakeTime.cts';
import { RETRY_LIMITS, STOPPED_NOTE_KEY } from '../../nodes/VoiceAgentCrm/transport/request';
import { contactByEmail, startSimulator, storedEvents } from '../../simulator/index.cts';
import { startStoppableRun } from '../reliability/stoppable.cts';
import { eventFileBench, FROM_FILE, fileItem, purchases } from './eventFiles.cts';

describe('Event → Send from a file, through the engine against the simulator', () => {
	const { sim, posts, run, storedWith } = eventFileBench();

	it('reads every CSV edge case: BOM, CRLF, quoted commas, doubled quotes and line breaks, a chosen delimiter, renamed columns', async () => {
		const csv =
			'\uFEFFWhat;Mail;When;Details;Who\r\n' +
			'Order Placed;edge-1@example.com;2024-03-01T10:00:00Z;"{""plan"": ""pro; annual"", ""seats"": 3}";"Ana ""the first""\r\nDíaz"\r\n' +
			'"Form\nSubmitted";edge-2@example.com;2024-03-01 11:00:00;;Ben\r\n' +
			'Page Viewed;edge-3@example.com;2024-03-01T12:00:00+02:00;"{}";"Chloé; C."';
		const before = posts();
		const { items, error } = await run(fileItem(csv), {
			csvDelimiter: ';',
			columnNames: {
				eventName: 'What',
				email: 'Mail',
				occurredAt: 'When',
				params: 'Details',
				contactName: 'Who',
			},
		});
		expect(error).toBeUndefined();
		expect(posts() - before).toBe(1);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			file_name: 'rows.csv',
			summary: { rows_read: 3, created: 3, invalid: 0, rejected: 0, failed: 0, requests: 1 },
			not_accepted: [],
			not_accepted_not_shown: 0,
		});
		const stored = storedWith('edge-');
		expect(stored.map((event) => event.event_name)).toEqual([
			'order_placed',
			'form_submitted',
			'page_viewed',
		]);
		expect(stored[0].params).toEqual({ plan: 'pro; annual', seats: 3 });
		expect(contactByEmail(sim().org, 'edge-1@example.com')?.full_name).toBe(
			'Ana "the first"\r\nDíaz',
		);
		expect(contactByEmail(sim().org, 'edge-3@example.com')?.full_name).toBe('Chloé; C.');
		// a time without a zone is read in the workflow's time zone, as on the item path
		expect(stored[2].occurred_at).toBe('2024-03-01T10:00:00.000Z');
		expect(stored.every((event) => event.event_id?.startsWith('n8n_'))).toBe(true);
	});

	it('reads NDJSON: nested contacts, params and groups as objects, CRLF and blank lines, row numbers by line', async () => {
		const lines = [
			JSON.stringify({
				event_name: 'Trial Started',
				contact: { email: 'nd-1@example.com', name: 'Nd One' },
				params: { plan: 'pro', seats: 3 },
				group: { id: 'acme', name: 'Acme' },
				occurred_at: '2024-04-01T08:00:00Z',
			}),
			'',
			JSON.stringify({ event_name: 'Trial Ended', email: 'nd-2@example.com', value: '19.90' }),
			'{"event_name": "broken",',
		];
		const { items, error } = await run(fileItem(`\uFEFF${lines.join('\r\n')}\r\n`, 'rows.ndjson'), {
			fileFormat: 'ndjson',
		});
		expect(error).toBeUndefined();
		expect(items[0].json.summary).toMatchObject({ rows_read: 3, created: 2, invalid: 1 });
		expect(items[0].json.not_accepted).toEqual([
			{
				row: 4,
				status: 'invalid',
				reason: expect.stringMatching(/^the line is not valid JSON/),
			},
		]);
		const [first, second] = storedWith('nd-');
		expect(first).toMatchObject({
			event_name: 'trial_started',
			params: { plan: 'pro', seats: 3 },
			company_id: 'acme',
		});
		expect(second).toMatchObject({ event_name: 'trial_ended', value: 19.9 });
	});

	it('reports the rows not accepted with their row numbers and reasons, the first N in the output and all in a result file', async () => {
		const csv = [
			'event_name,email,phone,occurred_at',
			'Signup,bad-1@example.com,,2024-05-01T00:00:00Z', // row 2: created
			',bad-2@example.com,,', // row 3: no event name
			'Signup,,,', // row 4: no identity
			'Signup,bad-4@example.com,12,1999-01-01T00:00:00Z', // row 5: two errors
			'Signup,bad-5@example.com,,,extra', // row 6: one field too many
			'Signup,"bad-6@example.com",,2024-05-01T00:00:00Z', // row 7: created
		].join('\n');
		const {
			items,
			error,
			run: execution,
		} = await run(fileItem(csv, 'crm.csv'), {
			fileOptions: { notAcceptedShown: 2, resultFile: true },
		});
		expect(error).toBeUndefined();
		const [output] = items;
		expect(output.json.summary).toMatchObject({
			rows_read: 6,
			created: 2,
			invalid: 3,
			rejected: 1,
			requests: 1,
		});
		expect(output.json.not_accepted).toEqual([
			{ row: 3, status: 'invalid', reason: 'event_name is required and must be a string' },
			{ row: 4, status: 'rejected', reason: 'no_identity' },
		]);
		expect(output.json.not_accepted_not_shown).toBe(2);
		const result = Buffer.from(output.binary!.data.data, 'base64').toString('utf8');
		expect(output.binary!.data).toMatchObject({
			fileName: 'crm.not-accepted.csv',
			mimeType: 'text/csv',
		});
		expect(result.split('\r\n')).toEqual([
			'row,status,reason,event_id',
			'3,invalid,event_name is required and must be a string,',
			'4,rejected,no_identity,',
			'5,invalid,"occurred_at must be in the year 2000 or later; contact.phone must have at least 7 digits, preferably in international format like +14155550123",',
			'6,invalid,"the row has 5 fields, the header 4",',
			'',
		]);
		// rows were accepted: no hint
		expect(execution.data.resultData.runData['Voice Agent CRM'][0].hints ?? []).toEqual([]);
	});

	it('shows a hint in the editor when no row was accepted, with the count and the first reason', async () => {
		const csv = 'event_name,email\n,nobody-1@example.com\nSignup,\n';
		const { items, error, run: execution } = await run(fileItem(csv));
		expect(error).toBeUndefined();
		expect(items[0].json.summary).toMatchObject({ rows_read: 2, invalid: 1, rejected: 1 });
		expect(execution.data.resultData.runData['Voice Agent CRM'][0].hints).toEqual([
			{
				message:
					'No event was accepted: 1 invalid, 1 rejected. First, row 2: event_name is required and must be a string',
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});

	it('sends 250 rows in 3 requests, one output item per file; a re-run of the same file stores nothing twice', async () => {
		const file = fileItem(purchases('rerun', 250));
		const before = posts();
		const first = await run(file);
		expect(first.error).toBeUndefined();
		expect(posts() - before).toBe(3);
		expect(first.items).toHaveLength(1);
		expect(first.items[0].json.summary).toMatchObject({
			rows_read: 250,
			created: 250,
			requests: 3,
		});
		const again = await run(file);
		expect(again.items[0].json.summary).toMatchObject({
			rows_read: 250,
			created: 0,
			duplicate: 250,
			requests: 3,
		});
		expect(storedWith('rerun-')).toHaveLength(250);
	});

	it('two identical rows without a time are two events (the second one gets _2 on its ID); a re-run stores neither again', async () => {
		const csv = 'event_name,email\nCoffee,twice@example.com\nCoffee,twice@example.com\n';
		const first = await run(fileItem(csv));
		expect(first.items[0].json.summary).toMatchObject({ created: 2 });
		const again = await run(fileItem(csv));
		expect(again.items[0].json.summary).toMatchObject({ created: 0, duplicate: 2 });
		expect(storedEvents(sim().org, { event_name: 'coffee' })).toHaveLength(2);
	});

	it('a file per input item: one summary each, paired to its item', async () => {
		const { items } = await run([
			fileItem(purchases('multi-a', 3)),
			fileItem(purchases('multi-b', 120)),
		]);
		expect(items.map((item) => [item.json.summary, item.pairedItem])).toEqual([
			[expect.objectContaining({ rows_read: 3, created: 3 }), { item: 0 }],
			[expect.objectContaining({ rows_read: 120, created: 120 }), { item: 1 }],
		]);
	});

	it('an answer lost mid-file stores nothing twice: the batch is repeated and its rows counted as stored by this run or an earlier one', async () => {
		sim().faults.inject({
			method: 'POST',
			path: '/v1/events',
			skip: 1,
			fault: { drop: true, afterHandling: true },
		});
		const before = posts();
		const { items, error } = await onFakeTime(() => run(fileItem(purchases('lost', 300))));
		expect(error).toBeUndefined();
		expect(posts() - before).toBe(4);
		expect(items[0].json.summary).toMatchObject({
			rows_read: 300,
			created: 200,
			stored_this_run_or_earlier: 100,
			requests: 4,
		});
		expect(storedWith('lost-')).toHaveLength(300);
	});

	it('a run stopped part-way names the first row not known to be stored; Start at Row resumes there and stores the rest once', async () => {
		const file = fileItem(purchases('resume', 350));
		// the third request fails on every attempt: rows 202 to 301 (the header is row 1)
		sim().faults.inject({
			method: 'POST',
			path: '/v1/events',
			skip: 2,
			times: RETRY_LIMITS.transientTries,
			fault: { status: 503 },
		});
		const stopped = await onFakeTime(() => run(file));
		expect(stopped.error?.description).toContain('Row 202 is the first row not known to be stored');
		expect(stopped.error?.description).toContain('Start at Row set to 202');
		expect(storedWith('resume-')).toHaveLength(200);

		const resumed = await run(file, { fileOptions: { startAtRow: 202 } });
		expect(resumed.error).toBeUndefined();
		expect(resumed.items[0].json).toMatchObject({
			started_at_row: 202,
			summary: { rows_read: 150, created: 150, duplicate: 0, requests: 2 },
		});
		expect(storedWith('resume-')).toHaveLength(350);
		// the whole file again: all 350 answered duplicate, none stored twice
		const whole = await run(file);
		expect(whole.items[0].json.summary).toMatchObject({ created: 0, duplicate: 350 });
	});

	it('under Continue On Fail a failed batch is reported on its rows and the rest of the file is sent', async () => {
		sim().faults.inject({
			method: 'POST',
			path: '/v1/events',
			times: RETRY_LIMITS.transientTries,
			fault: { status: 503 },
		});
		const { items, error } = await onFakeTime(() =>
			run(
				fileItem(purchases('cof', 150)),
				{ fileOptions: { notAcceptedShown: 1 } },
				{ continueOnFail: true },
			),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.summary).toMatchObject({ created: 50, failed: 100, requests: 4 });
		expect(items[0].json.not_accepted).toEqual([
			{ row: 2, status: 'failed', reason: expect.any(String) },
		]);
		expect(items[0].json.not_accepted_not_shown).toBe(99);
	});

	it('an item without the file fails naming the binary field, before anything is sent', async () => {
		const before = posts();
		const { error } = await runNode({
			credentials: { apiKey: sim().apiKey, baseUrl: sim().baseUrl },
			parameters: { ...FROM_FILE, binaryPropertyName: 'crm' },
			items: [{ some: 'json' } as IDataObject],
		});
		expect(error?.message).toContain("binary file 'crm'");
		expect(posts()).toBe(before);
	});
});

describe('Event → Send from a file, stopped in the editor', () => {
	it("names the first row not known to be stored in the execution's custom data, and the re-run from there stores the rest once", async () => {
		const sim = await startSimulator({ limits: { events: 100_000, ip: 100_000 } });
		try {
			const csv = purchases('cancel', 350);
			// the second request is answered late: the execution is stopped while it is on its way
			sim.faults.inject({
				method: 'POST',
				path: '/v1/events',
				skip: 1,
				fault: { delayMs: 3000 },
			});
			// stopped as the second request arrives (counted, not timed), so that it is on its way
			let posts = 0;
			const stopCounting = sim.onRequest((request) => {
				if (request.method === 'POST' && request.path === '/v1/events' && ++posts === 2)
					execution.stop();
			});
			const execution = startStoppableRun({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: FROM_FILE,
				items: [{}],
				binary: [fileItem(csv)],
			});
			const { message, description } = await execution.done;
			stopCounting();
			// the second request (rows 102 to 201) was on its way: n8n aborted it, so its rows are not known to be stored
			expect(message).toBe('Stopped at row 102 of the file');
			expect(description).toContain('Start at Row set to 102');
			// what n8n saves of the stopped execution: the node's error above is not in it
			const note = execution.customDataAtStop()?.[STOPPED_NOTE_KEY];
			expect(note).toBe(
				"Item 0's file stopped at row 102: run again with Options → Start at Row set to 102. Of 200 rows read: 100 done (100 stored, 0 duplicate, 0 not accepted), 100 sent with no answer (may be stored), 0 not sent.",
			);
			// n8n's documented limit of a custom data value
			expect(note!.length).toBeLessThanOrEqual(255);
			expect(sim.requestsTo('POST', '/v1/events')).toHaveLength(2);

			const resumed = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { ...FROM_FILE, fileOptions: { startAtRow: 102 } },
				items: [{}],
				binary: [fileItem(csv)],
			});
			expect(resumed.error).toBeUndefined();
			expect(storedEvents(sim.org)).toHaveLength(350);
			const storedIds = storedEvents(sim.org).map((event) => event.event_id);
			expect(new Set(storedIds).size).toBe(350);
		} finally {
			await sim.stop();
		}
	});
});
