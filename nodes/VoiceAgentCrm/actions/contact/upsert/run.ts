import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { itemError } from '../../../shared/operation';
import { apiRequest } from '../../../transport/request';
import {
	emailKey,
	type ContactDirectory,
	type MatchKey,
	type RequestCount,
} from '../../../shared/contactDirectory';
import { decide, missingKey, type ContactRow, type Decision } from './match';

export type RowStatus =
	| 'created'
	| 'updated'
	| 'unchanged'
	| 'refused'
	| 'would_create'
	| 'would_update';

/** One row's outcome, as the output gives it. */
export interface RowResult extends IDataObject {
	status: RowStatus;
	contact_id?: string;
	/** The fields a creation or an update wrote (or would write). */
	changed?: string[];
	reason?: string;
}

const isConflict = (error: unknown) => error instanceof NodeApiError && error.httpCode === '409';

/**
 * Create or Update, one row at a time: find the row's contact, decide, write. Writes go one after
 * the other, paced by the transport on the organization budget's headers. With `validateOnly`
 * nothing is written: the rows are found and decided, and the output says what would be done.
 */
export class Upsert {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly directory: ContactDirectory,
		private readonly count: RequestCount,
		private readonly key: MatchKey,
		private readonly validateOnly: boolean,
	) {}

	async row(row: ContactRow, itemIndex: number): Promise<RowResult> {
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
		return await this.carryOut(decide(row, matches, holder), row, itemIndex);
	}

	private async carryOut(
		decision: Decision,
		row: ContactRow,
		itemIndex: number,
		afterConflict = false,
	): Promise<RowResult> {
		switch (decision.action) {
			case 'refused':
				return {
					status: 'refused',
					reason: decision.reason,
					...(decision.contact ? { contact_id: String(decision.contact.id) } : {}),
				};
			case 'unchanged':
				return { status: 'unchanged', contact_id: String(decision.contact.id) };
			case 'create':
				if (this.validateOnly)
					return { status: 'would_create', changed: Object.keys(decision.body) };
				try {
					const contact = await this.write('createContact', decision.body, itemIndex);
					return {
						status: 'created',
						contact_id: String(contact.id),
						changed: Object.keys(decision.body),
					};
				} catch (error) {
					if (!isConflict(error) || afterConflict) throw itemError(this.context, error, itemIndex);
					return await this.createdMeanwhile(row, itemIndex, error);
				}
			case 'update': {
				const contactId = String(decision.contact.id);
				const changed = Object.keys(decision.body);
				if (this.validateOnly) return { status: 'would_update', contact_id: contactId, changed };
				try {
					await this.write('updateContact', decision.body, itemIndex, contactId);
					return { status: 'updated', contact_id: contactId, changed };
				} catch (error) {
					if (!isConflict(error) || afterConflict || row.phone_number === undefined)
						throw itemError(this.context, error, itemIndex);
					// the new phone number is another contact's (taken since the run read it)
					const holder = await this.directory.holderOfPhone(row.phone_number);
					if (!holder) throw itemError(this.context, error, itemIndex);
					return await this.carryOut(decide(row, [decision.contact], holder), row, itemIndex, true);
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
		return await this.carryOut(decide(row, same ? [holder] : [], holder), row, itemIndex, true);
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
