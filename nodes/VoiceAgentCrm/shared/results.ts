import type { IDataObject } from 'n8n-workflow';

/**
 * An endpoint that answers a bare boolean (delete contact, delete tag) as an item: n8n items are
 * objects, so the answer becomes `{success, id}` with the id of the record it concerns.
 */
export function booleanResult(answer: unknown, id: string): IDataObject {
	return { success: answer === true, id };
}
