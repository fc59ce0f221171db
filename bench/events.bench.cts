import { fork, type ChildProcess } from 'node:child_process';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import { startSimulator, type Simulator } from '../simulator/index.cts';
import { storedEvents } from '../simulator/index.cts';

/**
 * Event → Send through n8n's engine against the simulator.
 * - `events_requests_10k` (goal 100): requests for 10,000 CRM rows mapped field by field.
 * - `events_engine_cpu_ms_10k`: CPU time of this process over that run. The simulator runs in a
 *   child process, so its work is not counted; what is counted is n8n's engine (the test item
 *   source included), the node's expressions, checks and ID hashing, and the HTTP client.
 *   `events_engine_cpu_ms_10k_computed` maps the same rows with expressions n8n must evaluate per
 *   item, `events_engine_cpu_ms_10k_automatic` with Map Automatically. The real n8n's figures
 *   (whole process, against a Code + HTTP Request workflow) come from `npm run bench:n8n`.
 * - `events_rows_lost` (goal 0): of 5,000 rows with IDs sent on a budget of 5 requests per
 *   second with three 429s and a connection dropped after the batch was stored, the rows that
 *   did not end `created` or `duplicate` with their event stored exactly once.
 * - `events_budget_share` (goal ≥ 0.95): on a budget of 5 requests per 1-second window, rows the
 *   service accepted per full window over what the budget allows (5 × 100).
 */
const FIELDS: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventName: '={{ $json.event }}',
	contactEmail: '={{ $json.email }}',
	additionalFields: { occurredAt: '={{ $json.at }}', value: '={{ $json.amount }}' },
};
const COMPUTED: INodeParameters = {
	...FIELDS,
	eventName: '={{ $json.event.trim() }}',
	contactEmail: '={{ $json.email.toLowerCase() }}',
	additionalFields: { occurredAt: '={{ $json.at.trim() }}', value: '={{ Number($json.amount) }}' },
};
const AUTOMATIC: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventInput: 'autoMapInputData',
	columnNames: { eventName: 'event', occurredAt: 'at', value: 'amount' },
};
const AS_JSON: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventInput: 'json',
	eventJson: '={{ $json }}',
};

/**
 * CRM rows: 200 customers, each with purchases at distinct times (so their derived IDs differ);
 * `shift` seconds later for each run, so that every run stores new events.
 */
function crmRows(count: number, shift: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		event: 'Purchase Completed',
		email: `customer-${i % 200}@example.com`,
		at: new Date(Date.UTC(2024, 0, 1) + i * 60_000 + shift * 1000).toISOString(),
		amount: (i % 90) + 9.9,
	}));
}

const isAnswered = (status: unknown) => status === 'created' || status === 'duplicate';

async function requestsAndCpu(): Promise<Record<string, number>> {
	const child = await simulatorProcess();
	try {
		const figures: Record<string, number> = {};
		for (const [suffix, parameters, shift] of [
			['', FIELDS, 0],
			['_computed', COMPUTED, 1],
			['_automatic', AUTOMATIC, 2],
		] as const) {
			const before = await child.ask<number>('requests');
			const rows = crmRows(10_000, shift);
			const cpuBefore = process.cpuUsage();
			const { items, error } = await runNode({
				credentials: child.credentials,
				parameters,
				items: rows,
			});
			const cpu = process.cpuUsage(cpuBefore);
			if (error) throw new Error(`the 10,000-row run${suffix} failed: ${error.message}`);
			const stored = new Set(await child.ask<string[]>('storedIds'));
			const lost = items.filter(
				(item) => item.json.status !== 'created' || !stored.has(item.json.event_id as string),
			).length;
			if (lost) throw new Error(`${lost} of 10,000 rows were not stored${suffix}`);
			if (suffix === '')
				figures.events_requests_10k = (await child.ask<number>('requests')) - before;
			figures[`events_engine_cpu_ms_10k${suffix}`] = Math.round((cpu.user + cpu.system) / 1000);
		}
		return figures;
	} finally {
		child.stop();
	}
}

