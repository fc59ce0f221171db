import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { itemError } from '../../../shared/operation';
import { apiRequest } from '../../../transport/request';
import {
	emailKey,
	isImagined,
	type ContactDirectory,
	type RequestCount,
} from '../../../shared/contactDirectory';
import type { UpsertSettings } from '../upsert.operation';
import { decide, missingKey, type ContactRow, type Decision } from './match';

export type RowStatus =
	| 'created'
	| 'updated'
	| 'unchanged'
	| 'refused'
	| 'would_create'
	| 'would_update'
	| 'merged';

/** One row's outcome, as the output gives it. */
export interface RowResult extends IDataObject {
	status: RowStatus;
	contact_id?: string;
	/** The fields a creation or an update wrote (or would write). */
	changed?: string[];
	reason?: string;
}

/** The contact id the output gives: none for a contact a Validate Only run only imagines. */
const idOf = (contact: IDataObject) =>
	isImagined(contact.id) ? {} : { contact_id: String(contact.id) };

const isConflict = (error: unknown) => error instanceof NodeApiError && error.httpCode === '409';

/** A row refused because another contact holds its phone: tried again once that contact's phone moves. */
interface Blocked {
	row: ContactRow;
	itemIndex: number;
	position: number;
	holder: string;
	/** How many times the run had moved the holder's phone when the row was refused. */
	moves: number;
}

/** A blocked row carried out again: its new result, or its failure. */
export type Retried = { position: number } & ({ result: RowResult } | { error: unknown });

/** A contact this run created matching on email, and the row (position) that created it. */
interface CreatedByEmail {
	contactId: string;
	position: number;
}

/**
 * Create or Update, one row at a time: find the row's contact, decide, write. Writes go one after
 * the other, paced by the transport on the organization budget's headers. With `validateOnly`
 * nothing is written: the rows are found and decided in the same order against the contacts as
 * the run would leave them (what it would create and change is remembered), and the output says
 * what would be done.
 */
