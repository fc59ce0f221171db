import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_PAGE_SIZE, readPage, type Page } from '../transport/paging';
import type { BudgetKey } from '../transport/pacing';
import { E164 } from './validation';

/** The field contacts are looked up by. */
export type MatchKey = 'phone' | 'email';

/** A phone as a key: its E.164 form (the API stores phones in international format), else as written. */
export function phoneKey(phone: unknown): string {
	const text = String(phone ?? '').trim();
	const parsed = E164.safeParse(text);
	return parsed.success ? parsed.data : text;
}

/** An email as a key: the service compares emails without regard to case. */
export function emailKey(email: unknown): string {
	return String(email ?? '')
		.trim()
		.toLowerCase();
}

/**
 * Up to this many rows, each row's contact is looked up on its own (`GET /v1/contacts?phone_number=…`):
 * one listing request a row, at most one window of the reference's listing budget (20 a minute), so
 * a small job never waits for the listing budget and reads only what it needs. Above it the rows
 * are compared with the pages of the organization's contacts (see `ContactDirectory.open`).
 */
export const PER_ROW_LOOKUPS_MAX = 20;

/** The requests of a run by budget, and the budgets' sizes the last answers announced. */
export class RequestCount {
	listing = 0;
	org = 0;
	announced: Partial<Record<BudgetKey, number>> = {};

	/** For `onAttempt`: every request draws on the organization budget, a listing on its own too. */
	counter(listing: boolean): () => void {
		return () => {
			this.org++;
			if (listing) this.listing++;
		};
	}
}

export type Strategy = 'per_row_lookups' | 'organization_read';

/**
 * The contacts the run knows, by phone (E.164) and by email (lower case). Complete after a read of
 * the whole organization; otherwise filled by one lookup per key value, as rows need them. The
 * run's own writes are remembered, so a row that repeats an earlier row's key finds its contact.
 */
export class ContactDirectory {
	private readonly byId = new Map<string, IDataObject>();
	private readonly phones = new Map<string, Set<string>>();
	private readonly emails = new Map<string, Set<string>>();

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly count: RequestCount,
		private readonly itemIndex: number,
		readonly strategy: Strategy,
	) {}

	/**
	 * The directory for a job of `rows` rows (Infinity when unknown, a file past its first rows).
	 * Up to `PER_ROW_LOOKUPS_MAX` rows: per-row lookups. Otherwise the first page of the
	 * organization's contacts (1,000) tells how many there are: when the rows are fewer than the
	 * pages still to read, per-row lookups cost less of the listing budget; otherwise every page is
	 * read, `ceil(contacts / 1,000)` listing requests in all, and no lookup is needed after.
	 */
	static async open(
		context: IExecuteFunctions,
		count: RequestCount,
		itemIndex: number,
		rows: number,
	): Promise<ContactDirectory> {
		const perRow = new ContactDirectory(context, count, itemIndex, 'per_row_lookups');
		if (rows <= PER_ROW_LOOKUPS_MAX) return perRow;
		const directory = new ContactDirectory(context, count, itemIndex, 'organization_read');
		let page = await directory.page({}, 0);
		const pagesLeft =
			page.total === undefined ? Infinity : Math.ceil(page.total / MAX_PAGE_SIZE) - 1;
		if (rows < pagesLeft) return perRow;
		for (;;) {
			for (const contact of page.records) directory.add(contact);
			if (page.next === undefined) break;
			page = await directory.page({}, page.next);
		}
		return directory;
	}

	/** The contacts whose key (phone or email) is `value`; looked up when not known yet. */
	async find(key: MatchKey, value: string): Promise<IDataObject[]> {
		const index = key === 'phone' ? this.phones : this.emails;
		const wanted = key === 'phone' ? phoneKey(value) : emailKey(value);
		let ids = index.get(wanted);
		if (!ids && this.strategy === 'organization_read') return [];
		if (!ids) {
			ids = new Set();
			index.set(wanted, ids);
			for (const contact of await this.lookup(key, wanted)) this.add(contact);
		}
		return [...ids].map((id) => this.byId.get(id)!);
	}

	/**
	 * The contact that holds a phone number now, read again whatever is known: after a 409, another
	 * run (or person) has created it since the run read the contacts.
	 */
	async holderOfPhone(phone: string): Promise<IDataObject | undefined> {
		const wanted = phoneKey(phone);
		const [holder] = await this.lookup('phone', wanted);
		if (holder) this.remember(holder);
		return holder;
	}

	/** A contact this run wrote, as the answer gives it: its old keys let go, its new ones known. */
	remember(contact: IDataObject): void {
		const id = String(contact.id);
		const old = this.byId.get(id);
		if (old) {
			this.phones.get(phoneKey(old.phone_number))?.delete(id);
			this.emails.get(emailKey(old.email))?.delete(id);
		}
		this.add(contact);
	}

	private add(contact: IDataObject): void {
		const id = String(contact.id);
		this.byId.set(id, contact);
		this.indexed(this.phones, phoneKey(contact.phone_number), id);
		if (emailKey(contact.email)) this.indexed(this.emails, emailKey(contact.email), id);
	}

	/**
	 * Per-row lookups add to a key only once it was looked up: a key never read may have contacts
	 * the run does not know of. A complete directory knows every key.
	 */
	private indexed(index: Map<string, Set<string>>, key: string, id: string): void {
		const ids = index.get(key);
		if (ids) ids.add(id);
		else if (this.strategy === 'organization_read' || index === this.phones)
			index.set(key, new Set([id]));
	}

	/**
	 * The contacts with this phone or email. The list's filter is a partial match (a phone's digits
	 * may sit inside a longer number, an email inside another), so the answer is narrowed to equal
	 * keys. A phone is searched by its digits, without the `+`, which some servers read from a query
	 * as a space.
	 */
	private async lookup(key: MatchKey, wanted: string): Promise<IDataObject[]> {
		const query = key === 'phone' ? { phone_number: wanted.replace(/^\+/, '') } : { email: wanted };
		const found: IDataObject[] = [];
		let next: number | undefined = 0;
		while (next !== undefined) {
			const page = await this.page(query, next);
			found.push(...page.records);
			next = page.next;
		}
		return found.filter((contact) =>
			key === 'phone'
				? phoneKey(contact.phone_number) === wanted
				: emailKey(contact.email) === wanted,
		);
	}

	private async page(query: IDataObject, offset: number) {
		const page = await readPage.call(this.context, 'listContacts', {
			query,
			offset,
			size: MAX_PAGE_SIZE,
			itemIndex: this.itemIndex,
			onAttempt: this.count.counter(true),
		});
		Object.assign(this.count.announced, page.announced);
		return page;
	}
}

/**
 * The contacts with these IDs (the list has no filter by ID): the organization's contacts read a
 * page of 1,000 at a time until every one is found or the list ends, at most
 * `ceil(contacts / 1,000)` listing requests. An ID not in the list has no entry.
 */
export async function contactsWithIds(
	context: IExecuteFunctions,
	ids: Iterable<string>,
	itemIndex: number,
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(ids);
	const found = new Map<string, IDataObject>();
	let next: number | undefined = 0;
	while (next !== undefined && found.size < wanted.size) {
		const page: Page = await readPage.call(context, 'listContacts', {
			offset: next,
			size: MAX_PAGE_SIZE,
			itemIndex,
		});
		for (const contact of page.records)
			if (wanted.has(String(contact.id))) found.set(String(contact.id), contact);
		next = page.next;
	}
	return found;
}
