/**
 * `npm run bench:n8n`: Event → Send in the real n8n 2.38.7 (the one `npm run test:n8n` installs),
 * side by side with the workflow a user would build without the node: a Code node grouping rows by
 * 100 and an HTTP Request per group. Every workflow starts from the same row generator (a Set node
 * and Split Out, no Code node) and sends the same 100-row batches to the simulator on loopback.
 *
 * Each workflow runs with `n8n execute`: whole-process CPU, wall and peak memory (see `execute`). The workflows of one size run one after the other (paired), the figures are the
 * medians over the pairs. Not part of `npm test`: it takes minutes, and this is a shared machine.
 *
 * Environment: N8N_CACHE_DIR (where test:n8n installed n8n), BENCH_N8N_RUNS (pairs at 10,000 rows,
 * default 3), BENCH_N8N_RUNS_100K (default 1), BENCH_N8N_WORKFLOWS_100K (default automatic,fields,codeHttp),
 * BENCH_N8N_SKIP_BUILD=1.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { startSimulator, storedEvents } from '../../simulator';
import {
	freshDir,
	installPaths,
	keepSecret,
	log,
	N8nInstance,
	PACKAGE_NAME,
	ROOT,
	runOk,
	writeJson,
} from '../../scripts/n8n/lib';

const CREDENTIAL = { id: 'VoiceAgentCrmBench', name: 'Voice Agent CRM (bench)' };

/**
 * - automatic: Map Automatically, the rows' field names given once under Field Names.
 * - fields: Map Each Field Below with the expressions dragging a field writes (`{{ $json.email }}`).
 * - json: Event (JSON), one expression per item building the event from the row's fields.
 * - fieldsComputed: Map Each Field Below with expressions n8n must evaluate per item (10,000 rows only:
 *   at 100,000 a run takes minutes on this shared machine).
 * - codeHttp: the hand-made workflow.
 */
type Workflow = 'automatic' | 'fields' | 'json' | 'fieldsComputed' | 'codeHttp';
const WORKFLOWS: Workflow[] = ['automatic', 'fields', 'json', 'fieldsComputed', 'codeHttp'];
const AT_100K = (process.env.BENCH_N8N_WORKFLOWS_100K?.split(',') ?? [
	'automatic',
	'fields',
	'codeHttp',
]) as Workflow[];

interface Measure {
	cpuSeconds: number;
	wallSeconds: number;
	peakRssMiB: number;
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
) {
	const nodes = [...generator(rows, offsetSeconds), ...sendingNodes(workflow, baseUrl, apiKey)];
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

/**
 * One `n8n execute` under GNU time (CPU of n8n and the children it waited for, its task runner
 * among them), its output to a file, not through this process. Peak memory is the largest sum of
 * the resident sets of n8n's process tree, sampled every 50 ms from /proc: the Code node runs in a
 * task runner process of its own, which GNU time's maximum (one process's) would leave out.
 */
async function execute(n8n: N8nInstance, id: string, outFile: string): Promise<Measure> {
	const command = `exec /usr/bin/time -f 'BENCH %U %S %e' ${n8n.install.nodeBin} ${n8n.install.n8nBin} execute --id=${id} --rawOutput > ${outFile}`;
	const child = spawn('bash', ['-c', command], {
		cwd: n8n.userFolder,
		env: n8n.env(),
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	let peakKb = 0;
	const sampler = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb(child.pid!))), 50);
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	clearInterval(sampler);
	const line = stderr.split('\n').find((l) => l.startsWith('BENCH '));
	if (code !== 0 || !line)
		throw new Error(`n8n execute ${id} failed (${code}): ${stderr.slice(-2000)}`);
	const [user, sys, wall] = line.split(' ').slice(1).map(Number);
	return { cpuSeconds: user + sys, wallSeconds: wall, peakRssMiB: peakKb / 1024 };
}

