/**
 * `npm run bench:n8n`: Event → Send in the real n8n 2.38.7 (the one `npm run test:n8n` installs),
 * side by side with the workflow a user would build without the node: a Code node grouping rows by
 * 100 and an HTTP Request per group. The item-path workflows start from the same row generator (a
 * Set node and Split Out, no Code node); the file workflow reads the same rows from a CSV file on
 * disk (Read/Write Files from Disk, n8n's filesystem binary mode). All send the same 100-row batches
 * to the simulator on loopback.
 *
 * Each workflow runs with `n8n execute`, measured as a whole process tree (see `execute`): n8n
 * 2.38.7 starts its JavaScript task runner even without a Code node and exits without waiting for
 * it, so the runner is followed until it exits. The workflows of one size run one after the other
 * (paired), the figures are the medians over the pairs. Not part of `npm test`: it takes minutes
 * (the 1,000,000-row file, more), and this is a shared machine.
 *
 * Environment: N8N_CACHE_DIR (where test:n8n installed n8n), BENCH_N8N_RUNS (pairs at 10,000 rows, at most 3 a size,
 * default 3), BENCH_N8N_RUNS_100K (default 1), BENCH_N8N_RUNS_1M (default 1), BENCH_N8N_WORKFLOWS_10K
 * (default automatic,fields,json,codeHttp), BENCH_N8N_WORKFLOWS_100K (default
 * automatic,codeHttp,file), BENCH_N8N_SKIP_BUILD=1, BENCH_N8N_TMP (its folder under bench/.tmp, default n8n).
 */
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { startSimulator, storedEvents } from '../../simulator/index.cts';
import {
	freePort,
	freshDir,
	installPaths,
	keepSecret,
	log,
	N8nInstance,
	PACKAGE_NAME,
	ROOT,
	runOk,
	writeJson,
} from '../../scripts/n8n/lib.cts';

const CREDENTIAL = { id: 'VoiceAgentCrmBench', name: 'Voice Agent CRM (bench)' };

/**
 * - automatic: Map Automatically, the rows' field names given once under Field Names.
 * - fields: Map Each Field Below with the expressions dragging a field writes (`{{ $json.email }}`).
 * - json: Event (JSON), one expression per item building the event from the row's fields.
 * - fieldsComputed: Map Each Field Below with expressions n8n must evaluate per item (10,000 rows only,
 *   when asked for in BENCH_N8N_WORKFLOWS_10K: a run takes minutes on this shared machine).
 * - codeHttp: the hand-made workflow.
 * - file: the same rows as a CSV file, read from disk and sent by Event → Send from a file.
 */
type Workflow = 'automatic' | 'fields' | 'json' | 'fieldsComputed' | 'codeHttp' | 'file';
const WORKFLOWS: Workflow[] = ['automatic', 'fields', 'json', 'fieldsComputed', 'codeHttp', 'file'];
const listed = (value: string | undefined, fallback: Workflow[]) =>
	(value?.split(',') ?? fallback) as Workflow[];
const AT_10K = listed(process.env.BENCH_N8N_WORKFLOWS_10K, [
	'automatic',
	'fields',
	'json',
	'codeHttp',
]);
const AT_100K = listed(process.env.BENCH_N8N_WORKFLOWS_100K, ['automatic', 'codeHttp', 'file']);

interface Measure {
	cpuSeconds: number;
	wallSeconds: number;
	peakRssMiB: number;
	/** The part of cpuSeconds spent by processes that outlived n8n (its task runner). */
	runnerCpuSeconds: number;
}

/**
 * CRM rows: 200 customers, each with purchases at distinct times; the same for every workflow, but
 * for a shift of the times per run, so that each run stores new events (derived IDs differ).
 */
