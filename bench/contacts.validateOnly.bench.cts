import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import {
	insertContacts,
	seededRandom,
	startSimulator,
	type Simulator,
} from '../simulator/index.cts';

/**
 * Validate Only against the real run on a 100,000-row file with repeated keys (issue 42): the
 * counts the dry run gives, the counts the real run then makes on the same state, and the writes
 * of a re-run. Too long for `npm test`, which runs the same comparison on 5,000 rows
 * (test/node/contact.upsert.sync.test.cts). Run: `npm run bench -- contacts.validateOnly`.
 */

const CONTACTS = 20_000;
const ROWS = Number(process.env.ROWS ?? 100_000);
/** Half the rows carry one of `KEYS / 2` new phones (20 rows each at 100,000 rows), half a phone of the organization drawn at random. */
const KEYS = Math.min(ROWS / 4, 5_000);
const UNLIMITED = { org: 1e9, listing: 1e9, ip: 1e9 };
const WRITES = /^(POST|PATCH|PUT|DELETE)$/;

/** The file: phones repeated with other values, names, countries and plans often blank, 1 row in 97 a bad phone. */
function file(phones: string[]): string {
	const random = seededRandom(42);
	const lines = ['phone_number,full_name,country,plan'];
	const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)];
	for (let row = 0; row < ROWS; row++) {
		const key = Math.floor(random() * KEYS);
		const phone = key % 2 ? pick(phones) : `+4477${String(key).padStart(8, '0')}`;
		lines.push(
			[
				row % 97 === 0 ? 'not a phone' : phone,
				pick(['Ann', 'Bob', '', ' ']),
				pick(['US', 'GB', '']),
				pick(['gold', '', 'silver']),
			].join(','),
		);
	}
	return lines.join('\n');
}

async function runFile(sim: Simulator, csv: string, validateOnly: boolean) {
	const started = Date.now();
	const before = sim.requests.length;
	const { items, error } = await runNode({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			contactSource: 'file',
			customColumns: { entries: [{ column: 'plan' }] },
			options: validateOnly ? { validateOnly } : {},
		},
		items: [{}],
		binary: [
			{
				data: {
					data: Buffer.from(csv, 'utf8').toString('base64'),
					mimeType: 'text/csv',
					fileName: 'sync.csv',
				},
			},
		],
	});
	if (error) throw error;
	const summary = items[0].json.summary as IDataObject;
	const writes = sim.requests.slice(before).filter((r) => WRITES.test(r.method)).length;
	return { summary, writes, seconds: (Date.now() - started) / 1000 };
}

export async function run(): Promise<Record<string, number>> {
	const sim = await startSimulator({ seed: false, limits: UNLIMITED });
	try {
		const phones = insertContacts(sim, sim.org, CONTACTS).map((c) => c.phone_number);
		const csv = file(phones);
		const dry = await runFile(sim, csv, true);
		const real = await runFile(sim, csv, false);
		const again = await runFile(sim, csv, false);
		const pairs = [
			['would_create', 'created'],
			['would_update', 'updated'],
			['unchanged', 'unchanged'],
			['merged', 'merged'],
			['refused', 'refused'],
		];
		const unequal = pairs.filter(([d, r]) => dry.summary[d] !== real.summary[r]).length;
		if (unequal || dry.writes || again.writes)
			throw new Error(
				`Validate Only mispredicted the run: ${JSON.stringify({ dry, real, again: again.writes })}`,
			);
		const count = (summary: IDataObject, key: string) => Number(summary[key] ?? 0);
		return {
			contacts_validate_only_rows: ROWS,
			contacts_validate_only_contacts: CONTACTS,
			contacts_validate_only_counts_unequal: unequal,
			contacts_validate_only_dry_writes: dry.writes,
			contacts_validate_only_created: count(real.summary, 'created'),
			contacts_validate_only_updated: count(real.summary, 'updated'),
			contacts_validate_only_unchanged: count(real.summary, 'unchanged'),
			contacts_validate_only_merged: count(real.summary, 'merged'),
			contacts_validate_only_refused: count(real.summary, 'refused'),
			contacts_validate_only_real_writes: real.writes,
			contacts_validate_only_rerun_writes: again.writes,
		};
	} finally {
		await sim.stop();
	}
}
