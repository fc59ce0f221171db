/**
 * `npm run bench:n8n`: Event → Send in the real n8n 2.38.7 (the one `npm run test:n8n` installs),
 * side by side with the workflows a user would build without the node.
 *
 * At 100,000 rows (the comparison the docs quote) every workflow reads the same CSV file from disk
 * (Read/Write Files from Disk, n8n's filesystem binary mode): Event → Send from the file; Extract
 * from File → a Code node grouping rows by 100 → an HTTP Request per group, with n8n's Header Auth
 * credential and with the key in a plain header; Extract from File → Event → Send, Map
 * Automatically. An `idle` run (a Manual Trigger alone) measures what n8n's own start and exit
 * cost, so that what the workflows themselves cost is visible. At 10,000 rows (opt-in) the item
 * modes start from a row generator (a Set node and Split Out) against the Code + HTTP Request
 * workflow fed by the same generator; at 1,000,000 rows, the file alone.
 *
 * Each workflow runs with `n8n execute`, measured as a whole process tree (see `execute`): n8n
 * 2.38.7 starts its JavaScript task runner even without a Code node and exits without waiting for
 * it, so the runner is followed until it exits. A pair is every workflow of a size run once, one
 * after the other (in the reverse order every other pair); each ratio is taken within a pair and
 * reported as the median of the pairs with its minimum and maximum, and the machine's load average
 * as each run ended is kept beside them (its least and its most). Not part of `npm test`: it takes
 * minutes (the 1,000,000-row file, more), and this is a shared machine. The comparison the docs
 * quote, 3 pairs at 100,000 rows, is what `npm run bench:n8n` runs by default: run it on an idle
 * machine, then set the docs' figures to those results.json holds (test/performanceFigures.test.cts
 * fails, showing each text it expects, until they agree).
 *
 * Environment: N8N_CACHE_DIR (where test:n8n installed n8n), BENCH_N8N_RUNS (pairs at 10,000 rows,
 * default 0), BENCH_N8N_RUNS_100K (pairs of the file-fed comparison, default 3), BENCH_N8N_FILE_ROWS
 * (its rows, default 100,000), BENCH_N8N_RUNS_1M (default 0), BENCH_N8N_WORKFLOWS_10K
 * (default automatic,fields,json,codeHttp), BENCH_N8N_WORKFLOWS_100K (default
 * idle,file,extractCodeHttpAuth,extractCodeHttp,extractAutomatic), BENCH_N8N_SKIP_BUILD=1,
 * BENCH_N8N_TMP (its folder under bench/.tmp, default n8n). A size measured replaces all of its
 * figures in results.json, so that none of an earlier run stays beside them.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { homedir, loadavg } from 'node:os';
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
	parseExecuteOutput,
	ROOT,
	runOk,
	writeJson,
} from '../../scripts/n8n/lib.cts';

const CREDENTIAL = { id: 'VoiceAgentCrmBench', name: 'Voice Agent CRM (bench)' };
/** n8n's Header Auth credential, as a user sets one up for the hand-built workflow. */
const HEADER_AUTH = { id: 'HeaderAuthBench', name: 'API key header (bench)' };

/**
 * - idle: a Manual Trigger and a Code node returning one empty item: what n8n's start, its task
 *   runner's start and its exit cost. (n8n 2.38.7 starts the runner whatever the workflow; with a
 *   Manual Trigger alone or a No Operation node, `n8n execute` ended with SIGSEGV after its output
 *   here, every time, while the runner was still starting.)
 * - automatic: Map Automatically, the rows' field names given once under Field Names.
 * - fields: Map Each Field Below with the expressions dragging a field writes (`{{ $json.email }}`).
 * - json: Event (JSON), one expression per item building the event from the row's fields.
 * - fieldsComputed: Map Each Field Below with expressions n8n must evaluate per item (10,000 rows only,
 *   when asked for in BENCH_N8N_WORKFLOWS_10K: a run takes minutes on this shared machine).
 * - codeHttp: the hand-made workflow, fed by the generator.
 * - file: the CSV file, read from disk and sent by Event → Send from a file.
 * - extractCodeHttpAuth: the CSV file, Extract from File, the hand-made workflow with n8n's Header
 *   Auth credential.
 * - extractCodeHttp: the same with the key in a plain header (as the generator-fed codeHttp sends it).
 * - extractAutomatic: the CSV file, Extract from File, Event → Send with Map Automatically.
 */
