import type { IDataObject } from 'n8n-workflow';

import { endpointOf, type EndpointName } from './endpoints';
import type { BudgetKey } from './pacing';
import { pageRequest, type ApiContext, type RequestOptions } from './request';

/**
 * The one pager: every list the nodes read (the operations, the triggers' scans, the Instant
 * Trigger's recovery, the editor's pickers) goes through it, and whether a list pages is the
 * endpoint table's `pages`. `apiRequest` refuses a list that pages (by its types and at run
 * time); only this file sends its pages (`pageRequest`, test/lint/pager.test.cts).
 */

/** Page size cap of the listing endpoints (API reference, "Limits"). */
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest extends Omit<RequestOptions, 'body'> {
	/** Where the page starts; 0 by default. */
	offset?: number;
	/** How many records at most. */
	size: number;
}

export interface Page {
	records: IDataObject[];
	/** Where the next page starts; undefined when the list has ended here. */
	next?: number;
	/** The list's length, when the answer carries it. */
	total?: number;
	/** The budgets' sizes the answer's rate headers announce. */
	announced: Partial<Record<BudgetKey, number>>;
}

/**
 * One page of a list. The list has ended with a page that comes back short or reaches the total
 * the answer carries; a list that does not page answers whole, in one page.
 */
export async function readPage(
	this: ApiContext,
	name: EndpointName,
	{ offset = 0, size, ...options }: PageRequest,
): Promise<Page> {
	const endpoint = endpointOf(name);
	const query = endpoint.pages ? { ...options.query, limit: size, offset } : options.query;
	const { payload, total, announced } = await pageRequest.call(this, name, { ...options, query });
	const records = (Array.isArray(payload) ? payload : []) as IDataObject[];
	if (!endpoint.pages) return { records, announced };
	const end = offset + records.length;
	const ended = records.length < size || (total !== undefined && end >= total);
	return { records, next: ended ? undefined : end, total, announced };
}

export interface ListRequest extends Omit<RequestOptions, 'body'> {
	returnAll: boolean;
	/** Used when `returnAll` is false. */
	limit?: number;
}

/**
 * A whole list, or its first `limit` records: a thousand at a time, stopping as soon as enough
 * are read or the list ends. A record created while the list is read moves the later ones a place
 * down, so the next page starts with one already read: each record is listed once, by its ID.
 */
export async function apiList(
	this: ApiContext,
	name: EndpointName,
	{ returnAll, limit, ...options }: ListRequest,
): Promise<IDataObject[]> {
	const wanted = returnAll ? Infinity : Math.max(0, limit ?? 50);
	const records: IDataObject[] = [];
	const listed = new Set<unknown>();
	let next: number | undefined = 0;
	while (next !== undefined && records.length < wanted) {
		const page: Page = await readPage.call(this, name, {
			...options,
			offset: next,
			size: Math.min(MAX_PAGE_SIZE, wanted - records.length),
		});
		for (const record of page.records) {
			if (records.length === wanted || (record.id !== undefined && listed.has(record.id))) continue;
			listed.add(record.id);
			records.push(record);
		}
		next = page.next;
	}
	return records;
}
