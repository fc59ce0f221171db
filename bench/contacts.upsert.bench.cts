import type { IConnections, INode } from 'n8n-workflow';

import { BASE_NODE_STAND_INS } from '../harness/baseNodes.cts';
import {
	CREDENTIAL_REF,
	runNode,
	runWorkflow,
	type CredentialData,
	type WorkflowJson,
} from '../harness/engine.cts';
import { installFakeTime } from '../harness/fakeTime.cts';
import { ACTION_NODE, MANUAL_TRIGGER, TEST_ITEMS } from '../harness/nodeTypes.cts';
import { insertContacts, startSimulator, type Simulator } from '../simulator/index.cts';

/** The reference size: 5,000 rows into 20,000 contacts; two executions at once race at a tenth of it. */
const SIZE = { contacts: 20_000, rows: 5_000 };
const RACE_SIZE = { contacts: 2_000, rows: 500 };
/** Budgets out of reach, so that the counting runs take seconds; the paced run has the reference's. */
const UNLIMITED = { org: 1e9, listing: 1e9, ip: 1e9 };
/** The reference's budgets per minute (API reference, "Limits"), the simulator's defaults. */
const REFERENCE = { org: 120, listing: 20 };

type Row = { phone: string; name: string };

/** An organization of contacts, and CRM rows: half of them changed contacts, half new. */
async function organization(
	size: typeof SIZE,
	budgets: 'unlimited' | 'reference' = 'unlimited',
): Promise<{ sim: Simulator; rows: Row[] }> {
	const sim = await startSimulator({
		seed: false,
		...(budgets === 'unlimited' && { limits: UNLIMITED }),
	});
	const contacts = insertContacts(sim, sim.org, size.contacts);
	const rows: Row[] = [];
	const spread = size.contacts / (size.rows / 2);
	for (let i = 0; i < size.rows / 2; i++)
		rows.push({ phone: contacts[i * spread].phone_number, name: `Changed ${i}` });
	for (let i = 0; i < size.rows / 2; i++)
		rows.push({ phone: `+1666${String(i).padStart(7, '0')}`, name: `New ${i}` });
	return { sim, rows };
}

const credentialsOf = (sim: Simulator): CredentialData => ({
	apiKey: sim.apiKey,
	baseUrl: sim.baseUrl,
});

/**
 * A way to sync the rows, run through n8n's engine: resolves when its execution ended, to whether
 * the execution stopped on an error (a node failed, the rows after it not sent).
 */
type Workflow = (sim: Simulator, rows: Row[]) => Promise<{ failed: boolean }>;

/** Contact → Create or Update over the rows as items. */
const upsert: Workflow = async (sim, rows) => {
	const { error } = await runNode({
		credentials: credentialsOf(sim),
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { fullName: '={{ $json.name }}' },
		},
		items: rows,
	});
	return { failed: error !== undefined };
};

/**
 * The per-row workflow: Contact → Get Many filtered on each row's phone (limit 1), then → Update for
 * the rows found and → Create for the others (what an If on the found contact's ID splits), each
 * node run through the engine; a node that fails stops the workflow there.
 */
const perRow: Workflow = async (sim, rows) => {
	const credentials = credentialsOf(sim);
	const found = await runNode({
		credentials,
		parameters: {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			filters: { phoneNumber: '={{ $json.phone }}' },
		},
		items: rows,
	});
	if (found.error) return { failed: true };
	const idOfRow = new Map<number, string>();
	for (const item of found.items)
		idOfRow.set((item.pairedItem as { item: number }).item, String(item.json.id));
	const toUpdate = rows.flatMap((row, i) =>
		idOfRow.has(i) ? [{ ...row, id: idOfRow.get(i) }] : [],
	);
	const toCreate = rows.filter((_, i) => !idOfRow.has(i));
	const updated = await runNode({
		credentials,
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			updateFields: { fullName: '={{ $json.name }}' },
		},
		items: toUpdate,
	});
	if (updated.error) return { failed: true };
	const created = await runNode({
		credentials,
		parameters: {
			resource: 'contact',
			operation: 'create',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { fullName: '={{ $json.name }}' },
		},
		items: toCreate,
	});
	return { failed: created.error !== undefined };
};

/** A node of the read-once workflow. */
function node(name: string, type: string, parameters: INode['parameters']): INode {
	return {
		id: name,
		name,
		type,
		typeVersion: type === 'n8n-nodes-base.compareDatasets' ? 2.3 : 1,
		position: [0, 0],
		parameters,
		...(type === ACTION_NODE ? { credentials: CREDENTIAL_REF } : {}),
	};
}