function generator(rows: number, offsetSeconds: number) {
	const expression = `={{ { "rows": Array.from({ length: ${rows} }, (_, i) => ({ event: 'Purchase Completed', email: 'customer-' + (i % 200) + '@example.com', at: new Date(Date.UTC(2024, 0, 1) + i * 60000 + ${offsetSeconds * 1000}).toISOString(), amount: (i % 90) + 9.9 })) } }}`;
	return [
		{
			parameters: {},
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		{
			parameters: { mode: 'raw', jsonOutput: expression, options: {} },
			name: 'Rows',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
		},
		{
			parameters: { fieldToSplitOut: 'rows', options: {} },
			name: 'One Item per Row',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
		},
	];
}

/** The generator's rows as a CSV file, written in pieces (a million rows are about 75 MB). */
function writeCsv(file: string, rows: number, offsetSeconds: number): void {
	const fd = openSync(file, 'w');
	try {
		writeSync(fd, 'event,email,at,amount\n');
		const start = Date.UTC(2024, 0, 1) + offsetSeconds * 1000;
		for (let from = 0; from < rows; from += 10_000) {
			const lines: string[] = [];
			for (let i = from; i < Math.min(rows, from + 10_000); i++) {
				const at = new Date(start + i * 60000).toISOString();
				lines.push(`Purchase Completed,customer-${i % 200}@example.com,${at},${(i % 90) + 9.9}`);
			}
			writeSync(fd, `${lines.join('\n')}\n`);
		}
	} finally {
		closeSync(fd);
	}
}

/** Read/Write Files from Disk → Event → Send from the file. */
function fileNodes(csvFile: string) {
	return [
		{
			parameters: {},
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		{
			parameters: { fileSelector: csvFile, options: {} },
			name: 'Read CSV',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1.1,
			position: [200, 0],
		},
		{
			parameters: {
				...EVENT_SEND,
				eventInput: 'file',
				columnNames: { eventName: 'event', occurredAt: 'at', value: 'amount' },
			},
			name: 'Send',
			type: 'n8n-nodes-voice-agent-crm.voiceAgentCrm',
			typeVersion: 1,
			position: [400, 0],
			credentials: { voiceAgentCrmApi: CREDENTIAL },
		},
	];
}

const EVENT_SEND = { resource: 'event', operation: 'send' };
const credentials = { voiceAgentCrmApi: CREDENTIAL };

function sendingNodes(workflow: Workflow, baseUrl: string, apiKey: string) {
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		parameters: object,
		extra: object = {},
	) => ({ parameters, name, type, typeVersion, position: [600, 0], ...extra });
	if (workflow === 'automatic') {
		return [
			node(
				'Send',
				'n8n-nodes-voice-agent-crm.voiceAgentCrm',
				1,
				{
					...EVENT_SEND,
					eventInput: 'autoMapInputData',
					columnNames: { eventName: 'event', occurredAt: 'at', value: 'amount' },
				},
				{ credentials },
			),
		];
	}
	if (workflow === 'fields' || workflow === 'fieldsComputed') {
		// computed: what a user writes to clean a column on the way, evaluated by n8n for every item
		const computed = workflow === 'fieldsComputed';
		return [
			node(
				'Send',
				'n8n-nodes-voice-agent-crm.voiceAgentCrm',
				1,
				{
					...EVENT_SEND,
					eventName: computed ? '={{ $json.event.trim() }}' : '={{ $json.event }}',
					contactEmail: computed ? '={{ $json.email.toLowerCase() }}' : '={{ $json.email }}',
					additionalFields: {
						occurredAt: computed ? '={{ $json.at.trim() }}' : '={{ $json.at }}',
						value: computed ? '={{ Number($json.amount) }}' : '={{ $json.amount }}',
					},
				},
				{ credentials },
			),
		];
	}
	if (workflow === 'json') {
		return [
			node(
				'Send',
				'n8n-nodes-voice-agent-crm.voiceAgentCrm',
				1,
				{
					...EVENT_SEND,
					eventInput: 'json',
					eventJson:
						'={{ { event_name: $json.event, occurred_at: $json.at, contact: { email: $json.email }, value: $json.amount } }}',
				},
				{ credentials },
			),
		];
	}
	const group = `const rows = $input.all();
const out = [];
for (let i = 0; i < rows.length; i += 100) {
  out.push({ json: { events: rows.slice(i, i + 100).map(({ json: r }) => ({ event_name: r.event, occurred_at: r.at, contact: { email: r.email }, value: r.amount })) } });
}
return out;`;
	return [
		node('Group by 100', 'n8n-nodes-base.code', 2, { jsCode: group }),
		{
			...node('Send', 'n8n-nodes-base.httpRequest', 4.2, {
				method: 'POST',
				url: `${baseUrl}/v1/events`,
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'x-api-key', value: apiKey }] },
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ events: $json.events }) }}',
				options: {},
			}),
			position: [800, 0],
		},
	];
}

