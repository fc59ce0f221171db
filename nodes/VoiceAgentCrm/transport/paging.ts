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
	/** Each page as it is read (its total, the budgets announced); answering false ends the read there. */
	onPage?: (page: Page) => boolean | void;
}

/**
 * A whole list, or its first `limit` records: a thousand at a time, stopping as soon as enough
 * are read or the list ends. A record created while the list is read moves the later ones a place
 * down, so the next page starts with one already read: each record is listed once, by its ID.
 */
export async function apiList(
	this: ApiContext,
	name: EndpointName,
	{ returnAll, limit, onPage, ...options }: ListRequest,
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
		if (onPage?.(page) === false) break;
		next = page.next;
	}
	return records;
}

export interface NewestFirstRequest extends Omit<RequestOptions, 'body'> {
	/** When a record was made or changed: the order the list is sorted in, newest first. */
	timeOf: (record: IDataObject) => number;
	/** Epoch ms: the read ends once a record older than this is read (records at it are read). */
	since?: number;
	/** Each record read, once, newest first; answering true ends the read (the record looked for). */
	visit?: (record: IDataObject) => boolean;
	/** The read ends, unfinished, once this many pages are read. */
	maxPages?: number;
	/** The read ends, unfinished, once this many records are read. */
	maxRecords?: number;
	/** The first page's size (later ones are 1,000): a poll that finds little reads little. */
	firstPageSize?: number;
	/** False: records are only visited, not kept (a scan of 100,000 calls holds none of them). */
	keepRecords?: boolean;
}

export interface NewestFirst {
	/** Each record once (its newest appearance), newest first. */
	records: IDataObject[];
	/** Requests sent. */
	pages: number;
	/**
	 * True when the read reached what it was for: the list's end, a record older than `since`, or
	 * the record `visit` looked for. False when a bound (`maxPages`, `maxRecords`) ended it first:
	 * older records were left unread, and the caller says so.
	 */
	complete: boolean;
}

/**
 * A list sorted newest first (calls by `created_at`, threads by `updated_at`), read from the top
 * down until what the caller needs is read. Such a list only grows at the top while it is read, so
 * a later page has shifted down, never up: a record may show up again (read once) but none is
 * skipped.
 */
export async function readNewestFirst(
	this: ApiContext,
	name: EndpointName,
	{
		timeOf,
		since = -Infinity,
		visit = () => false,
		maxPages = Infinity,
		maxRecords = Infinity,
		firstPageSize = MAX_PAGE_SIZE,
		keepRecords = true,
		...options
	}: NewestFirstRequest,
): Promise<NewestFirst> {
	const read = new Set<string>();
	const records: IDataObject[] = [];
	let pages = 0;
	let next: number | undefined = 0;
	const answer = (complete: boolean): NewestFirst => ({ records, pages, complete });
	while (next !== undefined) {
		if (pages === maxPages || read.size >= maxRecords) return answer(false);
		const page: Page = await readPage.call(this, name, {
			...options,
			offset: next,
			size: pages === 0 ? firstPageSize : MAX_PAGE_SIZE,
		});
		pages++;
		for (const record of page.records) {
			const id = String(record.id);
			if (read.has(id)) continue;
			read.add(id);
			if (keepRecords) records.push(record);
			if (timeOf(record) < since || visit(record)) return answer(true);
		}
		next = page.next;
	}
	return answer(true);
}