export class Upsert {
	private readonly key: UpsertSettings['key'];
	private readonly validateOnly: boolean;
	private readonly createdByEmail = new Map<string, CreatedByEmail>();
	private readonly blocked: Blocked[] = [];
	/** The contacts whose phone the run changed (or would), and how many times. */
	private readonly phoneMoves = new Map<string, number>();
	/** The holder of the phone that refused a row, by its result. */
	private readonly heldBy = new WeakMap<RowResult, string>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly directory: ContactDirectory,
		private readonly count: RequestCount,
		private readonly settings: UpsertSettings,
	) {
		this.key = settings.key;
		this.validateOnly = settings.validateOnly;
	}

	/** Carries a row out; `position` is how the run names it (an item, or a file's row). */
	async row(row: ContactRow, itemIndex: number, position = itemIndex): Promise<RowResult> {
		const missing = missingKey(this.key, row);
		if (missing) return { status: 'refused', reason: missing };
		const value = this.key === 'phone' ? row.phone_number! : row.email!;
		const matches = await this.directory.find(this.key, value);
		// matched by email, the row's phone may be another contact's: known for free after a whole
		// read; a dry run looks it up, where a write would learn it from the API's 409
		const holder =
			this.key === 'email' &&
			row.phone_number !== undefined &&
			(this.directory.strategy === 'organization_read' || this.validateOnly)
				? (await this.directory.find('phone', row.phone_number))[0]
				: undefined;
		const decision = decide(row, matches, holder, this.settings.rules.replaceCustom);
		const sharing = await this.emailSharedBy(decision, row);
		const outcome = await this.carryOut(decision, row, itemIndex);
		const result = { ...outcome, ...sharing };
		if (result.status === 'created' && this.key === 'email')
			this.createdByEmail.set(emailKey(row.email), { contactId: result.contact_id!, position });
		const blockedBy = this.heldBy.get(outcome);
		if (blockedBy !== undefined)
			this.blocked.push({
				row,
				itemIndex,
				position,
				holder: blockedBy,
				moves: this.movesOf(blockedBy),
			});
		return result;
	}

	/**
	 * The rows refused for a phone another contact held, whose holder the run has since given
	 * another phone (a later row moved it), carried out again, until no more go through: so that a
	 * run that moves phones between contacts leaves them as its rows say, and running it again
	 * writes nothing. Validate Only does the same. Answers the new results (or failures) by position.
	 */
	async retryBlocked(): Promise<Retried[]> {
		const retried: Retried[] = [];
		for (let progress = true; progress; ) {
			progress = false;
			for (const entry of this.blocked.splice(0)) {
				if (this.movesOf(entry.holder) === entry.moves) {
					this.blocked.push(entry);
					continue;
				}
				try {
					const result = await this.row(entry.row, entry.itemIndex, entry.position);
					retried.push({ position: entry.position, result });
					if (result.status !== 'refused') progress = true;
				} catch (error) {
					retried.push({ position: entry.position, error });
				}
			}
		}
		return retried;
	}

	private movesOf(contactId: string): number {
		return this.phoneMoves.get(contactId) ?? 0;
	}

	private movedPhone(contact: IDataObject, body: IDataObject): void {
		if (body.phone_number === undefined) return;
		const id = String(contact.id);
		this.phoneMoves.set(id, this.movesOf(id) + 1);
	}

	/**
	 * Matched on phone, a row that creates a contact or gives it an email may give it the email of
	 * another contact: written all the same (the phone decides), and said on the row, since runs
	 * matching on email refuse an email several contacts share. Known after a whole read; looked
	 * up otherwise (one listing), in the real run and in Validate Only alike.
	 */
	private async emailSharedBy(decision: Decision, row: ContactRow): Promise<IDataObject> {
		if (this.key !== 'phone' || row.email === undefined) return {};
		const writesEmail =
			decision.action === 'create' ||
			(decision.action === 'update' && decision.body.email !== undefined);
		if (!writesEmail) return {};
		const own = decision.action === 'update' ? decision.contact.id : undefined;
		const others = (await this.directory.find('email', row.email)).filter(
			(contact) => contact.id !== own,
		);
		if (!others.length) return {};
		const ids = others.map((contact) =>
			isImagined(contact.id) ? 'a contact this run creates' : String(contact.id),
		);
		return {
			email_also_on: ids,
			note: `Email: ${ids.join(', ')} ${ids.length > 1 ? 'have' : 'has'} this email too; written all the same (matched on the phone number), but a run matching on email will refuse it as shared`,
		};
	}

	/**
	 * Emails held by several contacts after the run's creations: the API keeps emails unique for
	 * no one, so another run creating the same email at the same time makes a second contact. Read
	 * once at the end (the cheaper of a lookup per created email and a read of the organization);
	 * each is reported on the row that created this run's contact, with every contact's id.
	 */
	async duplicatesCreated(): Promise<Array<{ position: number; duplicate: IDataObject }>> {
		if (!this.createdByEmail.size) return [];
		const holders = await this.directory.holdersOfEmails([...this.createdByEmail.keys()]);
		const found: Array<{ position: number; duplicate: IDataObject }> = [];
		for (const [email, created] of this.createdByEmail) {
			const others = (holders.get(email) ?? [])
				.map((contact) => String(contact.id))
				.filter((id) => id !== created.contactId);
			if (!others.length) continue;
			found.push({
				position: created.position,
				duplicate: {
					contact_ids: [created.contactId, ...others],
					kept_updating: created.contactId,
					note: `Email: ${others.length + 1} contacts have this email now (${[created.contactId, ...others].join(', ')}): ${others.length > 1 ? 'they were' : 'it was'} created since this run read the contacts (by another run at the same time, or by hand). This run kept updating ${created.contactId}; merge or delete the others, since runs matching on email refuse an email several contacts share.`,
				},
			});
		}
		return found;
	}

	private async carryOut(
		decision: Decision,
		row: ContactRow,
		itemIndex: number,
		afterConflict = false,
	): Promise<RowResult> {
		switch (decision.action) {
			case 'refused': {
				const result: RowResult = {
					status: 'refused',
					reason: decision.reason,
					...(decision.contact ? idOf(decision.contact) : {}),
				};
				if (decision.contact) this.heldBy.set(result, String(decision.contact.id));
				return result;
			}
			case 'unchanged':
				return { status: 'unchanged', ...idOf(decision.contact) };
			case 'create':
				if (this.validateOnly) {
					this.directory.imagine(decision.body);
					return { status: 'would_create', changed: Object.keys(decision.body) };
				}
				try {
					const contact = await this.write('createContact', decision.body, itemIndex);
					return {
						status: 'created',
						contact_id: String(contact.id),
						changed: Object.keys(decision.body),
					};
				} catch (error) {
					if (!isConflict(error) || afterConflict) {
						// it may have been created: the next row with its keys looks them up again
						this.directory.forget(decision.body);
						throw itemError(this.context, error, itemIndex);
					}
					return await this.createdMeanwhile(row, itemIndex, error);
				}
			case 'update': {
				const contactId = String(decision.contact.id);
				const changed = Object.keys(decision.body);
				if (this.validateOnly) {
					this.directory.remember({ ...decision.contact, ...decision.body });
					this.movedPhone(decision.contact, decision.body);
					return { status: 'would_update', ...idOf(decision.contact), changed };
				}
				try {
					await this.write('updateContact', decision.body, itemIndex, contactId);
					this.movedPhone(decision.contact, decision.body);
					return { status: 'updated', contact_id: contactId, changed };
				} catch (error) {
					if (!isConflict(error)) this.directory.forget({ ...decision.contact, ...decision.body });
					if (!isConflict(error) || afterConflict || row.phone_number === undefined)
						throw itemError(this.context, error, itemIndex);
					// the new phone number is another contact's (taken since the run read it)
					const holder = await this.directory.holderOfPhone(row.phone_number);
					if (!holder) throw itemError(this.context, error, itemIndex);
					return await this.carryOut(
						decide(row, [decision.contact], holder, this.settings.rules.replaceCustom),
						row,
						itemIndex,
						true,
					);
				}
			}
		}
	}

	/**
	 * The API refused a second contact with this phone number: another run (or person) created it
	 * since this run read the contacts. Read it: when it is the row's contact (the phone is the key,
	 * or it has the row's email), update it instead; otherwise the row is refused, naming it.
	 */
	private async createdMeanwhile(
		row: ContactRow,
		itemIndex: number,
		error: unknown,
	): Promise<RowResult> {
		const holder = await this.directory.holderOfPhone(row.phone_number!);
		if (!holder) throw itemError(this.context, error, itemIndex);
		const same = this.key === 'phone' || emailKey(holder.email) === emailKey(row.email);
		const decision = decide(row, same ? [holder] : [], holder, this.settings.rules.replaceCustom);
		return await this.carryOut(decision, row, itemIndex, true);
	}

	private async write(
		endpoint: 'createContact' | 'updateContact',
		body: IDataObject,
		itemIndex: number,
		contactId?: string,
	): Promise<IDataObject> {
		const answer = await apiRequest.call(this.context, endpoint, {
			body,
			itemIndex,
			...(contactId ? { params: { contactId } } : {}),
			onAttempt: this.count.counter(false),
		});
		Object.assign(this.count.announced, answer.announced);
		const contact = answer.payload as IDataObject;
		this.directory.remember(contact);
		return contact;
	}
}
