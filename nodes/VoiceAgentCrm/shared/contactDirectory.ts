import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiList, MAX_PAGE_SIZE, type Page } from '../transport/paging';
import type { BudgetKey } from '../transport/pacing';
import { searchDigits } from './phoneNumbers';
import { E164 } from './validation';

/** The field contacts are looked up by. */
export type MatchKey = 'phone' | 'email';

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

/** Text as people mean it: Unicode NFC, zero-width characters removed, trimmed. */
export function cleanText(text: string): string {
	return text.normalize('NFC').replace(ZERO_WIDTH, '').trim();
}

/** A phone as a key: its E.164 form (the API stores phones in international format), else as written. */
export function phoneKey(phone: unknown): string {
	const text = cleanText(String(phone ?? ''));
	const parsed = E164.safeParse(text);
	return parsed.success ? parsed.data : text;
}

/** An email as a key: the service compares emails without regard to case; NFC, no zero-width, trimmed. */
export function emailKey(email: unknown): string {
	return cleanText(String(email ?? '')).toLowerCase();
}

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

/** Ids this run gives the contacts a Validate Only run would create: never sent, never output. */
const IMAGINED = 'would_create:';

export const isImagined = (id: unknown) => String(id).startsWith(IMAGINED);

/**
 * The contacts the run knows, by phone (E.164) and by email (normalised). Complete after a read of
 * the whole organization; otherwise filled by one lookup per key value, as rows need them. The
 * run's own writes are remembered (a Validate Only run's as it imagines them), so a row that
 * repeats an earlier row's key finds its contact, as it will in the real run.
 */
export class ContactDirectory {
	private readonly byId = new Map<string, IDataObject>();
	private readonly phones = new Map<string, Set<string>>();
	private readonly emails = new Map<string, Set<string>>();
	/** Keys a failed write may have changed: looked up again, even in a complete directory. */
	private readonly unsure = new Set<string>();
	private imagined = 0;

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly count: RequestCount,
		private readonly itemIndex: number,
		readonly strategy: Strategy,
		/** The organization's size its first page announced (`pagination.total_rows`), when read. */
		readonly organizationContacts?: number,
	) {}

	/**
	 * The directory for a job whose per-row lookups would cost `lookups` listings, where a read of
	 * the organization costs `ceil(contacts / 1,000)`. The first page (1,000 contacts) tells how
	 * many there are: when it holds them all, that one listing is the whole read; when the lookups
	 * are fewer than the pages still to read, they are done one by one; otherwise every page is
	 * read and no lookup is needed after. A job of one lookup needs no first page: no read costs less.
	 */
	static async open(
		context: IExecuteFunctions,
		count: RequestCount,
		itemIndex: number,
		lookups: number,
	): Promise<ContactDirectory> {
		if (lookups <= 1) return new ContactDirectory(context, count, itemIndex, 'per_row_lookups');
		const probe = new ContactDirectory(context, count, itemIndex, 'organization_read');
		let total: number | undefined;
		let perRow = false;
		const contacts = await probe.read({}, (page) => {
			if (perRow || total !== undefined) return;
			total = page.total;
			const pagesLeft = total === undefined ? Infinity : Math.ceil(total / MAX_PAGE_SIZE) - 1;
			perRow = lookups < pagesLeft;
			return !perRow;
		});
		if (perRow) return new ContactDirectory(context, count, itemIndex, 'per_row_lookups', total);
		const directory = new ContactDirectory(context, count, itemIndex, 'organization_read', total);
		for (const contact of contacts) directory.add(contact);
		return directory;
	}

	/** The lookup chosen and the organization's size that chose it (none for a job of one key). */
	describe(): IDataObject {
		const contacts = this.organizationContacts;
		return contacts === undefined
			? { lookup: this.strategy }
			: { lookup: this.strategy, organization_contacts: contacts };
	}

	/** The contacts whose key (phone or email) is `value`; looked up when not known yet. */
	async find(key: MatchKey, value: string): Promise<IDataObject[]> {
		const index = key === 'phone' ? this.phones : this.emails;
		const wanted = key === 'phone' ? phoneKey(value) : emailKey(value);
		let ids = index.get(wanted);
		const unsure = this.unsure.delete(`${key}:${wanted}`);
		if (!ids && this.strategy === 'organization_read' && !unsure) return [];
		if (!ids || unsure) {
			ids = new Set();
			index.set(wanted, ids);
			for (const contact of await this.lookup(key, wanted)) this.remember(contact);
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

	/**
	 * A write that failed may have taken effect: its keys are looked up again before a later row
	 * relies on them (after a lost creation, the next row with its email finds the contact).
	 */
	forget(row: IDataObject): void {
		for (const [key, index, value] of [
			['phone', this.phones, phoneKey(row.phone_number)],
			['email', this.emails, emailKey(row.email)],
		] as const) {
			if (!value) continue;
			index.delete(value);
			this.unsure.add(`${key}:${value}`);
		}
	}

	/** The contact a Validate Only run would create, known from now on as the real run will know it. */
	imagine(body: IDataObject): IDataObject {
		const contact = { ...body, id: `${IMAGINED}${++this.imagined}` };
		this.remember(contact);
		return contact;
	}

	/** The contacts that hold each of these emails now, read again (after the run's creations). */
	async holdersOfEmails(emails: string[]): Promise<Map<string, IDataObject[]>> {
		const holders = new Map<string, IDataObject[]>(emails.map((email) => [email, []]));
		const pages = Math.ceil((this.organizationContacts ?? Infinity) / MAX_PAGE_SIZE);
		if (emails.length <= pages) {
			for (const email of emails) holders.set(email, await this.lookup('email', email));
			return holders;
		}
		for (const contact of await this.read({})) holders.get(emailKey(contact.email))?.push(contact);
		return holders;
	}

	/** A contact this run wrote, as the answer gives it: its old keys let go, its new ones known. */
	remember(contact: IDataObject): void {
		const id = String(contact.id);
		const old = this.byId.get(id);
		if (old && old !== contact) {
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
		const query = key === 'phone' ? { phone_number: searchDigits(wanted) } : { email: wanted };
		return (await this.read(query)).filter((contact) =>
			key === 'phone'
				? phoneKey(contact.phone_number) === wanted
				: emailKey(contact.email) === wanted,
		);
	}

	/** The contacts the list answers for `query`, every page, counted; `onPage` false ends the read. */
	private async read(
		query: IDataObject,
		onPage?: (page: Page) => boolean | void,
	): Promise<IDataObject[]> {
		return await apiList.call(this.context, 'listContacts', {
			query,
			returnAll: true,
			itemIndex: this.itemIndex,
			onAttempt: this.count.counter(true),
			onPage: (page) => {
				Object.assign(this.count.announced, page.announced);
				return onPage?.(page);
			},
		});
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
	if (!wanted.size) return found;
	await apiList.call(context, 'listContacts', {
		returnAll: true,
		itemIndex,
		onPage: (page) => {
			for (const contact of page.records)
				if (wanted.has(String(contact.id))) found.set(String(contact.id), contact);
			return found.size < wanted.size;
		},
	});
	return found;
}
