import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { callIdField } from './fields';
import { didFirstAttemptDoIt } from './firstAttempt';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import { withCallId } from '../../shared/results';
import { apiRequest, isNotTheApisAnswer } from '../../transport/request';

/** The reason the service gives a call hung up through the stop endpoint (API reference, call states). */
const STOPPED_BY_API = 'user_hangup';

export const stopCall: Operation = {
	option: {
		name: 'Stop',
		value: 'stop',
		action: 'Stop call',
		description: 'Hang up a call that is ringing or in progress, by its call ID',
	},
	kind: 'write',
	endpoint: 'stopCall',
	example: { callId: sample('call') },
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const answer = await apiRequest
			.call(this, 'stopCall', { params: { callId }, itemIndex })
			.catch(async (error: unknown) => {
				if (!isNotTheApisAnswer(error)) throw error;
				return await stoppedDespiteTheAnswer(this, callId, itemIndex, error);
			});
		if (!('payload' in answer)) return answer;
		const result = withCallId(answer.payload as IDataObject, callId);
		if (result.stopped !== false || !answer.repeatedAfterUncertainAttempt) return result;
		return await stoppedByFirstAttempt(this, callId, itemIndex, result);
	}),
};

const hungUpByApi = (status: IDataObject) => status.disconnection_reason === STOPPED_BY_API;

/**
 * The stop request was answered 2xx, but not with the API's answer (a gateway, a catch-all): only
 * the call's status tells whether it was hung up. If it was, say so and how the node knows;
 * otherwise the answer's error stands ("Whether the request took effect is unknown…").
 */
async function stoppedDespiteTheAnswer(
	context: IExecuteFunctions,
	callId: string,
	itemIndex: number,
	error: unknown,
): Promise<IDataObject> {
	const { didIt } = await didFirstAttemptDoIt(context, callId, itemIndex, hungUpByApi);
	if (!didIt) throw error;
	return {
		call_id: callId,
		stopped: true,
		disconnection_reason: STOPPED_BY_API,
		stopped_how:
			"The stop request was answered with HTTP 2xx but not with the API's answer; the call's status says it was hung up through the stop endpoint (disconnection_reason: user_hangup).",
	};
}

/**
 * The first stop request got no clear answer (a 5xx, a timeout, a dropped connection) and its
 * repeat found the call already ended. If the call's status says it was hung up through the stop
 * endpoint, it was this run's first request that stopped it: say so, and how the node knows,
 * rather than "not stopped".
 */
async function stoppedByFirstAttempt(
	context: IExecuteFunctions,
	callId: string,
	itemIndex: number,
	repeat: IDataObject,
): Promise<IDataObject> {
	const { didIt, status } = await didFirstAttemptDoIt(context, callId, itemIndex, hungUpByApi);
	if (!didIt) return { ...repeat, disconnection_reason: status.disconnection_reason ?? null };
	return {
		...repeat,
		stopped: true,
		disconnection_reason: STOPPED_BY_API,
		stopped_how:
			"This run's first stop request got no clear answer; its repeat found the call ended, and the call's status says it was hung up through the stop endpoint (disconnection_reason: user_hangup).",
	};
}