function workflowJson(
	id: string,
	workflow: Workflow,
	rows: number,
	offsetSeconds: number,
	baseUrl: string,
	apiKey: string,
	csvFile: string,
) {
	const nodes =
		workflow === 'file'
			? fileNodes(csvFile)
			: [...generator(rows, offsetSeconds), ...sendingNodes(workflow, baseUrl, apiKey)];
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id,
		name: `bench ${id}`,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

/** The package as users get it, installed as a community package (as test:n8n does it). */
async function installPackage(n8n: N8nInstance, workDir: string): Promise<void> {
	if (process.env.BENCH_N8N_SKIP_BUILD !== '1') await runOk('npm', ['run', 'build']);
	const packed = await runOk('npm', ['pack', '--json', '--pack-destination', workDir]);
	const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
	const nodesDir = path.join(n8n.n8nDir, 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	mkdirSync(packageDir, { recursive: true });
	await runOk('tar', [
		'-xzf',
		path.join(workDir, filename),
		'-C',
		packageDir,
		'--strip-components=1',
	]);
	const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
		version: string;
	};
	writeJson(path.join(nodesDir, 'package.json'), {
		name: 'installed-nodes',
		private: true,
		dependencies: { [PACKAGE_NAME]: manifest.version },
	});
}

/** Often enough for n8n's memory and the runner's last CPU; rarely enough not to slow the simulator in this process. */
const SAMPLE_MS = 100;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface ProcessSample {
	ppid: number;
	/** utime + stime + cutime + cstime, in clock ticks: its own CPU and that of the children it waited for. */
	ticks: number;
	rssKb: number;
}

const PAGE_KB = Number(execFileSync('getconf', ['PAGESIZE']).toString().trim()) / 1024 || 4;

/**
 * Every process on the machine, keyed by pid and start time (a pid may be used again): one read of
 * /proc/<pid>/stat each, which holds the parent, the CPU and the resident set.
 */
function processes(): Map<string, ProcessSample & { pid: number }> {
	const all = new Map<string, ProcessSample & { pid: number }>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// the command name may hold spaces and parentheses: fields are counted after its last ")"
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
			all.set(`${entry}:${fields[19]}`, {
				pid: Number(entry),
				ppid: Number(fields[1]),
				ticks: utime + stime + cutime + cstime,
				rssKb: Number(fields[21]) * PAGE_KB,
			});
		} catch {
			// the process ended while being read
		}
	}
	return all;
}

/**
 * The CPU and memory of a process tree, followed from /proc every 100 ms. GNU time's figure covers
 * n8n and the children it waited for; a process still running when n8n exits (n8n 2.38.7's task
 * runner: `n8n execute` does not wait for it) is not in it, so each such process is followed, by
 * pid and start time, after it has been handed to init, until it exits, and its own last CPU
 * figure is added. Peak memory is the largest sum of the resident sets of every process of the
 * tree alive at one time, those outliving n8n included.
 */
