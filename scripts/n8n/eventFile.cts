/**
 * Event → Send from a file in the real n8n: the shipped example (Read/Write Files from Disk →
 * Event → Send), pointed at a CSV on disk the way a user points it at their export, run with
 * `n8n execute` in n8n's filesystem binary mode. The file: the sample beside the example and 250
 * more rows, so that it takes three requests. Run twice: the second run stores nothing again.
 *
 * The example reads a path n8n must be allowed to read (N8N_RESTRICT_FILE_ACCESS_TO), so it is run
 * here, with that folder allowed, and taken out of the examples the generic runner executes.
 */
import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Simulator } from '../../simulator/index.cts';
import { storedEvents } from '../../simulator/index.cts';
import type { WorkflowJson } from './examples.cts';
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
	writeJson,
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
	const csv = path.join(folder, 'crm-export.csv');
	copyFileSync(path.join(ROOT, 'examples', 'crm-export.csv'), csv);
	const extra = Array.from(
		{ length: 250 },
		(_, i) =>
			`Order Placed,file-${i % 25}@example.com,,,${new Date(Date.UTC(2024, 5, 1) + i * 60_000).toISOString()},${i % 50},EUR`,
	);
	appendFileSync(csv, `${extra.join('\r\n')}\r\n`);

	const example = JSON.parse(
		readFileSync(path.join(ROOT, 'examples', EVENT_FILE_EXAMPLE), 'utf8'),
	) as WorkflowJson;
	const workflow = {
		...example,
		id: 'eventFileExample',
		nodes: example.nodes.map((node) =>
			node.name === 'Read CRM Export'
				? { ...node, parameters: { ...node.parameters, fileSelector: csv } }
				: node,
		),
	};
	const file = path.join(folder, 'workflow.json');
	writeJson(file, workflow);
	await n8n.cliOk(['import:workflow', `--input=${file}`]);

	const storedBefore = storedEvents(sim.org).length;
	const stored = () => storedEvents(sim.org).length - storedBefore;
	const first = await executeFileWorkflow(n8n, sim, folder);
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

	const again = await executeFileWorkflow(n8n, sim, folder);
	check(
		again.json.summary?.created === 0 && again.json.summary.duplicate === 255 && stored() === 255,
		`${EVENT_FILE_EXAMPLE}: the same file again stores nothing twice (255 answered duplicate)`,
		() => JSON.stringify(again.json.summary),
	);
}

async function executeFileWorkflow(
	n8n: N8nInstance,
	sim: Simulator,
	folder: string,
): Promise<FileOutput> {
	const start = Date.now();
	const result = await run(
		n8n.install.nodeBin,
		[n8n.install.n8nBin, 'execute', '--id=eventFileExample', '--rawOutput'],
		{
			cwd: n8n.userFolder,
			env: {
				...n8n.env(),
				N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
				N8N_RESTRICT_FILE_ACCESS_TO: folder,
			},
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
