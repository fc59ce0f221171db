import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { EndpointName } from '../VoiceAgentCrm/transport/endpoints';
import { readNewestFirst } from '../VoiceAgentCrm/transport/paging';

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
 * until a record older than `floor` has been read, the list ends, or `maxRecords` are read, through
 * the pager's newest-first read (records at exactly `floor` are read, so ties at the boundary are
 * never lost).
 */
export async function scanNewestFirst(
	context: IPollFunctions,
	endpoint: EndpointName,
	query: IDataObject,
	timeOf: (record: IDataObject) => number,
	floor: number,
	maxRecords = Infinity,
): Promise<Scan> {
	const { records, pages } = await readNewestFirst.call(context, endpoint, {
		query,
		timeOf,
		since: floor,
		maxRecords,
		firstPageSize: FIRST_PAGE_SIZE,
	});
	return { records, pages };
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