class TreeSampler {
	private readonly members = new Map<string, ProcessSample>();
	private readonly done = new Set<string>();
	peakKb = 0;

	constructor(private readonly root: number) {}

	sample(): void {
		const all = processes();
		const byParent = new Map<number, string[]>();
		for (const [key, p] of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), key]);
		const rootKey = [...all.keys()].find((key) => key.startsWith(`${this.root}:`));
		const queue = [
			...(rootKey ? [rootKey] : []),
			...[...this.members.keys()].filter((k) => all.has(k)),
		];
		const seen = new Set<string>();
		let rssKb = 0;
		while (queue.length) {
			const key = queue.pop()!;
			if (seen.has(key)) continue;
			seen.add(key);
			const p = all.get(key)!;
			this.members.set(key, { ppid: p.ppid, ticks: p.ticks, rssKb: p.rssKb });
			rssKb += p.rssKb;
			queue.push(...(byParent.get(p.pid) ?? []));
		}
		for (const key of this.members.keys()) if (!all.has(key)) this.done.add(key);
		this.peakKb = Math.max(this.peakKb, rssKb);
	}

	/** The members alive now (besides the root and `exclude`): those the measured process did not wait for. */
	alive(exclude: Set<number>): string[] {
		return [...this.members.keys()].filter(
			(key) => !this.done.has(key) && !exclude.has(Number(key.split(':')[0])),
		);
	}

	ticksOf(keys: string[]): number {
		return keys.reduce((sum, key) => sum + (this.members.get(key)?.ticks ?? 0), 0);
	}

	pidsOf(ppid: number): number[] {
		return [...this.members.entries()]
			.filter(([, p]) => p.ppid === ppid)
			.map(([key]) => Number(key.split(':')[0]));
	}
}

/**
 * One `n8n execute` under GNU time, its output to a file, not through this process. CPU: GNU
 * time's user + sys (n8n and the children it waited for) plus the CPU of every process of its
 * tree that outlived it (the task runner), followed until it exits. Peak memory: see `TreeSampler`.
 */
