import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../transport/request';

export type PlacementEndpoint = 'placePhoneCall' | 'placeContactCall';

/**
 * Place one call: a single request, never repeated (the endpoint's policy). Both Place operations
 * go through here, so that what follows a placement (waiting for the call to end) has one place.
 * Answers `{call_id, agent_id, contact_id, created_at}`.
 */
export async function placeCall(
	context: IExecuteFunctions,
	endpoint: PlacementEndpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	try {
		const { payload } = await apiRequest.call(context, endpoint, { body, itemIndex });
		return payload as IDataObject;
	} catch (error) {
		throw withPlacementWarning(error);
	}
}

/**
 * A placement that got a 5xx or no answer at all may still have started the call: say so first,
 * rather than "try again", which could call the person twice.
 */
function withPlacementWarning(error: unknown): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const status = Number(error.httpCode);
	if (error.httpCode && status < 500) return error;
	const what = error.httpCode ? `the service failed with HTTP ${status}` : 'the service did not answer';
	error.message = `The call may have been placed: ${what} after receiving it. It was not sent again, so that nobody is called twice. Check Call → Get Many before running this item again.`;
	return error;
}
