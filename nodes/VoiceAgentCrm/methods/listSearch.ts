import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../transport/request';

/** Page size of the editor's lists: enough to pick from, small enough to stay cheap. */
const PAGE = 50;

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle));
}

function nextToken(offset: number, got: number, total?: number): string | undefined {
	const next = offset + got;
	if (got < PAGE || (total !== undefined && next >= total)) return undefined;
	return String(next);
}

async function page(
	context: ILoadOptionsFunctions,
	name: Parameters<typeof apiRequest>[0],
	query: IDataObject,
	token?: string,
): Promise<{ records: IDataObject[]; offset: number; total?: number }> {
	const offset = Number(token ?? 0) || 0;
	const { payload, total } = await apiRequest.call(context, name, { query: { ...query, limit: PAGE, offset } });
	return { records: (Array.isArray(payload) ? payload : []) as IDataObject[], offset, total };
}

export async function searchAgents(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listAgents', {}, token);
	const results: INodeListSearchItems[] = records
		.filter((a) => matches(filter, a.name, a.person_name, a.id))
		.map((a) => ({ name: `${a.name as string}${a.language ? ` (${a.language as string})` : ''}`, value: a.id as string }));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	// the API filters by partial name; a filter that looks like a phone number or email searches those
	const query: IDataObject = {};
	if (filter?.includes('@')) query.email = filter;
	else if (filter && /^[+\d\s-]+$/.test(filter)) query.phone_number = filter.replace(/[\s-]/g, '');
	else if (filter) query.full_name = filter;
	const { records, offset, total } = await page(this, 'listContacts', query, token);
	const results = records.map((c) => ({
		name: `${(c.full_name as string) || 'Unnamed'} (${(c.phone_number as string) || (c.email as string) || (c.id as string)})`,
		value: c.id as string,
	}));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

export async function searchChannels(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listChannels', filter ? { name: filter } : {}, token);
	const results = records.map((c) => ({
		name: `${c.name as string} (${c.type as string}, ${c.status as string})`,
		value: c.id as string,
	}));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

export async function searchThreads(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listThreads', {}, token);
	const results = records
		.filter((t) => matches(filter, t.id, t.contact_id, t.status))
		.map((t) => ({
			name: `${t.id as string} (${t.status as string}, ${t.channel_type as string}, updated ${t.updated_at as string})`,
			value: t.id as string,
		}));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

async function phoneNumbers(context: ILoadOptionsFunctions, filter?: string): Promise<IDataObject[]> {
	const { payload } = await apiRequest.call(context, 'listPhoneNumbers', {});
	return ((Array.isArray(payload) ? payload : []) as IDataObject[]).filter((n) => matches(filter, n.name, n.phone_number));
}

export async function searchPhoneNumbers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const results = (await phoneNumbers(this, filter)).map((n) => ({
		name: `${n.phone_number as string} (${n.name as string})`,
		value: n.phone_number as string,
	}));
	return { results };
}

export async function searchPhoneNumberIds(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const results = (await phoneNumbers(this, filter)).map((n) => ({
		name: `${n.phone_number as string} (${n.name as string})`,
		value: n.id as string,
	}));
	return { results };
}

export async function searchTags(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	// the tags list is not paginated (inferred endpoint): one request, filtered here
	const { payload } = await apiRequest.call(this, 'listTags', {});
	const results = ((Array.isArray(payload) ? payload : []) as IDataObject[])
		.filter((t) => matches(filter, t.name, t.label, t.id))
		.map((t) => ({ name: `${(t.label as string) || (t.name as string)} (${t.color as string})`, value: t.id as string }));
	return { results };
}

export async function searchTasks(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listTasks', {}, token);
	const results = records
		.filter((t) => matches(filter, t.brief, t.status, t.id))
		.map((t) => ({ name: `${t.brief as string} (${t.status as string}, ${t.priority as string})`, value: t.id as string }));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}
