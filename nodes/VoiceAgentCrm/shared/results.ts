import type { IDataObject } from 'n8n-workflow';

/**
 * A deletion's answer as an item: delete tag answers a bare `true`, delete contact
 * `{statusCode: 200, data: true}` (the transport unwraps its `data`). n8n items are objects, so the
 * answer becomes `{deleted, id}` (n8n's UX guidelines: a deletion outputs `{deleted: true}`) with
 * the id of the record it concerns.
 */
export function booleanResult(answer: unknown, id: string): IDataObject {
	return { deleted: answer === true, id };
}

/**
 * A call as an item, with `call_id` (the name Place AI Call outputs and the README tells users to
 * map) beside the record's own `id`: the same field wherever a call comes from.
 */
export function withCallId(call: IDataObject, callId: unknown = call.id): IDataObject {
	return call.call_id !== undefined || callId === undefined ? call : { call_id: callId, ...call };
}
