import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { assertWabaSender } from './fields';

type SendEndpoint = 'sendMedia' | 'sendTemplate' | 'sendMessage';

/**
 * Send through WhatsApp, from a channel checked to be an active WABA one, and return the answer's
 * `data` (`message_id`, `provider_id`, `thread_id`, and `media_url` for media). The transport
 * repeats the API's own 502 (the reference calls it safe) and waits out a 429; anything else fails
 * the item, worded by the endpoints' failure contract, which leads a 400 with the provider's
 * reason: a rejected send (closed 24-hour window, unknown template) is only actionable with it.
 */
export async function wabaSend(
	this: IExecuteFunctions,
	endpoint: SendEndpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	await assertWabaSender(this, body.channel_id as string, itemIndex);
	const answer = (await apiRequest.call(this, endpoint, { body, itemIndex }))
		.payload as IDataObject;
	if (answer.success !== true) {
		const reason =
			typeof answer.message === 'string' && answer.message ? answer.message : 'no reason given';
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: WhatsApp did not send the message: ${reason}`,
			{
				itemIndex,
				description: 'The API answered with success: false.',
			},
		);
	}
	return (answer.data ?? {}) as IDataObject;
}