async function execute(
	n8n: N8nInstance,
	id: string,
	outFile: string,
	env: NodeJS.ProcessEnv,
): Promise<Measure> {
	const command = `exec /usr/bin/time -f 'BENCH %U %S %e' ${n8n.install.nodeBin} ${n8n.install.n8nBin} execute --id=${id} --rawOutput > ${outFile}`;
	const child = spawn('bash', ['-c', command], {
		cwd: n8n.userFolder,
		env: { ...n8n.env(), ...env },
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const tree = new TreeSampler(child.pid!);
	const sampler = setInterval(() => tree.sample(), SAMPLE_MS);
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	// GNU time (the child) and n8n (its child) have been waited for; what is left outlived n8n
	const measured = new Set([child.pid!, ...tree.pidsOf(child.pid!)]);
	tree.sample();
	const outliving = tree.alive(measured);
	const deadline = Date.now() + 120_000;
	while (tree.alive(measured).length && Date.now() < deadline) await sleepMs(SAMPLE_MS);
	clearInterval(sampler);
	if (tree.alive(measured).length)
		throw new Error(`${id}: the task runner did not exit in 2 minutes`);
	const line = stderr.split('\n').find((l) => l.startsWith('BENCH '));
	if (code !== 0 || !line)
		throw new Error(`n8n execute ${id} failed (${code}): ${stderr.slice(-2000)}`);
	const [user, sys, wall] = line.split(' ').slice(1).map(Number);
	const outlivingSeconds = tree.ticksOf(outliving) / CLOCK_TICKS;
	return {
		cpuSeconds: user + sys + outlivingSeconds,
		wallSeconds: wall,
		peakRssMiB: tree.peakKb / 1024,
		runnerCpuSeconds: outlivingSeconds,
	};
}

const sleepMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs at one size: 3 sizes × 3 pairs × 6 workflows fit the 60 seconds of a row's minute. */
const MAX_PAIRS = 3;

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
	// BENCH_N8N_TMP: a folder of its own, for two benches side by side
	const workDir = freshDir(path.join(ROOT, 'bench', '.tmp', process.env.BENCH_N8N_TMP ?? 'n8n'));
	const install = installPaths(
		process.env.N8N_CACHE_DIR ?? path.join(homedir(), '.cache', PACKAGE_NAME, 'n8n-2.38.7'),
	);
	const n8n = new N8nInstance(
		install,
		freshDir(path.join(workDir, 'user')),
		freshDir(path.join(workDir, 'logs')),
		0,
	);
	// n8n's task broker listens on 5679 unless told otherwise: another n8n may be running here
	n8n.taskBrokerPort = await freePort();
	await installPackage(n8n, workDir);
	const sim = await startSimulator({
		apiKey: `vak_${randomBytes(18).toString('hex')}`,
		limits: { events: 10_000_000, ip: 10_000_000 },
	});
	keepSecret(sim.apiKey);
	const figures: Record<string, number> = {};
	const table: string[] = [];
	try {
		await n8n.importSimulatorCredential(sim, path.join(workDir, 'credentials.json'), CREDENTIAL);
		const sizes: Array<[number, string, number, Workflow[]]> = [
			[10_000, '10k', Number(process.env.BENCH_N8N_RUNS ?? 3), AT_10K],
			[100_000, '100k', Number(process.env.BENCH_N8N_RUNS_100K ?? 1), AT_100K],
			[1_000_000, '1m', Number(process.env.BENCH_N8N_RUNS_1M ?? 1), ['file']],
		];
		const dataDir = freshDir(path.join(workDir, 'files'));
		const env = {
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_RESTRICT_FILE_ACCESS_TO: dataDir,
		};
		if (sizes.some(([, , pairs]) => pairs > MAX_PAIRS))
			throw new Error(`at most ${MAX_PAIRS} pairs a size: each run needs a second of its own`);
		// a size asked with 0 pairs is skipped: its figures in results.json stay as they are
		for (const [rows, label, pairs, workflows] of sizes.filter(([, , pairs]) => pairs > 0)) {
			const measures = new Map<Workflow, Measure[]>(workflows.map((w) => [w, []]));
			for (let pair = 0; pair < pairs; pair++) {
				for (const workflow of workflows) {
					// each run its own second of the minute, so that every run stores its events (no
					// duplicates), at every size: the 1,000,000 rows span the times of the smaller runs
					const id = `${workflow}${label}${pair}`;
					const offset =
						(sizes.findIndex(([size]) => size === rows) * MAX_PAIRS + pair) * WORKFLOWS.length +
						WORKFLOWS.indexOf(workflow);
					const csvFile = path.join(dataDir, `${id}.csv`);
					if (workflow === 'file') writeCsv(csvFile, rows, offset);
					const file = path.join(workDir, `${id}.json`);
					writeJson(
						file,
						workflowJson(id, workflow, rows, offset, sim.baseUrl, sim.apiKey, csvFile),
					);
					await n8n.cliOk(['import:workflow', `--input=${file}`]);
					forgetRequests(sim);
					let measure: Measure;
					try {
						measure = await execute(n8n, id, path.join(workDir, `${id}.out.json`), env);
					} catch (error) {
						// one crashed run (n8n 2.38.7 has ended with SIGSEGV under load here) is reported, not fatal
						log(
							`${id}: FAILED, left out of the figures: ${(error as Error).message.split('\n')[0]}`,
						);
						continue;
					}
					const requests = sim.requestsTo('POST', '/v1/events').length;
					if (requests !== rows / 100)
						throw new Error(`${id}: ${requests} requests for ${rows} rows`);
					if (workflow === 'file') checkFileSummary(path.join(workDir, `${id}.out.json`), rows);
					log(`${id}: ${JSON.stringify(measure)} (${requests} requests)`);
					measures.get(workflow)!.push(measure);
					if (workflow === 'file' && label === '1m') figures.events_file_requests_1m = requests;
				}
			}
			const measured = workflows.filter((workflow) => measures.get(workflow)!.length > 0);
			const med = (workflow: Workflow, key: keyof Measure) =>
				median(measures.get(workflow)!.map((m) => m[key]));
			for (const workflow of measured) {
				figures[`events_real_${workflow}_cpu_s_${label}`] = round(med(workflow, 'cpuSeconds'));
				figures[`events_real_${workflow}_runner_cpu_s_${label}`] = round(
					med(workflow, 'runnerCpuSeconds'),
				);
				figures[`events_real_${workflow}_wall_s_${label}`] = round(med(workflow, 'wallSeconds'));
				figures[`events_real_${workflow}_peak_rss_mib_${label}`] = Math.round(
					med(workflow, 'peakRssMiB'),
				);
				table.push(
					`| ${rows.toLocaleString('en')} | ${workflow} | ${rows / 100} | ${round(med(workflow, 'cpuSeconds'), 1)} s (runner ${round(med(workflow, 'runnerCpuSeconds'), 1)} s) | ${round(med(workflow, 'wallSeconds'), 1)} s | ${Math.round(med(workflow, 'peakRssMiB'))} MiB |`,
				);
			}
			if (measured.includes('file'))
				figures[`events_file_peak_rss_mib_${label}`] = Math.round(med('file', 'peakRssMiB'));
			if (measured.includes('codeHttp')) {
				const ratio = (workflow: Workflow, key: keyof Measure) =>
					round(med(workflow, key) / med('codeHttp', key));
				for (const workflow of measured.filter((w) => w !== 'codeHttp')) {
					// Map Automatically keeps the keys it had before the other modes were measured
					const prefix = workflow === 'automatic' ? 'events_real' : `events_real_${workflow}`;
					figures[`${prefix}_cpu_ratio_vs_code_http_${label}`] = ratio(workflow, 'cpuSeconds');
					figures[`${prefix}_peak_rss_ratio_vs_code_http_${label}`] = ratio(workflow, 'peakRssMiB');
				}
				if (measured.includes('file'))
					figures[`events_file_cpu_ratio_vs_code_http_${label}`] = ratio('file', 'cpuSeconds');
			}
			figures[`events_real_pairs_${label}`] = pairs;
			saveFigures(figures);
		}
		if (storedEvents(sim.org).length === 0) throw new Error('no event stored');
	} finally {
		await sim.stop();
	}
	saveFigures(figures);
	console.log(
		[
			'| rows | workflow | requests | CPU | wall | peak memory |',
			'|---|---|---|---|---|---|',
			...table,
		].join('\n'),
	);
	console.log(figures);
}

/** Figures written as each size ends, so that a long run stopped later keeps them. */
function saveFigures(figures: Record<string, number>): void {
	const resultsPath = path.join(ROOT, 'bench', 'results.json');
	const results = { ...(JSON.parse(readFileSync(resultsPath, 'utf8')) as object), ...figures };
	writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
}

/** The simulator keeps every request it got; a million rows are 10,000 requests of 100 events. */
function forgetRequests(sim: Awaited<ReturnType<typeof startSimulator>>): void {
	sim.requests.length = 0;
}

/** The file workflow's one output item: every row read and created. */
function checkFileSummary(outFile: string, rows: number): void {
	const text = readFileSync(outFile, 'utf8');
	const summary = /"summary":\s*(\{[^}]*\})/.exec(text)?.[1];
	const parsed = summary ? (JSON.parse(summary) as Record<string, number>) : undefined;
	if (parsed?.rows_read !== rows || parsed.created !== rows)
		throw new Error(`the file's summary does not count ${rows} rows created: ${summary}`);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
