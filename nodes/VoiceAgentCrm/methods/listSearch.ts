import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE } from '../transport/request';
import { WABA_SENDER } from '../actions/whatsapp/fields';

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
	const { payload, total } = await apiRequest.call(context, name, {
		query: { ...query, limit: PAGE, offset },
	});
	return { records: (Array.isArray(payload) ? payload : []) as IDataObject[], offset, total };
}

export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listAgents', {}, token);
	const results: INodeListSearchItems[] = records
		.filter((a) => matches(filter, a.name, a.person_name, a.id))
		.map((a) => ({
			name: `${a.name as string}${a.language ? ` (${a.language as string})` : ''}`,
			value: a.id as string,
		}));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

export async function searchContacts(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
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

function channelEntry(c: IDataObject): INodeListSearchItems {
	return {
		name: `${c.name as string} (${c.type as string}, ${c.status as string})`,
		value: c.id as string,
	};
}

export async function searchChannels(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(
		this,
		'listChannels',
		filter ? { name: filter } : {},
		token,
	);
	return {
		results: records.map(channelEntry),
		paginationToken: nextToken(offset, records.length, total),
	};
}

/** WhatsApp sends: only the channels that can send (active WABA), filtered by the API. */
export async function searchWabaChannels(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const query: IDataObject = { ...WABA_SENDER, ...(filter && { name: filter }) };
	const { records, offset, total } = await page(this, 'listChannels', query, token);
	return {
		results: records.map(channelEntry),
		paginationToken: nextToken(offset, records.length, total),
	};
}

/**
 * Threads named by their contact and channel ("Ana García · WhatsApp Sales · open, updated …").
 * Threads carry only IDs, and contacts cannot be read one by one, so a page of threads costs two
 * more requests at most: one page of contacts (the first thousand; others show their ID) and
 * one of channels. Both are skipped when the page has no threads.
 */
export async function searchThreads(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listThreads', {}, token);
	const contacts = records.length
		? await namesById(this, 'listContacts', 'full_name')
		: new Map<string, string>();
	const channels = records.length
		? await namesById(this, 'listChannels', 'name')
		: new Map<string, string>();
	const results = records
		.map((t) => {
			const contact = contacts.get(t.contact_id as string) || (t.contact_id as string);
			const channel = channels.get(t.channel_id as string) || (t.channel_type as string);
			return {
				name: `${contact} · ${channel} · ${t.status as string}, updated ${readableTime(t.updated_at)}`,
				value: t.id as string,
			};
		})
		.filter((entry) => matches(filter, entry.name, entry.value));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

async function namesById(
	context: ILoadOptionsFunctions,
	name: 'listContacts' | 'listChannels',
	field: string,
): Promise<Map<string, string>> {
	const { payload } = await apiRequest.call(context, name, {
		query: { limit: MAX_PAGE_SIZE, offset: 0 },
	});
	const records = (Array.isArray(payload) ? payload : []) as IDataObject[];
	return new Map(records.map((r) => [r.id as string, (r[field] as string) || '']));
}

/** An ISO timestamp as the editor's lists show it: date and minutes, in UTC. */
function readableTime(value: unknown): string {
	return typeof value === 'string' ? value.replace('T', ' ').slice(0, 16) : '';
}

/** Recent calls, newest first (the API's order), filtered by name, number, status or ID. */
export async function searchCalls(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listCalls', {}, token);
	const results = records
		.map((c) => {
			const contact = (c.contact ?? {}) as IDataObject;
			const who =
				[contact.full_name, contact.phone_number].filter(Boolean).join(', ') || 'Unknown contact';
			return {
				name: `${who} · ${c.call_status as string} · ${readableTime(c.created_at)}`,
				value: c.id as string,
			};
		})
		.filter((entry) => matches(filter, entry.name, entry.value));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}

/** The IANA zones the runtime knows, searchable; no request. */
export async function searchTimeZones(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
	const needle = filter?.toLowerCase().replace(/\s+/g, '_');
	return {
		results: zones
			.filter((zone) => matches(needle, zone))
			.map((zone) => ({ name: zone.replace(/_/g, ' '), value: zone })),
	};
}

async function phoneNumbers(
	context: ILoadOptionsFunctions,
	filter?: string,
): Promise<IDataObject[]> {
	const { payload } = await apiRequest.call(context, 'listPhoneNumbers', {});
	return ((Array.isArray(payload) ? payload : []) as IDataObject[]).filter((n) =>
		matches(filter, n.name, n.phone_number),
	);
}

export async function searchPhoneNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results = (await phoneNumbers(this, filter)).map((n) => ({
		name: `${n.phone_number as string} (${n.name as string})`,
		value: n.phone_number as string,
	}));
	return { results };
}

export async function searchPhoneNumberIds(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results = (await phoneNumbers(this, filter)).map((n) => ({
		name: `${n.phone_number as string} (${n.name as string})`,
		value: n.id as string,
	}));
	return { results };
}

export async function searchTags(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// the tags list is not paginated (inferred endpoint): one request, filtered here
	const { payload } = await apiRequest.call(this, 'listTags', {});
	const results = ((Array.isArray(payload) ? payload : []) as IDataObject[])
		.filter((t) => matches(filter, t.name, t.label, t.id))
		.map((t) => ({
			name: `${(t.label as string) || (t.name as string)} (${t.color as string})`,
			value: t.id as string,
		}));
	return { results };
}

export async function searchTasks(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, offset, total } = await page(this, 'listTasks', {}, token);
	const results = records
		.filter((t) => matches(filter, t.brief, t.status, t.id))
		.map((t) => ({
			name: `${t.brief as string} (${t.status as string}, ${t.priority as string})`,
			value: t.id as string,
		}));
	return { results, paginationToken: nextToken(offset, records.length, total) };
}
