import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import type { EndpointName } from '../transport/endpoints';
import { MAX_PAGE_SIZE, readPage } from '../transport/paging';
import { WABA_SENDER } from '../actions/whatsapp/fields';

/** Page size of the editor's lists: enough to pick from, small enough to stay cheap. */
const PAGE = 50;

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle));
}

/** A page of the editor's list from its pagination token (the offset); the next token where the list goes on. */
async function page(
	context: ILoadOptionsFunctions,
	name: EndpointName,
	query: IDataObject,
	token?: string,
): Promise<{ records: IDataObject[]; paginationToken?: string }> {
	const { records, next } = await readPage.call(context, name, {
		query,
		offset: Number(token ?? 0) || 0,
		size: PAGE,
	});
	return { records, paginationToken: next === undefined ? undefined : String(next) };
}

export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const { records, paginationToken } = await page(this, 'listAgents', {}, token);
	const results: INodeListSearchItems[] = records
		.filter((a) => matches(filter, a.name, a.person_name, a.id))
		.map((a) => ({
			name: `${a.name as string}${a.language ? ` (${a.language as string})` : ''}`,
			value: a.id as string,
		}));
	return { results, paginationToken };
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
	const { records, paginationToken } = await page(this, 'listContacts', query, token);
	const results = records.map((c) => ({
		name: `${(c.full_name as string) || 'Unnamed'} (${(c.phone_number as string) || (c.email as string) || (c.id as string)})`,
		value: c.id as string,
	}));
	return { results, paginationToken };
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
	const { records, paginationToken } = await page(
		this,
		'listChannels',
		filter ? { name: filter } : {},
		token,
	);
	return {
		results: records.map(channelEntry),
		paginationToken,
	};
}

/** WhatsApp sends: only the channels that can send (active WABA), filtered by the API. */
export async function searchWabaChannels(
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const query: IDataObject = { ...WABA_SENDER, ...(filter && { name: filter }) };
	const { records, paginationToken } = await page(this, 'listChannels', query, token);
	return {
		results: records.map(channelEntry),
		paginationToken,
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
	const { records, paginationToken } = await page(this, 'listThreads', {}, token);
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
	return { results, paginationToken };
}

async function namesById(
	context: ILoadOptionsFunctions,
	name: 'listContacts' | 'listChannels',
	field: string,
): Promise<Map<string, string>> {
	const { records } = await readPage.call(context, name, { size: MAX_PAGE_SIZE });
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
	const { records, paginationToken } = await page(this, 'listCalls', {}, token);
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
	return { results, paginationToken };
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
	const { records } = await readPage.call(context, 'listPhoneNumbers', { size: PAGE });
	return records.filter((n) => matches(filter, n.name, n.phone_number));
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
	const { records } = await readPage.call(this, 'listTags', { size: PAGE });
	const results = records
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
	const { records, paginationToken } = await page(this, 'listTasks', {}, token);
	const results = records
		.filter((t) => matches(filter, t.brief, t.status, t.id))
		.map((t) => ({
			name: `${t.brief as string} (${t.status as string}, ${t.priority as string})`,
			value: t.id as string,
		}));
	return { results, paginationToken };
}
