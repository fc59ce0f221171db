import type { IDataObject } from 'n8n-workflow';

import type { MatchKey } from '../../../shared/contactDirectory';
import { keyOf, mergeRows, type ContactRow } from './match';
import type { RowResult } from './run';

/** What rows that repeat a key in one run are: one person's rows merged, or duplicates refused. */
export type RepeatedKeys = 'merge' | 'refuse';

interface KeyRows {
	/** The position of the key's first row: the one that is written. */
	first: number;
	/** What the first row writes: its own values, or every row of the key merged in order. */
	row: ContactRow;
	/** The positions of the key's later rows. */
	later: number[];
	/** The first row's outcome, once carried out. */
	result?: RowResult;
}

/**
 * The rows of a run by key, read before any row is carried out, so that a key's rows are one
 * contact written once: with `merge`, the first row writes them all merged (later non-blank values
 * win) and the later rows answer `merged`; with `refuse`, the first row writes its own values and
 * the later rows are refused as its duplicates. Either way the run's result does not depend on the
 * contact's previous state, and running it again writes nothing.
 */
export class RunKeys {
	private readonly byKey = new Map<string, KeyRows>();
	private readonly keyAt = new Map<number, string>();

	constructor(
		private readonly key: MatchKey,
		private readonly repeats: RepeatedKeys,
		/** How the output names a position: `item 3` or `row 4`. */
		private readonly name: (position: number) => string,
	) {}

	/** A row in run order; a row without its key is refused later, on its own. */
	add(position: number, row: ContactRow): void {
		const key = keyOf(this.key, row);
		if (key === undefined) return;
		this.keyAt.set(position, key);
		const known = this.byKey.get(key);
		if (!known) this.byKey.set(key, { first: position, row, later: [] });
		else {
			known.later.push(position);
			if (this.repeats === 'merge') known.row = mergeRows(known.row, row);
		}
	}

	/** How many different keys the run has: what per-row lookups would cost. */
	get size(): number {
		return this.byKey.size;
	}

	/**
	 * The row a position carries out (its key's rows merged), or its answer when it repeats an
	 * earlier row's key.
	 */
	plan(position: number, row: ContactRow): { row: ContactRow } | { answer: RowResult } {
		const key = this.keyAt.get(position);
		const rows = key === undefined ? undefined : this.byKey.get(key);
		if (!rows) return { row };
		if (rows.first === position) return { row: rows.row };
		if (!rows.result) {
			// the first row failed (Continue On Fail): this row tries the key's rows again, looking
			// the contact up afresh, since the failed write may have taken effect
			rows.first = position;
			if (this.repeats === 'refuse') rows.row = row;
			return { row: rows.row };
		}
		const first = this.name(rows.first);
		const contact =
			rows.result.contact_id === undefined ? {} : { contact_id: rows.result.contact_id };
		if (this.repeats === 'refuse')
			return {
				answer: {
					status: 'refused',
					reason: `${this.key === 'phone' ? 'Phone Number' : 'Email'}: the same as ${first}'s; a repeated key is refused (Repeated Keys option)`,
					...contact,
					duplicate_of: first,
				},
			};
		return {
			answer:
				rows.result.status === 'refused'
					? {
							status: 'refused',
							reason: `merged into ${first}, which was refused: ${rows.result.reason ?? ''}`,
							duplicate_of: first,
						}
					: { status: 'merged', ...contact, merged_into: first },
		};
	}

	/** The later rows of the key `position` carries out, with their answers after its outcome. */
	answersAfter(position: number): Array<{ position: number; answer: RowResult }> {
		const key = this.keyAt.get(position);
		const rows = key === undefined ? undefined : this.byKey.get(key);
		if (!rows || rows.first !== position) return [];
		return rows.later
			.filter((at) => at > position)
			.map((at) => ({
				position: at,
				answer: (this.plan(at, rows.row) as { answer: RowResult }).answer,
			}));
	}

	/** The first row's outcome, which its key's later rows report; and what the first row says of them. */
	settle(position: number, result: RowResult): IDataObject {
		const key = this.keyAt.get(position);
		const rows = key === undefined ? undefined : this.byKey.get(key);
		if (!rows || rows.first !== position) return {};
		rows.result = result;
		const later = rows.later.filter((at) => at > position);
		if (!later.length) return {};
		return this.repeats === 'merge'
			? { merged_rows: later.map(this.name) }
			: { duplicates_refused: later.map(this.name) };
	}
}
