/**
 * Event → Send from a file in the real n8n: the shipped example (Read/Write Files from Disk →
 * Event → Send), imported byte for byte, with the user's export where the README tells them to put
 * it (`.n8n-files/crm-export.csv` in n8n's home, its working folder), run with `n8n execute` in
 * n8n's filesystem binary mode and n8n's default file access (only `~/.n8n-files`), as in n8n's
 * Docker image. The file: the sample beside the example and 250 more rows, so that it takes three
 * requests. Run twice: the second run stores nothing again.
 */
import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Simulator } from '../../simulator/index.cts';
import { storedEvents } from '../../simulator/index.cts';
import { loadExample, N8N_FILES } from '../../harness/examples.cts';
import { checkShippedFilePaths, workflowIds } from './examples.cts';
import {
	check,
	freshDir,
	log,
	type N8nInstance,
	parseExecuteOutput,
	redact,
	ROOT,
	run,
	tail,
} from './lib.cts';

export const EVENT_FILE_EXAMPLE = 'send-crm-export-file-as-events.json';
const SENDING_NODE = 'Send Events from the File';

interface FileOutput {
	json: { file_name?: string; summary?: Record<string, number>; not_accepted?: unknown[] };
	binary?: { data?: { fileName?: string; id?: string } };
}

/** Runs the file example; takes it out of `examples`, the list the generic runner goes on with. */
export async function runEventFileTest(
	n8n: N8nInstance,
	sim: Simulator,
	workDir: string,
	examples: string[],
): Promise<void> {
	if (examples.includes(EVENT_FILE_EXAMPLE))
		examples.splice(examples.indexOf(EVENT_FILE_EXAMPLE), 1);
	const folder = freshDir(path.join(workDir, 'event-file'));
	const workflow = loadExample(EVENT_FILE_EXAMPLE);
	checkShippedFilePaths(EVENT_FILE_EXAMPLE, workflow);
	// n8n's home, where a user of n8n's Docker image puts the export: /home/node/.n8n-files
	mkdirSync(path.join(n8n.userFolder, N8N_FILES), { recursive: true });
	const csv = path.join(n8n.userFolder, N8N_FILES, 'crm-export.csv');
	copyFileSync(path.join(ROOT, 'examples', 'crm-export.csv'), csv);
	const extra = Array.from(
		{ length: 250 },
		(_, i) =>
			`Order Placed,file-${i % 25}@example.com,,,${new Date(Date.UTC(2024, 5, 1) + i * 60_000).toISOString()},${i % 50},EUR`,
	);
	appendFileSync(csv, `${extra.join('\r\n')}\r\n`);

	// byte for byte: the file users import
	const importDir = freshDir(path.join(folder, 'import'));
	copyFileSync(
		path.join(ROOT, 'examples', EVENT_FILE_EXAMPLE),
		path.join(importDir, EVENT_FILE_EXAMPLE),
	);
	await n8n.cliOk(['import:workflow', '--separate', `--input=${importDir}`]);
	const id = (await workflowIds(n8n)).get(String(workflow.name));
	check(!!id, `${EVENT_FILE_EXAMPLE}: imported into n8n unchanged (workflow id ${id})`);

	const storedBefore = storedEvents(sim.org).length;
	const stored = () => storedEvents(sim.org).length - storedBefore;
	const first = await executeFileWorkflow(n8n, sim, id!);
	check(
		first.json.file_name === 'crm-export.csv' &&
			first.json.summary?.rows_read === 257 &&
			first.json.summary.created === 255 &&
			first.json.summary.rejected === 1 &&
			first.json.summary.invalid === 1 &&
			first.json.summary.requests === 3 &&
			first.json.not_accepted?.length === 2,
		`${EVENT_FILE_EXAMPLE}: 257 rows read from the file on disk, 255 created in 3 requests, the 2 others listed with their row numbers`,
		() => JSON.stringify(first.json),
	);
	check(
		first.binary?.data?.fileName === 'crm-export.not-accepted.csv' &&
			String(first.binary.data.id).startsWith('filesystem'),
		`${EVENT_FILE_EXAMPLE}: the result file of the rows not accepted is written in filesystem binary mode`,
		() => JSON.stringify(first.binary),
	);
	check(stored() === 255, `${EVENT_FILE_EXAMPLE}: the simulator stored the 255 events`);

	const again = await executeFileWorkflow(n8n, sim, id!);
	check(
		again.json.summary?.created === 0 && again.json.summary.duplicate === 255 && stored() === 255,
		`${EVENT_FILE_EXAMPLE}: the same file again stores nothing twice (255 answered duplicate)`,
		() => JSON.stringify(again.json.summary),
	);
}

async function executeFileWorkflow(
	n8n: N8nInstance,
	sim: Simulator,
	id: string,
): Promise<FileOutput> {
	const start = Date.now();
	const result = await run(
		n8n.install.nodeBin,
		[n8n.install.n8nBin, 'execute', `--id=${id}`, '--rawOutput'],
		{
			// n8n's home is its working folder, as in its Docker image; file access left at n8n's default
			cwd: n8n.userFolder,
			env: { ...n8n.env(), HOME: n8n.userFolder, N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' },
			logFile: path.join(n8n.logDir, 'n8n-event-file.log'),
			timeoutMs: 300_000,
		},
	);
	const output = `${result.stdout}\n${result.stderr}`;
	check(
		!output.includes(sim.apiKey),
		`${EVENT_FILE_EXAMPLE}: the API key appears nowhere in n8n's output`,
	);
	const runData = parseExecuteOutput(result.stdout) as
		| { data: { resultData: { error?: unknown; runData: Record<string, unknown[]> } } }
		| undefined;
	check(
		result.code === 0 && runData && !runData.data.resultData.error,
		`${EVENT_FILE_EXAMPLE}: n8n execute succeeded (${((Date.now() - start) / 1000).toFixed(1)}s)`,
		() => redact(`exit ${result.code}\n${tail(result.stdout, 60)}\n${tail(result.stderr, 30)}`),
	);
	const [task] = runData!.data.resultData.runData[SENDING_NODE] as Array<{
		data?: { main?: FileOutput[][] };
	}>;
	const items = task?.data?.main?.[0] ?? [];
	check(items.length === 1, `${EVENT_FILE_EXAMPLE}: one output item for the file`);
	log(`${EVENT_FILE_EXAMPLE}: ${JSON.stringify(items[0].json.summary)}`);
	return items[0];
}
