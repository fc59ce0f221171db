import { runNode } from '../harness/engine.cts';
import { startSimulator, insertContacts } from '../simulator/index.cts';

const CONTACTS = 25_000;

/** How many rate windows (aligned like the simulator's fixed windows) received the whole budget. */
function exhaustedWindows(times: number[], windowMs: number, budget: number): number {
	const perWindow = new Map<number, number>();
	for (const at of times)
		perWindow.set(Math.floor(at / windowMs), (perWindow.get(Math.floor(at / windowMs)) ?? 0) + 1);
	return [...perWindow.values()].filter((count) => count >= budget).length;
}

/**
 * Contact → Get Many with Return All over 25,000 contacts, through n8n's engine against the
 * simulator. The window is shortened to 2 s so that the run takes seconds; the listing budget
 * stays the reference's 20 requests per window, so what is measured is the node's pacing on the
 * `-heavy` rate headers. Goals: 25 listing requests (1,000 a page), 0 answers of 429.
 */
export async function run(): Promise<Record<string, number>> {
	const sim = await startSimulator({ windowMs: 2000, fractionalSeconds: true, seed: false });
	try {
		insertContacts(sim, sim.org, CONTACTS);
		const started = Date.now();
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		});
		if (error) throw new Error(`the run failed: ${error.message}`);
		const ids = new Set(items.map((item) => item.json.id));
		if (ids.size !== CONTACTS || items.length !== CONTACTS) {
			throw new Error(
				`expected ${CONTACTS} distinct contacts, got ${items.length} items (${ids.size} distinct)`,
			);
		}
		const listings = sim.requestsTo('GET', '/v1/contacts');
		return {
			contacts_requests_25k: listings.length,
			contacts_429s: listings.filter((request) => request.status === 429).length,
			// windows whose whole listing budget was spent: the node then had to wait for the reset
			contacts_exhausted_windows: exhaustedWindows(
				listings.map((request) => request.at),
				sim.windowMs,
				sim.limits.listing,
			),
			contacts_25k_seconds: Math.round((Date.now() - started) / 100) / 10,
		};
	} finally {
		await sim.stop();
	}
}
