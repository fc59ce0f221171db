import type { IDataObject } from 'n8n-workflow';

/**
 * A deletion's boolean answer as an item: delete tag answers a bare `true`, delete contact
 * `{statusCode: 200, data: true}` (the transport unwraps its `data`). n8n items are objects, so the
 * boolean becomes `{success, id}` with the ID of the record it concerns.
 */
export function booleanResult(answer: unknown, id: string): IDataObject {
	return { success: answer === true, id };
}

/**
 * A call as an item, with `call_id` (the name Place AI Call outputs and the README tells users to
 * map) beside the record's own `id`: the same field wherever a call comes from.
 */
export function withCallId(call: IDataObject, callId: unknown = call.id): IDataObject {
	return call.call_id !== undefined || callId === undefined ? call : { call_id: callId, ...call };
}
