import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readNewestFirst } from '../transport/paging';
import { phoneKey } from './contactDirectory';

/**
 * Max Calls per Person (docs/calls.md, "Do not call and calls per person"): the organization's
 * calls of the period, read from the call list (every workflow's and every agent's), counted per
 * number called.
 */

/** Pages of 1,000 calls read at most: a period with more calls cannot be counted. */
export const MAX_COUNT_PAGES = 10;

/** A call already made to a number. */
export interface CallMade {
	call_id: string;
	created_at: string;
}

export interface CallsOfPeriod {
	/** By number (E.164), newest first. */
	byNumber: Map<string, CallMade[]>;
	/** False when the page bound ended the read before the period's start: counts may be short. */
	complete: boolean;
}

/**
 * The calls created since `since` (epoch ms), by number called (`contact.phone_number` of the
 * record): `ceil(calls in the period / 1,000)` listing requests, at least one, at most
 * `MAX_COUNT_PAGES`.
 */
export async function callsOfPeriod(
	context: IExecuteFunctions,
	since: number,
	itemIndex: number,
): Promise<CallsOfPeriod> {
	const byNumber = new Map<string, CallMade[]>();
	const { complete } = await readNewestFirst.call(context, 'listCalls', {
		itemIndex,
		timeOf: (call) => Date.parse(String(call.created_at)),
		since,
		maxPages: MAX_COUNT_PAGES,
		keepRecords: false,
		visit: (call) => {
			const number = phoneKey((call.contact as IDataObject | null | undefined)?.phone_number);
			if (!number) return false;
			const made = { call_id: String(call.id), created_at: String(call.created_at) };
			const calls = byNumber.get(number);
			if (calls) calls.push(made);
			else byNumber.set(number, [made]);
			return false;
		},
	});
	return { byNumber, complete };
}
