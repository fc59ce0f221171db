import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { assertWabaSender } from './fields';

type SendEndpoint = 'sendMedia' | 'sendTemplate' | 'sendMessage';

/**
 * Send through WhatsApp, from a channel checked to be an active WABA one, and return the answer's `data` (`message_id`, `provider_id`, `thread_id`,
 * and `media_url` for media). The transport repeats a 502 (the reference calls it safe) and waits
 * out a 429; anything else fails the item. The provider's reason leads the error message, since a
 * rejected send (closed 24-hour window, expired channel token, unknown template) is only
 * actionable with it.
 */
export async function wabaSend(
	this: IExecuteFunctions,
	endpoint: SendEndpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	await assertWabaSender(this, body.channel_id as string, itemIndex);
	let answer: IDataObject;
	try {
		answer = (await apiRequest.call(this, endpoint, { body, itemIndex })).payload as IDataObject;
	} catch (error) {
		throw withProviderReason(error, itemIndex);
	}
	if (answer.success !== true) {
		const reason = typeof answer.message === 'string' && answer.message ? answer.message : 'no reason given';
		throw new NodeOperationError(this.getNode(), `Item ${itemIndex}: WhatsApp did not send the message: ${reason}`, {
			itemIndex,
			description: 'The API answered with success: false.',
		});
	}
	return (answer.data ?? {}) as IDataObject;
}

function withProviderReason(error: unknown, itemIndex: number): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const reason = error.errorResponse?.message;
	if (typeof reason === 'string' && reason && error.httpCode === '400') {
		error.message = `Item ${itemIndex}: WhatsApp send rejected: ${reason} (HTTP 400)`;
	}
	return error;
}
