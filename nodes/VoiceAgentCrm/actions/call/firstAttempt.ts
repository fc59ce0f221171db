import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';

/** What the call's status says about an earlier request of this run that got no clear answer. */
export interface FirstAttemptProof {
	/** Whether the status shows the change that request was for (hung up through the API, canceled). */
	didIt: boolean;
	/** The call's status as read. */
	status: IDataObject;
}

/**
 * Did this run's first Stop or Cancel do it? Its answer was unclear (lost, cut, a 5xx, a 2xx that
 * is not the API's answer) and what followed cannot tell; the call's status can. Read it and say
 * whether it shows the change, so that the operation reports what happened, and how it knows.
 */
export async function didFirstAttemptDoIt(
	context: IExecuteFunctions,
	callId: string,
	itemIndex: number,
	shows: (status: IDataObject) => boolean,
): Promise<FirstAttemptProof> {
	const { payload } = await apiRequest.call(context, 'getCallStatus', {
		params: { callId },
		itemIndex,
	});
	const status = (payload ?? {}) as IDataObject;
	return { didIt: shows(status), status };
}