async function rowsLost(): Promise<number> {
	const sim = await startSimulator({
		windowMs: 1000,
		fractionalSeconds: true,
		limits: { events: 5, eventsAnonymous: 2 },
	});
	try {
		sim.faults.inject({
			method: 'POST',
			path: '/v1/events',
			fault: { status: 429, retryAfter: 0.2 },
			times: 3,
		});
		sim.faults.inject({
			method: 'POST',
			path: '/v1/events',
			fault: { drop: true, afterHandling: true },
		});
		const rows = Array.from({ length: 5000 }, (_, i) => ({
			event_name: 'bench_lost',
			event_id: `lost-${i}`,
			contact: { email: `lost-${i % 50}@example.com` },
		}));
		const { items, error } = await runNode({
			credentials: credentialsOf(sim),
			parameters: AS_JSON,
			items: rows,
		});
		if (error) return rows.length;
		const storedTimes = new Map<string, number>();
		for (const event of storedEvents(sim.org, { event_name: 'bench_lost' })) {
			storedTimes.set(event.event_id!, (storedTimes.get(event.event_id!) ?? 0) + 1);
		}
		return rows.filter(
			(row, i) => !isAnswered(items[i]?.json.status) || storedTimes.get(row.event_id) !== 1,
		).length;
	} finally {
		await sim.stop();
	}
}

async function budgetShare(): Promise<number> {
	const budget = 5;
	const sim = await startSimulator({
		windowMs: 1000,
		fractionalSeconds: true,
		limits: { events: budget },
	});
	try {
		const rows = Array.from({ length: 4000 }, (_, i) => ({
			event_name: 'bench_share',
			event_id: `share-${i}`,
			contact: { email: `share-${i % 50}@example.com` },
		}));
		const { error } = await runNode({
			credentials: credentialsOf(sim),
			parameters: AS_JSON,
			items: rows,
		});
		if (error) throw new Error(`the budget run failed: ${error.message}`);
		const rowsPerWindow = new Map<number, number>();
		for (const request of sim.requestsTo('POST', '/v1/events').filter((r) => r.status === 200)) {
			const window = Math.floor(request.at / sim.windowMs);
			rowsPerWindow.set(
				window,
				(rowsPerWindow.get(window) ?? 0) + (request.body as { events: unknown[] }).events.length,
			);
		}
		// the first and last windows are partial: the run starts and ends inside them
		const windows = [...rowsPerWindow.keys()].sort((a, b) => a - b);
		const full = windows.slice(1, -1).map((window) => rowsPerWindow.get(window)!);
		const mean = full.reduce((sum, count) => sum + count, 0) / full.length;
		return Math.round((mean / (budget * 100)) * 1000) / 1000;
	} finally {
		await sim.stop();
	}
}

export async function run(): Promise<Record<string, number>> {
	return {
		...(await requestsAndCpu()),
		events_rows_lost: await rowsLost(),
		events_budget_share: await budgetShare(),
	};
}

function credentialsOf(sim: Simulator) {
	return { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
}

interface SimulatorChild {
	credentials: { apiKey: string; baseUrl: string };
	ask<T>(question: 'storedIds' | 'requests'): Promise<T>;
	stop(): void;
}

/** The simulator in a child process (this same file), so that its CPU is not the node's. */
async function simulatorProcess(): Promise<SimulatorChild> {
	const child: ChildProcess = fork(__filename, [], {
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		env: { ...process.env, EVENTS_BENCH_SIMULATOR: '1', TS_NODE_PREFER_TS_EXTS: 'true' },
	});
	const next = <T,>() =>
		new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
	const credentials = await next<{ apiKey: string; baseUrl: string }>();
	return {
		credentials,
		ask: async <T,>(question: string) => {
			const answer = next<T>();
			child.send(question);
			return await answer;
		},
		stop: () => child.kill(),
	};
}

/** Child side: a simulator whose budgets do not limit, answering questions about its store. */
async function serveSimulator(): Promise<void> {
	const sim = await startSimulator({ limits: { events: 100_000, ip: 100_000 } });
	process.on('message', (question) => {
		if (question === 'storedIds')
			process.send!(storedEvents(sim.org).map((event) => event.event_id));
		if (question === 'requests') process.send!(sim.requestsTo('POST', '/v1/events').length);
	});
	process.send!(credentialsOf(sim));
}

if (process.env.EVENTS_BENCH_SIMULATOR === '1') void serveSimulator();
