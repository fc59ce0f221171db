import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callIdField } from './fields';
import { didFirstAttemptDoIt } from './firstAttempt';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import {
	apiRequest,
	isNotTheApisAnswer,
	statusAfterUncertainAttempt,
} from '../../transport/request';
import { withCallId } from '../../shared/results';

/** The status endpoint's word for a call canceled through the cancel endpoint (API reference, call states). */
const CANCELED = 'canceled';

export const cancelCall: Operation = {
	option: {
		name: 'Cancel Scheduled Call',
		value: 'cancel',
		action: 'Cancel scheduled call',
		description: 'Cancel a scheduled call so that it is never placed',
	},
	kind: 'write',
	endpoint: 'cancelCall',
	example: { callId: sample('call') },
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const answer = await apiRequest
			.call(this, 'cancelCall', { params: { callId }, itemIndex })
			.then(
				({ payload }) => ({ canceled: withCallId(payload as IDataObject, callId) }),
				(refusal: unknown) => ({ refusal }),
			);
		if ('canceled' in answer) return answer.canceled;
		if (isNotTheApisAnswer(answer.refusal))
			return await canceledByFirstAttempt(this, callId, itemIndex, answer.refusal, NOT_THE_API);
		if (statusAfterUncertainAttempt(answer.refusal) !== 409) throw answer.refusal;
		return await canceledByFirstAttempt(this, callId, itemIndex, answer.refusal, REPEAT_REFUSED);
	}),
};

/** How the node knows, after each kind of unclear answer. */
const REPEAT_REFUSED =
	"This run's first cancel request got no clear answer; its repeat was refused because the call was no longer scheduled, and the call's status reads canceled.";
const NOT_THE_API =
	"The cancel request was answered with HTTP 2xx but not with the API's answer; the call's status reads canceled.";

/**
 * The cancel request got no clear answer: lost, cut or a 5xx, and its repeat was refused with 409
 * because the call was no longer scheduled; or a 2xx that is not the API's answer. If the call's
 * status reads canceled, it was this run's request that canceled it: say so, and how the node
 * knows (`how`), rather than fail.
 */
async function canceledByFirstAttempt(
	context: IExecuteFunctions,
	callId: string,
	itemIndex: number,
	refusal: unknown,
	how: string,
): Promise<IDataObject> {
	const { didIt } = await didFirstAttemptDoIt(
		context,
		callId,
		itemIndex,
		(status) => status.call_status === CANCELED,
	);
	if (!didIt) throw refusal;
	return {
		call_id: callId,
		canceled: true,
		call_status: CANCELED,
		canceled_how: how,
	};
}
