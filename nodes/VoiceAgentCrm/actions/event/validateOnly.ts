import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { normalizeEventName, type EventResult } from './rules';

/**
 * Validate Only (a dry run) of Event → Send: every row is read and checked by the node's own rules
 * as a real run checks it, and the output and summary are the same, but no batch is sent: a row
 * that would be sent is answered `valid` (the service's own answer, created or duplicate, needs
 * the request). 0 requests.
 */
export const validateOnlyOption: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to check every row and report the rows that would be refused, with the same output and summary, without sending anything (0 requests). Rows that pass are answered "valid".',
};

/** Whether this run is a dry run: the option sits in the items' Options or the file's. */
export function isValidateOnly(context: IExecuteFunctions): boolean {
	const collection =
		context.getNodeParameter('eventInput', 0, 'fields') === 'file' ? 'fileOptions' : 'options';
	const options = context.getNodeParameter(collection, 0, {}) as { validateOnly?: unknown };
	return options?.validateOnly === true;
}

/** The answer of a row a dry run would have sent, its name as the service would store it. */
export function validResult(event: { event_id?: unknown; event_name?: unknown }): EventResult {
	const original = String(event.event_name);
	const name = normalizeEventName(original);
	return {
		status: 'valid',
		event_id: typeof event.event_id === 'string' ? event.event_id : null,
		event_name: name,
		...(name !== original ? { original_event_name: original } : {}),
	};
}