type Workflow =
	| 'idle'
	| 'automatic'
	| 'fields'
	| 'json'
	| 'fieldsComputed'
	| 'codeHttp'
	| 'file'
	| 'extractCodeHttpAuth'
	| 'extractCodeHttp'
	| 'extractAutomatic';
/** What the other workflows of a size are compared with, when measured. */
const BASELINES: Workflow[] = ['codeHttp', 'extractCodeHttpAuth', 'extractCodeHttp'];
/** The workflows that read the CSV file. */
const FILE_FED: Workflow[] = ['file', 'extractCodeHttpAuth', 'extractCodeHttp', 'extractAutomatic'];
const listed = (value: string | undefined, fallback: Workflow[]) =>
	(value?.split(',') ?? fallback) as Workflow[];
const AT_10K = listed(process.env.BENCH_N8N_WORKFLOWS_10K, [
	'automatic',
	'fields',
	'json',
	'codeHttp',
]);
const AT_100K = listed(process.env.BENCH_N8N_WORKFLOWS_100K, [
	'idle',
	'file',
	'extractCodeHttpAuth',
	'extractCodeHttp',
	'extractAutomatic',
]);

/** The rows of the file-fed comparison (100,000 unless the machine is too busy for it). */
const FILE_ROWS = Number(process.env.BENCH_N8N_FILE_ROWS ?? 100_000);
const COMPARISON = `${FILE_ROWS / 1000}k`;

interface Measure {
	cpuSeconds: number;
	wallSeconds: number;
	peakRssMiB: number;
	/** The part of cpuSeconds spent by processes that outlived n8n (its task runner). */
	runnerCpuSeconds: number;
	/** The machine's 1-minute load average as the run ended: how much else was running. */
	loadAverage: number;
}

const START = {
	parameters: {},
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
};

/**
 * CRM rows: 200 customers, each with purchases at distinct times; the same for every workflow, but
 * for a shift of the times per run (in milliseconds), so that each run stores new events (derived
 * IDs differ).
 */
function generator(rows: number, offsetMs: number) {
	const expression = `={{ { "rows": Array.from({ length: ${rows} }, (_, i) => ({ event: 'Purchase Completed', email: 'customer-' + (i % 200) + '@example.com', at: new Date(Date.UTC(2024, 0, 1) + i * 60000 + ${offsetMs}).toISOString(), amount: (i % 90) + 9.9 })) } }}`;
	return [
		START,
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
function writeCsv(file: string, rows: number, offsetMs: number): void {
	const fd = openSync(file, 'w');
	try {
		writeSync(fd, 'event,email,at,amount\n');
		const start = Date.UTC(2024, 0, 1) + offsetMs;
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

const IDLE_CODE = {
	parameters: { jsCode: 'return [{ json: {} }];' },
	name: 'Code',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: [200, 0],
};

/** Start → Read/Write Files from Disk: the CSV file as the binary field `data`. */
function readCsv(csvFile: string) {
	return [
		START,
		{
			parameters: { fileSelector: csvFile, options: {} },
			name: 'Read CSV',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1.1,
			position: [200, 0],
		},
	];
}

/** Extract from File, CSV with its header row: one item per row, every field a string. */
const EXTRACT = {
	parameters: { operation: 'csv', options: {} },
	name: 'Extract from File',
	type: 'n8n-nodes-base.extractFromFile',
	typeVersion: 1.1,
	position: [400, 0],
};

const EVENT_SEND = { resource: 'event', operation: 'send' };
const COLUMN_NAMES = { eventName: 'event', occurredAt: 'at', value: 'amount' };
const credentials = { voiceAgentCrmApi: CREDENTIAL };

/** The nodes after the rows (items, or the file for `file`). */
function sendingNodes(workflow: Workflow, baseUrl: string, apiKey: string) {
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		parameters: object,
		extra: object = {},
	) => ({ parameters, name, type, typeVersion, position: [600, 0], ...extra });
	const voiceAgentCrm = (parameters: object) =>
		node('Send', 'n8n-nodes-voice-agent-crm.voiceAgentCrm', 1, parameters, { credentials });
	if (workflow === 'file')
		return [voiceAgentCrm({ ...EVENT_SEND, eventInput: 'file', columnNames: COLUMN_NAMES })];
	if (workflow === 'automatic' || workflow === 'extractAutomatic')
		return [
			voiceAgentCrm({ ...EVENT_SEND, eventInput: 'autoMapInputData', columnNames: COLUMN_NAMES }),
		];
	if (workflow === 'fields' || workflow === 'fieldsComputed') {
		// computed: what a user writes to clean a column on the way, evaluated by n8n for every item
		const computed = workflow === 'fieldsComputed';
		return [
			voiceAgentCrm({
				...EVENT_SEND,
				eventName: computed ? '={{ $json.event.trim() }}' : '={{ $json.event }}',
				contactEmail: computed ? '={{ $json.email.toLowerCase() }}' : '={{ $json.email }}',
				additionalFields: {
					occurredAt: computed ? '={{ $json.at.trim() }}' : '={{ $json.at }}',
					value: computed ? '={{ Number($json.amount) }}' : '={{ $json.amount }}',
				},
			}),
		];
	}
	if (workflow === 'json') {
		return [
			voiceAgentCrm({
				...EVENT_SEND,
				eventInput: 'json',
				eventJson:
					'={{ { event_name: $json.event, occurred_at: $json.at, contact: { email: $json.email }, value: $json.amount } }}',
			}),
		];
	}
	// codeHttp, extractCodeHttp, extractCodeHttpAuth: the amount is a number in the generator's
	// items, text in the extracted rows; Number() reads both
	const group = `const rows = $input.all();
const out = [];
for (let i = 0; i < rows.length; i += 100) {
  out.push({ json: { events: rows.slice(i, i + 100).map(({ json: r }) => ({ event_name: r.event, occurred_at: r.at, contact: { email: r.email }, value: Number(r.amount) })) } });
}
return out;`;
	const auth =
		workflow === 'extractCodeHttpAuth'
			? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
			: {
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'x-api-key', value: apiKey }] },
				};
	return [
		node('Group by 100', 'n8n-nodes-base.code', 2, { jsCode: group }),
		{
			...node(
				'Send',
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					method: 'POST',
					url: `${baseUrl}/v1/events`,
					...auth,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ events: $json.events }) }}',
					options: {},
				},
				workflow === 'extractCodeHttpAuth' ? { credentials: { httpHeaderAuth: HEADER_AUTH } } : {},
			),
			position: [800, 0],
		},
	];
}