/**
 * The best workflow a user builds with existing nodes: Contact → Get Many (Return All) reads the
 * organization once; Compare Datasets pairs the rows (Input A, their columns named as the contact's
 * fields) with the contacts (Input B) on the phone number, comparing only the rows' fields (Fuzzy
 * Compare); In A only → Contact → Create; Different, the row's version with the contact's `id`
 * (Use a Mix of Versions) → Contact → Update; Same sends nothing. One execution of n8n's engine,
 * Compare Datasets being the harness's stand-in of n8n's node (harness/baseNodes.cts).
 */
function readOnceWorkflow(rows: Row[]): WorkflowJson {
	const items = rows.map((row) => ({ phone_number: row.phone, full_name: row.name }));
	const to = (name: string, index = 0) => ({ node: name, type: 'main' as const, index });
	const connections: IConnections = {
		Start: { main: [[to('Rows'), to('Get Many')]] },
		Rows: { main: [[to('Compare Datasets', 0)]] },
		'Get Many': { main: [[to('Compare Datasets', 1)]] },
		'Compare Datasets': { main: [[to('Create')], [], [to('Update')], []] },
	};
	return {
		nodes: [
			node('Start', MANUAL_TRIGGER, {}),
			node('Rows', TEST_ITEMS, { items: JSON.stringify(items), binary: '[]' }),
			node('Get Many', ACTION_NODE, {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				filters: {},
			}),
			node('Compare Datasets', 'n8n-nodes-base.compareDatasets', {
				mergeByFields: { values: [{ field1: 'phone_number', field2: 'phone_number' }] },
				resolve: 'mix',
				preferWhenMix: 'input1',
				exceptWhenMix: 'id',
				fuzzyCompare: true,
				options: {},
			}),
			node('Create', ACTION_NODE, {
				resource: 'contact',
				operation: 'create',
				phoneNumber: '={{ $json.phone_number }}',
				additionalFields: { fullName: '={{ $json.full_name }}' },
			}),
			node('Update', ACTION_NODE, {
				resource: 'contact',
				operation: 'update',
				contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				updateFields: { fullName: '={{ $json.full_name }}' },
			}),
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

const readOnce: Workflow = async (sim, rows) => {
	const run = await runWorkflow(readOnceWorkflow(rows), credentialsOf(sim), BASE_NODE_STAND_INS);
	return { failed: run.data.resultData.error !== undefined };
};

/** Requests of a stretch of the simulator's log, by budget. */
interface Requests {
	listing: number;
	org: number;
	writes: number;
}

function requestsSince(sim: Simulator, from: number): Requests {
	const requests = sim.requests.slice(from).filter((request) => request.status !== 429);
	const contacts = /^\/v1\/contacts(\/[^/]+)?$/;
	return {
		listing: requests.filter((r) => r.method === 'GET' && r.path === '/v1/contacts').length,
		org: requests.length,
		writes: requests.filter((r) => r.method !== 'GET' && contacts.test(r.path)).length,
	};
}

/** Budget minutes of requests at the reference's budgets: the larger of listings ÷ 20 and all ÷ 120. */
const minutesOf = ({ listing, org }: Requests) =>
	Math.max(listing / REFERENCE.listing, org / REFERENCE.org);

/** What the organization holds after a workflow: phones held twice, and rows whose contact lacks the row's name. */
function outcome(sim: Simulator, rows: Row[]): { duplicates: number; rowsNotHeld: number } {
	const byPhone = new Map<string, { full_name?: string | null }[]>();
	for (const contact of sim.org.contacts.values())
		byPhone.set(contact.phone_number, [...(byPhone.get(contact.phone_number) ?? []), contact]);
	return {
		duplicates: [...byPhone.values()].filter((held) => held.length > 1).length,
		rowsNotHeld: rows.filter((row) => byPhone.get(row.phone)?.[0]?.full_name !== row.name).length,
	};
}

interface Figures extends Requests {
	minutes: number;
	duplicates: number;
	rerunWrites: number;
}

/** A workflow on a fresh organization, then again on the same rows: what it writes when nothing changed. */
async function measure(workflow: Workflow, label: string): Promise<Figures> {
	const { sim, rows } = await organization(SIZE);
	try {
		if ((await workflow(sim, rows)).failed) throw new Error(`${label} failed`);
		const first = requestsSince(sim, 0);
		const afterFirst = sim.requests.length;
		if ((await workflow(sim, rows)).failed) throw new Error(`${label} failed on its re-run`);
		const { duplicates, rowsNotHeld } = outcome(sim, rows);
		if (rowsNotHeld) throw new Error(`${label} left ${rowsNotHeld} rows not held`);
		return {
			...first,
			minutes: minutesOf(first),
			duplicates,
			rerunWrites: requestsSince(sim, afterFirst).writes,
		};
	} finally {
		await sim.stop();
	}
}

/**
 * Minutes a workflow takes on the simulator's clock (fake time) at the reference's budgets, which
 * the simulator counts in fixed one-minute windows as the reference's headers describe them: a
 * run that starts late in a window gets its whole budget at once, so where in the minute it
 * starts moves its end by up to a minute.
 */
async function pacedMinutes(workflow: Workflow, label: string): Promise<number> {
	const time = installFakeTime();
	// each run starts as a window opens, so that the two workflows' minutes compare
	time.clock.setSystemTime(Date.parse('2026-11-30T09:00:00Z'));
	try {
		const { sim, rows } = await organization(SIZE, 'reference');
		try {
			const startedAt = time.now();
			const { failed } = await time.runUntilSettled(workflow(sim, rows), {
				stepMs: 1_000,
				maxMs: 12 * 3_600_000,
			});
			if (failed) throw new Error(`${label} failed at the reference's budgets`);
			return (time.now() - startedAt) / 60_000;
		} finally {
			await sim.stop();
		}
	} finally {
		time.uninstall();
	}
}

interface Race {
	failedRuns: number;
	duplicates: number;
	rowsNotHeld: number;
}

/** Two executions of a workflow at once over the same rows: how many fail, and what the organization then holds. */
async function race(workflow: Workflow): Promise<Race> {
	const { sim, rows } = await organization(RACE_SIZE);
	try {
		const runs = await Promise.all([workflow(sim, rows), workflow(sim, rows)]);
		return { failedRuns: runs.filter((run) => run.failed).length, ...outcome(sim, rows) };
	} finally {
		await sim.stop();
	}
}

/**
 * 5,000 CRM rows (2,500 changed, 2,500 new) into an organization of 20,000 contacts: Create or
 * Update against the two workflows users build (the per-row lookup, and the read-once compare),
 * through n8n's engine against the simulator. Budget minutes are what the requests take at the
 * reference's budgets (listing 20 a minute, organization 120): the larger of listings ÷ 20 and all
 * requests ÷ 120; the bound is the writes the rows need (one each) ÷ 120. Paced minutes are the
 * same run measured on the simulator's clock at those budgets.
 * Beside the cost: the writes of a re-run of the same rows, and two executions at once over 500
 * rows into 2,000 contacts (a tenth, for the bench's time).
 */
export async function run(): Promise<Record<string, number>> {
	const round = (n: number) => Math.round(n * 10) / 10;
	const ratio = (n: number) => Math.round(n * 100) / 100;
	const figures: Record<string, number> = {};
	const measured: Record<string, Figures> = {};
	for (const [name, workflow] of [
		['upsert', upsert],
		['per_row', perRow],
		['read_once', readOnce],
	] as const) {
		const of = await measure(workflow, name);
		const raced = await race(workflow);
		// the per-row workflow's 250 minutes of listings are not driven on the clock: its bench time
		const paced = name === 'per_row' ? undefined : await pacedMinutes(workflow, name);
		measured[name] = of;
		Object.assign(figures, {
			[`contacts_${name}_5k_listing_requests`]: of.listing,
			[`contacts_${name}_5k_org_requests`]: of.org,
			[`contacts_${name}_5k_writes`]: of.writes,
			[`contacts_${name}_5k_minutes_at_reference_budgets`]: round(of.minutes),
			...(paced !== undefined && { [`contacts_${name}_5k_paced_minutes`]: round(paced) }),
			[`contacts_${name}_5k_duplicates`]: of.duplicates,
			[`contacts_${name}_5k_rerun_writes`]: of.rerunWrites,
			[`contacts_${name}_500_two_at_once_failed_runs`]: raced.failedRuns,
			[`contacts_${name}_500_two_at_once_duplicates`]: raced.duplicates,
			[`contacts_${name}_500_two_at_once_rows_not_held`]: raced.rowsNotHeld,
		});
	}
	const node = measured.upsert;
	return {
		...figures,
		contacts_5k_write_bound_minutes: round(SIZE.rows / REFERENCE.org),
		contacts_upsert_5k_speedup_at_reference_budgets: ratio(measured.per_row.minutes / node.minutes),
		contacts_upsert_5k_speedup_vs_read_once_at_reference_budgets: ratio(
			measured.read_once.minutes / node.minutes,
		),
	};
}
