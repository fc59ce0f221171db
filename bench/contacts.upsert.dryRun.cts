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
 * (test/node/contact.upsert.sync.test.cts). Run: `npx ts-node --transpile-only --prefer-ts-exts
 * bench/contacts.upsert.dryRun.cts`.
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

async function run(sim: Simulator, csv: string, validateOnly: boolean) {
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

async function main(): Promise<void> {
	const sim = await startSimulator({ seed: false, limits: UNLIMITED });
	try {
		const phones = insertContacts(sim, sim.org, CONTACTS).map((c) => c.phone_number);
		const csv = file(phones);
		const dry = await run(sim, csv, true);
		const real = await run(sim, csv, false);
		const again = await run(sim, csv, false);
		const pairs = [
			['would_create', 'created'],
			['would_update', 'updated'],
			['unchanged', 'unchanged'],
			['merged', 'merged'],
			['refused', 'refused'],
		];
		const equal = pairs.every(([d, r]) => dry.summary[d] === real.summary[r]);
		console.log(
			JSON.stringify(
				{
					rows: ROWS,
					contacts: CONTACTS,
					dry_run: { ...dry.summary, writes: dry.writes, seconds: dry.seconds },
					real_run: { ...real.summary, writes: real.writes, seconds: real.seconds },
					re_run: { writes: again.writes, seconds: again.seconds },
					counts_equal: equal,
				},
				null,
				2,
			),
		);
		if (!equal || dry.writes || again.writes) process.exitCode = 1;
	} finally {
		await sim.stop();
	}
}

void main();
