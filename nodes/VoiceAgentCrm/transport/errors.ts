import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { shortened } from '../shared/text';
import type { Endpoint } from './endpoints';

/** What the API said, reduced to what may be shown: never the request, so never the key. */
export interface ApiFailure {
	status: number;
	apiMessage: string;
}

/** The API's own message from any of the error bodies the reference shows, cut to a readable length. */
export function apiMessageOf(body: unknown): string {
	return shortened(fullMessageOf(body), 200);
}

function fullMessageOf(body: unknown): string {
	if (body && typeof body === 'object') {
		const record = body as Record<string, unknown>;
		for (const key of ['message', 'error', 'detail']) {
			const value = record[key];
			if (typeof value === 'string' && value.trim()) return value.trim();
			if (Array.isArray(value) && value.length) return value.map(String).join('; ');
		}
		return '';
	}
	if (typeof body === 'string') return body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
	return '';
}


/**
 * What a no-code user can do about each status, in the words of the API's rules. `repeatable`
 * tells whether the request could be sent again safely: a write that failed with a 5xx may have
 * taken effect, so it is not invited to "try again".
 */
function adviceFor(status: number, endpoint: Endpoint, repeatable: boolean): string {
	if (status === 400) return 'The API rejected the request as invalid. Check the fields named in the message.';
	if (status === 401) {
		return 'The API key was refused. Check the API key in the Voice Agent CRM API credential (it comes from the dashboard\'s API settings) and that the Base URL points at the right service.';
	}
	if (status === 403) {
		return endpoint.budget === 'events'
			? 'The events add-on is not enabled for this organization. Enable it in the dashboard, then run again.'
			: 'The API key is not allowed to do this.';
	}
	if (status === 404) {
		return 'Not found in this organization: the ID does not exist, was deleted, or belongs to another organization.';
	}
	if (status === 409) return endpoint.conflict ?? 'The request conflicts with the current state of the record.';
	if (status === 413) return 'The request is too large for the service: a file or text is bigger than it accepts. Send a smaller file, or a public URL to it.';
	if (status === 414 || status === 431) {
		return 'The request was refused before the API read it: an ID or a filter is far too long for a web address. Check the IDs and filters of this item.';
	}
	if (status === 429) return 'The rate limit was still exceeded after waiting. Run fewer items at once or spread the runs over time.';
	if (status === 502 && endpoint.repeat === 'provider502') return 'The messaging provider is unavailable. Try again in a little while.';
	if (status >= 500 && repeatable) return 'The service failed to answer. Try again in a little while.';
	if (status >= 500) return 'The service failed while handling the request, which may have taken effect. Check as the description says before running the item again.';
	return 'The API answered with an unexpected status.';
}

export function apiError(
	node: INode,
	endpoint: Endpoint,
	failure: ApiFailure,
	itemIndex: number | undefined,
	extra = '',
	repeatable = true,
): NodeApiError {
	const said = failure.apiMessage ? ` The API said: "${failure.apiMessage}".` : '';
	const response: JsonObject = { statusCode: failure.status, message: failure.apiMessage };
	return new NodeApiError(node, response, {
		message: `${adviceFor(failure.status, endpoint, repeatable)} (HTTP ${failure.status})`,
		description: `${endpoint.method} ${endpoint.path} answered ${failure.status}.${said}${extra ? ` ${extra}` : ''}`,
		httpCode: String(failure.status),
		itemIndex,
	});
}

/** A request that got no HTTP answer at all: refused, dropped or timed out. */
export function noAnswerError(
	node: INode,
	endpoint: Endpoint,
	reason: string,
	itemIndex: number | undefined,
	extra = '',
): NodeApiError {
	return new NodeApiError(
		node,
		{ message: reason },
		{
			message: `The service did not answer: ${reason}. Check the Base URL in the credential and that the service is reachable.`,
			description: `${endpoint.method} ${endpoint.path} got no answer: ${reason}.${extra ? ` ${extra}` : ''}`,
			itemIndex,
		},
	);
}
