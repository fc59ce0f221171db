import { fork } from 'node:child_process';
import { Readable } from 'node:stream';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeParameters } from 'n8n-workflow';

import { useFilesystemBinaryData } from '../harness/binaryData.cts';
import { runNode } from '../harness/engine.cts';

/**
 * Event → Send reading a file (issue 31): CPU and peak memory of the reading path, each case in a
 * fresh child process that stores the file in n8n's filesystem binary mode (as n8n 2.x does) and
 * runs the node on it through n8n's engine, so that the node reads it as a stream.
 * - `normal`: a CSV of 60-byte rows without an event name: every row is read, decoded, split,
 *   mapped and checked, and answered `invalid` by the node itself, so no request is sent and the
 *   figures are the reading path's alone (the requests' cost is `bench:n8n`'s).
 * - `long_rows`: a CSV of 512 KiB rows (under the 1 MiB cap): long rows cost linear time too.
 * - `ndjson_line`: an NDJSON file whose first line is the whole file; `no_break`: a CSV file
 *   without a line break. Both stop at 1 MiB, naming row 1.
 * Figures: `file_rows_cpu_ms_<case>_<n>mb` (CPU of the run, user + system), the ratio of 50 MB to
 * 5 MB (10 is linear; the quadratic reader of issue 31 took 21 s at 50 MB against 0.37 s at 5 MB),
 * `file_rows_peak_rss_mib_normal_50mb`, and the peak growth of the two bad files above the normal
 * file of the same size (goal < 64 MiB).
 */
type Case = 'normal' | 'long_rows' | 'ndjson_line' | 'no_break';

const MB = 1_000_000;

function* generate(kind: Case, size: number): Generator<Buffer> {
	if (kind === 'ndjson_line' || kind === 'no_break') {
		yield Buffer.from(kind === 'ndjson_line' ? '{"event_name":"Signup","params":{"blob":"' : '');
		const piece = Buffer.alloc(65_536, 0x61);
		for (let sent = 0; sent < size; sent += piece.length) yield piece;
		return;
	}
	yield Buffer.from('event_name,email,occurred_at,value\n');
	if (kind === 'long_rows') {
		const row = Buffer.from(`${'a'.repeat(512 * 1024)},long@example.com,,\n`);
		for (let sent = 0; sent < size; sent += row.length) yield row;
		return;
	}
	let sent = 0;
	for (let i = 0; sent < size; i++) {
		const rows = Array.from(
			{ length: 1000 },
			(_, j) => `,customer-${(i * 1000 + j) % 200}@example.com,2024-01-01T00:00:00Z,19.90\n`,
		).join('');
		sent += rows.length;
		yield Buffer.from(rows);
	}
}

interface Measure {
	cpuMs: number;
	peakRssMiB: number;
	error?: string;
	rowsRead?: number;
}

/** Child side: one case, one run. */
async function measureInChild(kind: Case, megabytes: number): Promise<Measure> {
	const storage = await useFilesystemBinaryData();
	try {
		const stored = (await Container.get(BinaryDataService).store(
			{ type: 'execution', workflowId: 'bench', executionId: '1' },
			Readable.from(generate(kind, megabytes * MB)),
			{ data: '', mimeType: 'text/csv', fileName: 'bench.csv' } as IBinaryData,
		)) as IBinaryData;
		const parameters: INodeParameters = {
			resource: 'event',
			operation: 'send',
			eventInput: 'file',
			fileFormat: kind === 'ndjson_line' ? 'ndjson' : 'csv',
		};
		const before = process.cpuUsage();
		const { items, error } = await runNode({
			// no request is sent in these cases
			credentials: { apiKey: 'bench-key-never-sent', baseUrl: 'http://127.0.0.1:9' },
			parameters,
			items: [{}],
			binary: [{ data: stored }],
		});
		const cpu = process.cpuUsage(before);
		return {
			cpuMs: Math.round((cpu.user + cpu.system) / 1000),
			peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
			error: error?.message,
			rowsRead: (items[0]?.json.summary as { rows_read?: number } | undefined)?.rows_read,
		};
	} finally {
		storage.restore();
	}
}

async function measure(kind: Case, megabytes: number): Promise<Measure> {
	const child = fork(__filename, [], {
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		env: {
			...process.env,
			FILE_ROWS_BENCH_CASE: kind,
			FILE_ROWS_BENCH_MB: String(megabytes),
			TS_NODE_PREFER_TS_EXTS: 'true',
		},
	});
	const result = await new Promise<Measure>((resolve, reject) => {
		child.once('message', (message) => resolve(message as Measure));
		child.once('exit', (code) => reject(new Error(`${kind} ${megabytes} MB: exited ${code}`)));
	});
	child.kill();
	console.log(`fileRows: ${kind} ${megabytes} MB: ${JSON.stringify(result)}`);
	return result;
}

export async function run(): Promise<Record<string, number>> {
	const figures: Record<string, number> = {};
	const peaks: Partial<Record<Case, number>> = {};
	for (const kind of ['normal', 'long_rows', 'ndjson_line', 'no_break'] as const) {
		const cpu: number[] = [];
		for (const megabytes of [5, 20, 50]) {
			const result = await measure(kind, megabytes);
			const bad = kind === 'ndjson_line' || kind === 'no_break';
			if (bad !== (result.error === 'Row 1 of the file is longer than 1,048,576 characters'))
				throw new Error(`${kind} ${megabytes} MB: unexpected outcome ${JSON.stringify(result)}`);
			figures[`file_rows_cpu_ms_${kind}_${megabytes}mb`] = result.cpuMs;
			cpu.push(result.cpuMs);
			if (megabytes === 50) peaks[kind] = result.peakRssMiB;
		}
		figures[`file_rows_cpu_ratio_50mb_to_5mb_${kind}`] = Number((cpu[2] / cpu[0]).toFixed(2));
	}
	figures.file_rows_peak_rss_mib_normal_50mb = peaks.normal!;
	figures.file_rows_peak_rss_mib_long_rows_50mb = peaks.long_rows!;
	figures.file_rows_rss_growth_mib_ndjson_line_50mb = peaks.ndjson_line! - peaks.normal!;
	figures.file_rows_rss_growth_mib_no_break_50mb = peaks.no_break! - peaks.normal!;
	return figures;
}

if (process.env.FILE_ROWS_BENCH_CASE) {
	void measureInChild(
		process.env.FILE_ROWS_BENCH_CASE as Case,
		Number(process.env.FILE_ROWS_BENCH_MB),
	).then((result) => process.send!(result));
}