function workflowJson(
	id: string,
	workflow: Workflow,
	rows: number,
	offsetMs: number,
	baseUrl: string,
	apiKey: string,
	csvFile: string,
) {
	const rowsFrom = FILE_FED.includes(workflow)
		? [...readCsv(csvFile), ...(workflow === 'file' ? [] : [EXTRACT])]
		: generator(rows, offsetMs);
	const nodes =
		workflow === 'idle'
			? [START, IDLE_CODE]
			: [...rowsFrom, ...sendingNodes(workflow, baseUrl, apiKey)];
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
		loadAverage: loadavg()[0],
	};
}

const sleepMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The middle value; of an even count, the mean of the two middle ones. */
function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const METRICS: Array<[keyof Measure, string]> = [
	['cpuSeconds', 'cpu'],
	['peakRssMiB', 'peak_rss'],
];

/** One pair: each workflow's measure, when its run succeeded. */
type Pair = Map<Workflow, Measure>;

/**
 * A size's figures: each workflow's medians, and its ratios to each baseline taken within each
 * pair (median, min, max over the pairs), also above the idle run's CPU when it was measured.
 */
function sizeFigures(label: string, workflows: Workflow[], pairs: Pair[]): Record<string, number> {
	const figures: Record<string, number> = {};
	const of = (workflow: Workflow, key: keyof Measure) =>
		pairs.flatMap((pair) => (pair.has(workflow) ? [pair.get(workflow)![key]] : []));
	const spread = (name: string, values: number[]) => {
		if (!values.length) return;
		figures[`${name}_${label}`] = round(median(values));
		figures[`${name}_min_${label}`] = round(Math.min(...values));
		figures[`${name}_max_${label}`] = round(Math.max(...values));
	};
	for (const workflow of workflows.filter((w) => of(w, 'cpuSeconds').length)) {
		spread(`events_real_${workflow}_cpu_s`, of(workflow, 'cpuSeconds'));
		figures[`events_real_${workflow}_runner_cpu_s_${label}`] = round(
			median(of(workflow, 'runnerCpuSeconds')),
		);
		figures[`events_real_${workflow}_wall_s_${label}`] = round(median(of(workflow, 'wallSeconds')));
		figures[`events_real_${workflow}_peak_rss_mib_${label}`] = Math.round(
			median(of(workflow, 'peakRssMiB')),
		);
		figures[`events_real_${workflow}_runs_${label}`] = of(workflow, 'cpuSeconds').length;
	}
	const within = (a: Workflow, b: Workflow, value: (pair: Pair) => number) =>
		pairs.filter((pair) => pair.has(a) && pair.has(b)).map(value);
	for (const baseline of BASELINES.filter((b) => workflows.includes(b))) {
		for (const workflow of workflows.filter((w) => w !== baseline && w !== 'idle')) {
			const name = `events_real_${workflow}_vs_${baseline}`;
			for (const [key, metric] of METRICS)
				spread(
					`${name}_${metric}_ratio`,
					within(workflow, baseline, (p) => p.get(workflow)![key] / p.get(baseline)![key]),
				);
			// what the workflows cost beyond n8n's own start and exit, measured in the same pair
			const aboveIdle = (p: Pair, w: Workflow) => p.get(w)!.cpuSeconds - p.get('idle')!.cpuSeconds;
			spread(
				`${name}_cpu_above_idle_ratio`,
				pairs
					.filter((p) => p.has(workflow) && p.has(baseline) && p.has('idle'))
					.map((p) => aboveIdle(p, workflow) / aboveIdle(p, baseline)),
			);
		}
	}
	figures[`events_real_pairs_${label}`] = pairs.length;
	const loads = pairs.flatMap((pair) => [...pair.values()].map((m) => m.loadAverage));
	if (loads.length) {
		figures[`events_real_load_average_min_${label}`] = round(Math.min(...loads), 1);
		figures[`events_real_load_average_max_${label}`] = round(Math.max(...loads), 1);
	}
	// the docs quote the last file-fed comparison measured (test/performanceFigures.test.cts)
	if (label === COMPARISON) figures.events_real_comparison_rows = FILE_ROWS;
	return figures;
}

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
	const table: string[] = [];
	try {
		await n8n.importSimulatorCredential(sim, path.join(workDir, 'credentials.json'), CREDENTIAL);
		await importHeaderAuth(n8n, sim.apiKey, path.join(workDir, 'header-auth.json'));
		const sizes: Array<[number, string, number, Workflow[]]> = [
			[10_000, '10k', Number(process.env.BENCH_N8N_RUNS ?? 0), AT_10K],
			[FILE_ROWS, COMPARISON, Number(process.env.BENCH_N8N_RUNS_100K ?? 3), AT_100K],
			[1_000_000, '1m', Number(process.env.BENCH_N8N_RUNS_1M ?? 0), ['file']],
		];
		const dataDir = freshDir(path.join(workDir, 'files'));
		const env = {
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_RESTRICT_FILE_ACCESS_TO: dataDir,
		};
		// each run's rows at their own millisecond, so that every run stores new events
		let runIndex = 0;
		// a size asked with 0 pairs is skipped: its figures in results.json stay as they are
		for (const [rows, label, pairCount, workflows] of sizes.filter(([, , n]) => n > 0)) {
			const pairs: Pair[] = [];
			for (let pair = 0; pair < pairCount; pair++) {
				const measures: Pair = new Map();
				// every other pair in the reverse order, so that no workflow always follows another
				for (const workflow of pair % 2 ? [...workflows].reverse() : workflows) {
					const id = `${workflow}${label}${pair}`;
					const offsetMs = ++runIndex;
					const csvFile = path.join(dataDir, `${id}.csv`);
					if (FILE_FED.includes(workflow)) writeCsv(csvFile, rows, offsetMs);
					const file = path.join(workDir, `${id}.json`);
					writeJson(
						file,
						workflowJson(id, workflow, rows, offsetMs, sim.baseUrl, sim.apiKey, csvFile),
					);
					await n8n.cliOk(['import:workflow', `--input=${file}`]);
					forgetRequests(sim);
					const storedBefore = storedEvents(sim.org).length;
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
					rmSync(csvFile, { force: true });
					const requests = sim.requestsTo('POST', '/v1/events').length;
					const stored = storedEvents(sim.org).length - storedBefore;
					const expected = workflow === 'idle' ? 0 : rows;
					if (requests !== expected / 100 || stored !== expected)
						throw new Error(`${id}: ${requests} requests and ${stored} events for ${rows} rows`);
					if (workflow === 'file') checkFileSummary(path.join(workDir, `${id}.out.json`), rows);
					rmSync(path.join(workDir, `${id}.out.json`), { force: true });
					log(`${id}: ${JSON.stringify(measure)} (${requests} requests)`);
					measures.set(workflow, measure);
				}
				pairs.push(measures);
				// the figures of the pairs so far, so that a run stopped later keeps them
				if (pair < pairCount - 1) saveFigures(label, sizeFigures(label, workflows, pairs));
			}
			const figures = sizeFigures(label, workflows, pairs);
			if (label === '1m' && figures.events_real_file_cpu_s_1m !== undefined) {
				figures.events_file_requests_1m = rows / 100;
				figures.events_file_peak_rss_mib_1m = figures.events_real_file_peak_rss_mib_1m;
			}
			saveFigures(label, figures);
			for (const workflow of workflows)
				if (figures[`events_real_${workflow}_cpu_s_${label}`] !== undefined)
					table.push(
						`| ${rows.toLocaleString('en')} | ${workflow} | ${figures[`events_real_${workflow}_cpu_s_min_${label}`]}–${figures[`events_real_${workflow}_cpu_s_${label}`]}–${figures[`events_real_${workflow}_cpu_s_max_${label}`]} s (runner ${figures[`events_real_${workflow}_runner_cpu_s_${label}`]} s) | ${figures[`events_real_${workflow}_wall_s_${label}`]} s | ${figures[`events_real_${workflow}_peak_rss_mib_${label}`]} MiB |`,
					);
			console.log(figures);
		}
		if (storedEvents(sim.org).length === 0) throw new Error('no event stored');
	} finally {
		await sim.stop();
	}
	console.log(
		[
			'| rows | workflow | CPU min–median–max | wall | peak memory |',
			'|---|---|---|---|---|',
			...table,
		].join('\n'),
	);
}