/** Resident memory of a process and all its descendants, in KiB. */
function treeRssKb(root: number): number {
	const children = new Map<number, number[]>();
	const rss = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const status = readFileSync(`/proc/${entry}/status`, 'utf8');
			const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
			rss.set(Number(entry), Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0));
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// the process ended while being read
		}
	}
	let total = 0;
	for (const queue = [root]; queue.length; ) {
		const pid = queue.pop()!;
		total += rss.get(pid) ?? 0;
		queue.push(...(children.get(pid) ?? []));
	}
	return total;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
	const workDir = freshDir(path.join(ROOT, 'bench', '.tmp', 'n8n'));
	const install = installPaths(
		process.env.N8N_CACHE_DIR ?? path.join(homedir(), '.cache', PACKAGE_NAME, 'n8n-2.38.7'),
	);
	const n8n = new N8nInstance(
		install,
		freshDir(path.join(workDir, 'user')),
		freshDir(path.join(workDir, 'logs')),
		0,
	);
	await installPackage(n8n, workDir);
	const sim = await startSimulator({
		apiKey: `vak_${randomBytes(18).toString('hex')}`,
		limits: { events: 10_000_000, ip: 10_000_000 },
	});
	keepSecret(sim.apiKey);
	const figures: Record<string, number> = {};
	const table: string[] = [];
	try {
		writeJson(path.join(workDir, 'credentials.json'), [
			{
				...CREDENTIAL,
				type: 'voiceAgentCrmApi',
				data: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			},
		]);
		await n8n.cliOk([
			'import:credentials',
			`--input=${path.join(workDir, 'credentials.json')}`,
			'--decrypted',
		]);
		const sizes: Array<[number, string, number, Workflow[]]> = [
			[10_000, '10k', Number(process.env.BENCH_N8N_RUNS ?? 3), WORKFLOWS],
			[100_000, '100k', Number(process.env.BENCH_N8N_RUNS_100K ?? 1), AT_100K],
		];
		// a size asked with 0 pairs is skipped: its figures in results.json stay as they are
		for (const [rows, label, pairs, workflows] of sizes.filter(([, , pairs]) => pairs > 0)) {
			const measures = new Map<Workflow, Measure[]>(workflows.map((w) => [w, []]));
			for (let pair = 0; pair < pairs; pair++) {
				for (const workflow of workflows) {
					// each run its own times, so that every run stores its events (no duplicates)
					const id = `${workflow}${label}${pair}`;
					const file = path.join(workDir, `${id}.json`);
					writeJson(
						file,
						workflowJson(
							id,
							workflow,
							rows,
							pair * WORKFLOWS.length + WORKFLOWS.indexOf(workflow),
							sim.baseUrl,
							sim.apiKey,
						),
					);
					await n8n.cliOk(['import:workflow', `--input=${file}`]);
					const before = sim.requestsTo('POST', '/v1/events').length;
					const measure = await execute(n8n, id, path.join(workDir, `${id}.out.json`));
					const requests = sim.requestsTo('POST', '/v1/events').length - before;
					if (requests !== rows / 100)
						throw new Error(`${id}: ${requests} requests for ${rows} rows`);
					log(`${id}: ${JSON.stringify(measure)} (${requests} requests)`);
					measures.get(workflow)!.push(measure);
				}
			}
			const med = (workflow: Workflow, key: keyof Measure) =>
				median(measures.get(workflow)!.map((m) => m[key]));
			for (const workflow of workflows) {
				figures[`events_real_${workflow}_cpu_s_${label}`] = round(med(workflow, 'cpuSeconds'));
				figures[`events_real_${workflow}_wall_s_${label}`] = round(med(workflow, 'wallSeconds'));
				figures[`events_real_${workflow}_peak_rss_mib_${label}`] = Math.round(
					med(workflow, 'peakRssMiB'),
				);
				table.push(
					`| ${rows.toLocaleString('en')} | ${workflow} | ${rows / 100} | ${round(med(workflow, 'cpuSeconds'), 1)} s | ${round(med(workflow, 'wallSeconds'), 1)} s | ${Math.round(med(workflow, 'peakRssMiB'))} MiB |`,
				);
			}
			figures[`events_real_cpu_ratio_vs_code_http_${label}`] = round(
				med('automatic', 'cpuSeconds') / med('codeHttp', 'cpuSeconds'),
			);
			for (const workflow of workflows.filter((w) => w !== 'automatic' && w !== 'codeHttp')) {
				figures[`events_real_${workflow}_cpu_ratio_vs_code_http_${label}`] = round(
					med(workflow, 'cpuSeconds') / med('codeHttp', 'cpuSeconds'),
				);
				figures[`events_real_${workflow}_peak_rss_ratio_vs_code_http_${label}`] = round(
					med(workflow, 'peakRssMiB') / med('codeHttp', 'peakRssMiB'),
				);
			}
			figures[`events_real_peak_rss_ratio_vs_code_http_${label}`] = round(
				med('automatic', 'peakRssMiB') / med('codeHttp', 'peakRssMiB'),
			);
			figures[`events_real_pairs_${label}`] = pairs;
		}
		if (storedEvents(sim.org).length === 0) throw new Error('no event stored');
	} finally {
		await sim.stop();
	}
	const resultsPath = path.join(ROOT, 'bench', 'results.json');
	const results = { ...(JSON.parse(readFileSync(resultsPath, 'utf8')) as object), ...figures };
	writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
	console.log(
		[
			'| rows | workflow | requests | CPU | wall | peak memory |',
			'|---|---|---|---|---|---|',
			...table,
		].join('\n'),
	);
	console.log(figures);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
