import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { EndpointName } from '../VoiceAgentCrm/transport/endpoints';
import { MAX_PAGE_SIZE, readPage, type Page } from '../VoiceAgentCrm/transport/paging';

/**
 * First page of a poll: big enough that a quiet minute (and 100 new records) fits in one request,
 * small enough that an idle poll does not download a thousand records.
 */
export const FIRST_PAGE_SIZE = 250;

export interface Scan {
	/** Records read, newest first, each id once (its first, i.e. newest, appearance). */
	records: IDataObject[];
	/** Requests the scan took. */
	pages: number;
}

/**
 * Read a list sorted newest first (calls by `created_at`, threads by `updated_at`) from the top down
 * until a record older than `floor` has been read, the list ends, or `maxRecords` are read.
 *
 * The lists only ever grow at the top (a call is created, a thread is updated and moves up), so a
 * page read after a change has shifted down, never up: a record can show up twice (kept once) but
 * none is skipped. Records at exactly `floor` are read, so ties at the boundary are never lost.
 */
export async function scanNewestFirst(
	context: IPollFunctions,
	endpoint: EndpointName,
	query: IDataObject,
	timeOf: (record: IDataObject) => number,
	floor: number,
	maxRecords = Infinity,
): Promise<Scan> {
	const byId = new Map<string, IDataObject>();
	let pages = 0;
	let next: number | undefined = 0;
	let size = FIRST_PAGE_SIZE;
	while (next !== undefined) {
		const page: Page = await readPage.call(context, endpoint, { query, offset: next, size });
		pages++;
		for (const record of page.records) {
			const id = String(record.id);
			if (!byId.has(id)) byId.set(id, record);
		}
		const last = page.records[page.records.length - 1];
		if (!last || timeOf(last) < floor || byId.size >= maxRecords) break;
		next = page.next;
		size = MAX_PAGE_SIZE;
	}
	return { records: [...byId.values()], pages };
}

/** The newest `maxRecords` of a list (a trigger's baseline, or its test event), whatever their time. */
export async function scanNewest(
	context: IPollFunctions,
	endpoint: EndpointName,
	query: IDataObject,
	maxRecords: number,
): Promise<Scan> {
	return await scanNewestFirst(context, endpoint, query, () => Infinity, Infinity, maxRecords);
}