/** n8n's Header Auth credential holding the key, imported through a file removed at once. */
async function importHeaderAuth(n8n: N8nInstance, apiKey: string, file: string): Promise<void> {
	const data = { name: 'x-api-key', value: apiKey };
	writeJson(file, [{ ...HEADER_AUTH, type: 'httpHeaderAuth', data }]);
	await n8n.cliOk(['import:credentials', `--input=${file}`, '--decrypted']);
	rmSync(file);
}

/**
 * The keys this bench writes for a size, whatever the workflow: a size measured again replaces
 * them all, so that no figure of an earlier run stays beside the new ones.
 */
const isSizeKey = (key: string, label: string) =>
	key.endsWith(`_${label}`) && (key.startsWith('events_real_') || key.startsWith('events_file_'));

/** Figures written as each size ends, so that a long run stopped later keeps them. */
function saveFigures(label: string, figures: Record<string, number>): void {
	const resultsPath = path.join(ROOT, 'bench', 'results.json');
	const earlier = JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, number>;
	const kept = Object.fromEntries(
		Object.entries(earlier).filter(([key]) => !isSizeKey(key, label)),
	);
	writeFileSync(resultsPath, `${JSON.stringify({ ...kept, ...figures }, null, 2)}\n`);
}

/** The simulator keeps every request it got; a million rows are 10,000 requests of 100 events. */
function forgetRequests(sim: Awaited<ReturnType<typeof startSimulator>>): void {
	sim.requests.length = 0;
}

/** The file workflow's one output item: every row read and created. */
function checkFileSummary(outFile: string, rows: number): void {
	type Runs = Array<{ data?: { main?: Array<Array<{ json?: { summary?: Summary } }>> } }>;
	type Summary = Record<string, unknown>;
	const run = parseExecuteOutput(readFileSync(outFile, 'utf8')) as
		| { data?: { resultData?: { runData?: Record<string, Runs> } } }
		| undefined;
	// the summary holds objects of its own (budgets_announced): read as JSON, not by a pattern
	const summary = Object.values(run?.data?.resultData?.runData ?? {})
		.map((runs) => runs[0]?.data?.main?.[0]?.[0]?.json?.summary)
		.find((found): found is Summary => found !== undefined);
	if (summary?.rows_read !== rows || summary.created !== rows)
		throw new Error(
			`the file's summary does not count ${rows} rows created: ${JSON.stringify(summary)}`,
		);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
