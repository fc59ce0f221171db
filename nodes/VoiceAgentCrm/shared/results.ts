import type { IDataObject } from 'n8n-workflow';

/**
 * An endpoint that answers a bare boolean (delete contact, delete tag) as an item: n8n items are
 * objects, so the answer becomes `{deleted, id}` (n8n's UX guidelines: a deletion outputs
 * `{deleted: true}`) with the id of the record it concerns.
 */
export function booleanResult(answer: unknown, id: string): IDataObject {
	return { deleted: answer === true, id };
}
