import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, type ApiContext, type RequestOptions } from '../../../transport/request';
import { notePlacementSent, type CallOrigin } from './earlierCalls';
import type { PlacementTrace } from './trace';

export type PlacementEndpoint = 'placePhoneCall' | 'placeContactCall';

/**
 * Place one call: a single request, never repeated (the endpoint's policy). Both Place operations
 * and Run Campaign go through here, so that what follows a placement (waiting for the call to
 * end) has one place. A placement that may have started the call says so first (the endpoint's
 * failure contract). The body carries the trace in its metadata; the placement is noted before it
 * is sent (another try of this run then looks for it; a campaign step in n8n's webhook handler has
 * no run to note it on, and its memory is the call list) and logged once placed, with who placed
 * it (never the body: it names the person called). `sendBy`: a scheduled call's latest sending
 * time (transport/request.ts). Answers `{call_id, agent_id, contact_id, created_at}` and its origin.
 */
export async function placeCall(
	context: ApiContext,
	endpoint: PlacementEndpoint,
	body: IDataObject,
	trace: PlacementTrace,
	{ sendBy, callerNotesStop }: Pick<RequestOptions, 'sendBy' | 'callerNotesStop'> = {},
): Promise<{ placement: IDataObject; origin: CallOrigin }> {
	const itemIndex = Number(trace.n8n_item);
	if (isExecution(context)) notePlacementSent(context, itemIndex);
	const { payload } = await apiRequest.call(context, endpoint, {
		body,
		itemIndex,
		sendBy,
		callerNotesStop,
	});
	const placement = payload as IDataObject;
	context.logger.info(`Voice Agent CRM: placed call ${String(placement.call_id)}`, {
		callId: placement.call_id,
		executionId: trace.n8n_execution_id,
		workflowId: trace.n8n_workflow_id,
		node: trace.n8n_node,
		item: itemIndex,
		...(trace.n8n_campaign ? { campaign: trace.n8n_campaign } : {}),
	});
	return {
		placement,
		origin: { already_placed: false, placed_by_execution: trace.n8n_execution_id },
	};
}

/**
 * What canceling a scheduled call did: `canceled`; `notScheduled` (answered 409: it rang already,
 * or another run canceled it); `failed` (any other error, or no answer), with the error.
 */
export type CancelOutcome = { canceled: true } | { notScheduled: true } | { failed: unknown };

/**
 * A claim (a campaign's or a Retry's placement) not confirmed this long before its call's start is
 * canceled then: the cancel's time to go before the call rings.
 */
export const CANCEL_MARGIN_MS = 5_000;

/**
 * Cancel a scheduled call: the one cancel of the placements that take a call back before it rings
 * (a Retry's lost claim, a campaign's lost claim, a halt, a Stop). `urgent`: it takes no paced
 * turn in the budget (transport/pacing.ts), for a cancel racing the call's start.
 */
export async function cancelScheduledCall(
	context: ApiContext,
	callId: string,
	options: Pick<RequestOptions, 'itemIndex' | 'urgent' | 'callerNotesStop'> = {},
): Promise<CancelOutcome> {
	return await apiRequest.call(context, 'cancelCall', { params: { callId }, ...options }).then(
		() => ({ canceled: true as const }),
		(error: unknown) =>
			Number((error as { httpCode?: string }).httpCode) === 409
				? { notScheduled: true as const }
				: { failed: error },
	);
}

function isExecution(context: ApiContext): context is IExecuteFunctions {
	return 'getExecuteData' in context;
}
