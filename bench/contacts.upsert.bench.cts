import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import { insertContacts, startSimulator, type Simulator } from '../simulator/index.cts';

const CONTACTS = 20_000;
const ROWS = 5_000;
/** Budgets out of reach, so that the run takes seconds; time is computed from the requests at the reference's budgets. */
const UNLIMITED = { org: 1e9, listing: 1e9, ip: 1e9 };
/** The reference's budgets per minute (API reference, "Limits"), the simulator's defaults. */
const REFERENCE = { org: 120, listing: 20 };

/** An organization of 20,000 contacts, and 5,000 CRM rows: half of them changed contacts, half new. */
async function organization(): Promise<{ sim: Simulator; rows: IDataObject[] }> {
	const sim = await startSimulator({ seed: false, limits: UNLIMITED });
	const contacts = insertContacts(sim, sim.org, CONTACTS);
	const rows: IDataObject[] = [];
	for (let i = 0; i < ROWS / 2; i++)
		rows.push({ phone: contacts[i * 8].phone_number, name: `Changed ${i}` });
	for (let i = 0; i < ROWS / 2; i++)
		rows.push({ phone: `+1666${String(i).padStart(7, '0')}`, name: `New ${i}` });
	return { sim, rows };
}

interface Figures {
	listing: number;
	org: number;
	minutes: number;
	duplicates: number;
}

/** Requests by budget, the least time they take at the reference's budgets, and phones held twice. */
function figures(sim: Simulator): Figures {
	const requests = sim.requests.filter((request) => request.status !== 429);
	const listing = requests.filter((r) => r.method === 'GET' && r.path === '/v1/contacts').length;
	const org = requests.length;
	const phones = new Map<string, number>();
	for (const contact of sim.org.contacts.values())
		phones.set(contact.phone_number, (phones.get(contact.phone_number) ?? 0) + 1);
	return {
		listing,
		org,
		minutes: Math.max(listing / REFERENCE.listing, org / REFERENCE.org),
		duplicates: [...phones.values()].filter((n) => n > 1).length,
	};
}

const credentialsOf = (sim: Simulator) => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });

/** Contact → Create or Update over the 5,000 items. */
async function upsert(): Promise<Figures> {
	const { sim, rows } = await organization();
	try {
		const { items, error } = await runNode({
			credentials: credentialsOf(sim),
			parameters: {
				resource: 'contact',
				operation: 'upsert',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { fullName: '={{ $json.name }}' },
			},
			items: rows,
		});
		if (error) throw new Error(`Create or Update failed: ${error.message}`);
		const statuses = items.map((item) => item.json.status);
		const created = statuses.filter((s) => s === 'created').length;
		const updated = statuses.filter((s) => s === 'updated').length;
		if (created !== ROWS / 2 || updated !== ROWS / 2)
			throw new Error(`expected ${ROWS / 2} created and updated, got ${created} and ${updated}`);
		return figures(sim);
	} finally {
		await sim.stop();
	}
}

/**
 * The workflow users build today with the existing operations: Contact → Get Many filtered on each
 * row's phone (limit 1), then → Update for the rows found and → Create for the others (what an If
 * on the found contact's ID splits), each node run through the engine.
 */
async function perRowWorkflow(): Promise<Figures> {
	const { sim, rows } = await organization();
	try {
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
		if (found.error) throw new Error(`Get Many failed: ${found.error.message}`);
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
		if (updated.error || created.error)
			throw new Error(`the per-row workflow failed: ${(updated.error ?? created.error)!.message}`);
		return figures(sim);
	} finally {
		await sim.stop();
	}
}

/**
 * 5,000 CRM rows (2,500 changed, 2,500 new) into an organization of 20,000 contacts: Create or
 * Update against the per-row lookup workflow, through n8n's engine against the simulator. Time is
 * the least the requests take at the reference's budgets (listing 20 a minute, organization 120),
 * whatever the node does: the larger of listing requests ÷ 20 and all requests ÷ 120, in minutes.
 */
export async function run(): Promise<Record<string, number>> {
	const node = await upsert();
	const baseline = await perRowWorkflow();
	const round = (n: number) => Math.round(n * 10) / 10;
	return {
		contacts_upsert_5k_listing_requests: node.listing,
		contacts_upsert_5k_org_requests: node.org,
		contacts_upsert_5k_minutes_at_reference_budgets: round(node.minutes),
		contacts_upsert_5k_duplicates: node.duplicates,
		contacts_per_row_5k_listing_requests: baseline.listing,
		contacts_per_row_5k_org_requests: baseline.org,
		contacts_per_row_5k_minutes_at_reference_budgets: round(baseline.minutes),
		contacts_per_row_5k_duplicates: baseline.duplicates,
		contacts_upsert_5k_speedup_at_reference_budgets: round(baseline.minutes / node.minutes),
	};
}
