import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../transport/request';

export type PlacementEndpoint = 'placePhoneCall' | 'placeContactCall';

/**
 * Place one call: a single request, never repeated (the endpoint's policy). Both Place operations
 * go through here, so that what follows a placement (waiting for the call to end) has one place.
 * A placement that may have started the call says so first (the endpoint's failure contract).
 * Answers `{call_id, agent_id, contact_id, created_at}`.
 */
export async function placeCall(
	context: IExecuteFunctions,
	endpoint: PlacementEndpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const { payload } = await apiRequest.call(context, endpoint, { body, itemIndex });
	return payload as IDataObject;
}
