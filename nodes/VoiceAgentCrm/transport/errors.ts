import type { Failure as DeclaredFailure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { shortened } from './text';
import type { Endpoint } from './endpoints';
import type { KeyRemover } from './keyRemoval';
import { MAX_SAME_ORIGIN_REDIRECTS } from './redirects';

/**
 * The words of every failed request, built from the endpoint's failure contract (`endpoints.ts`).
 * Operations add their own context (the item, a call ID) and never reword what is here.
 */

/** What went wrong with one request, as the transport saw it; never the request, so never the key. */
export type Failure =
	/**
	 * No HTTP answer. `reached`: the request may have reached the service (a timeout, a dropped
	 * connection). `plainHttp`: an https:// address answered in plain HTTP (nothing was sent).
	 * `stopped`: n8n aborted it on its way, as the execution was stopped.
	 */
	| { kind: 'noAnswer'; reason: string; reached: boolean; plainHttp?: true; stopped?: true }
	/** An answer with an error status. `json`: the API's own JSON body, not a gateway's web page. */
	| { kind: 'status'; status: number; apiMessage: string; json: boolean; webPage: boolean }
	/**
	 * A 2xx the node cannot read, and a repeat would not read better. `apiShaped`: the body is the
	 * API's own answer for the endpoint (its envelope, its record; cut or changed), so the request
	 * reached the API and was carried out; otherwise a gateway or another server may have answered.
	 */
	| { kind: 'unreadable'; status: number; what: string; webPage?: boolean; apiShaped?: boolean }
	/**
	 * A redirect the transport did not follow (`transport/redirects.ts`): `target` is the origin it
	 * pointed at; `why` says why it was not followed.
	 */
	| { kind: 'redirect'; status: number; target: string; why: RedirectRefusal };

export type RedirectRefusal = 'otherOrigin' | 'otherScheme' | 'changesMethod' | 'tooMany';

/** What the transport did about the failure, for the advice. */
export interface Circumstances {
	itemIndex?: number;
	/** The endpoint's policy repeats this request after it may have taken effect (so it was tried more than once). */
	repeatable: boolean;
	/** Said after everything else (the budget that ran out on a 429). */
	extra?: string;
	/** The wait the service asked for in its last 429 (`retry-after`, `x-ratelimit-reset`). */
	retryAfterMs?: number;
}

/**
 * The failure's cause as n8n reads it from a node's error (`error.failure`, n8n-workflow's
 * `Failure`): n8n's poll back-off (2.36+, durable poll cursors) waits at least a rate limit's
 * `retryAfterMs` before the next poll, and backs off the longest on a refused key until the
 * credential is fixed. Set as plain data, so that an n8n whose n8n-workflow predates the option
 * still carries it.
 */
function declaredCause(
	failure: Failure,
	circumstances: Circumstances,
): DeclaredFailure | undefined {
	if (failure.kind !== 'status') return undefined;
	if (failure.status === 429)
		return circumstances.retryAfterMs
			? { cause: 'rate-limited', retryAfterMs: circumstances.retryAfterMs }
			: { cause: 'rate-limited' };
	if (failure.status === 401) return { cause: 'credential-invalid' };
	return undefined;
}

/**
 * The API's own message from any of the error bodies the reference shows, without the key and cut
 * to a readable length. The key is removed first, markup still in place (so that a key broken by
 * tags is found), and before the cut (so that a cut never leaves part of it).
 */
export function apiMessageOf(body: unknown, keys: KeyRemover): string {
	return shortened(withoutMarkup(keys.text(fullMessageOf(body))), 200);
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
	return typeof body === 'string' ? body : '';
}

function withoutMarkup(text: string): string {
	return text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * Whether the request may have taken effect: it reached the service and no answer says it did
 * not. A 4xx, a 429 and the messaging provider's own 502 say nothing happened.
 */
export function mayHaveTakenEffect(endpoint: Endpoint, failure: Failure): boolean {
	switch (failure.kind) {
		case 'noAnswer':
			return failure.reached;
		case 'unreadable':
			return true;
		case 'status':
			return (
				failure.status >= 500 && !isProviderUnavailable(endpoint, failure.status, failure.json)
			);
		case 'redirect':
			// "see other": the usual answer of a server that carried a write out
			return failure.status === 303 && endpoint.method !== 'GET';
	}
}

/** The messaging provider's 502, in the API's own JSON: the reference calls a send safe to repeat after it, not after a gateway's page. */
export function isProviderUnavailable(endpoint: Endpoint, status: number, json: boolean): boolean {
	return endpoint.repeat === 'provider502' && status === 502 && json;
}

/** What a no-code user can do about each status, where the endpoint's contract does not say otherwise. */
export const STATUS_ADVICE: Record<number, string> = {
	400: 'The API rejected the request as invalid. Check the fields named in the message.',
	401: "The API key was refused. Check the API key in the Voice Agent CRM API credential (it comes from the dashboard's API settings) and that the Base URL points at the right service.",
	403: 'The API key is not allowed to do this.',
	404: 'Not found in this organization: the ID does not exist, was deleted, or belongs to another organization.',
	409: 'The request conflicts with the current state of the record.',
	413: 'The request is too large for the service: a file or text is bigger than it accepts. Send a smaller file, or a public URL to it.',
	414: 'The request was refused before the API read it: an ID or a filter is far too long for a web address. Check the IDs and filters of this item.',
	429: 'The rate limit was still exceeded after waiting. Run fewer items at once or spread the runs over time.',
};
STATUS_ADVICE[431] = STATUS_ADVICE[414];

export const BASE_URL_ADVICE =
	"check the Base URL in the credential: it must be the API's address (a trailing /v1 is fine)";
/** An https:// Base URL on a port that speaks plain HTTP: OpenSSL's own words say nothing to a user. */
export const PLAIN_HTTP =
	'The Base URL uses https:// but the server answered plain HTTP: use http:// in the Base URL, or the port the service serves https on. Nothing was sent.';
/** A Stop while a request waited for its turn (a Retry-After, the pacing, a repeat's backoff). */
export const STOPPED_BEFORE_SENDING =
	'The execution was stopped before this request was sent, so it was not sent.';
/** A 5xx that reaches the general advice was repeated to no avail: what it touches may be repeated. */
const SERVICE_FAILED = 'The service failed to answer. Try again in a little while.';

/** The error of a failed request: its headline from the contract, what happened, and what to check. */
export function failureError(
	node: INode,
	endpoint: Endpoint,
	failure: Failure,
	circumstances: Circumstances,
): NodeApiError {
	const uncertain = mayHaveTakenEffect(endpoint, failure);
	const tookEffectOnce = uncertain && !circumstances.repeatable;
	const contract = endpoint.failure;
	const notes = [
		tookEffectOnce
			? (contract.notRepeated ?? 'It was not sent again, so that it does not take effect twice.')
			: '',
		uncertain &&
		circumstances.repeatable &&
		endpoint.method !== 'GET' &&
		failure.kind !== 'unreadable'
			? 'The request reached the service and may have taken effect.'
			: '',
		uncertain && circumstances.repeatable ? (contract.repeatSafe ?? '') : '',
		circumstances.extra ?? '',
	].filter(Boolean);
	const write = endpoint.method !== 'GET';
	const headline = tookEffectOnce
		? `${contract.mayHaveHappened ?? MAY_HAVE_TAKEN_EFFECT}: ${whatHappened(endpoint, failure)}. ${contract.check ?? 'Check before running the item again.'}`
		: failure.kind === 'unreadable' && write && !failure.webPage
			? failure.apiShaped
				? tookEffectHeadline(endpoint, failure)
				: unknownOutcomeHeadline(endpoint, failure)
			: uncertain && circumstances.repeatable && write && failure.kind !== 'unreadable'
				? `${contract.mayHaveHappened ?? MAY_HAVE_TAKEN_EFFECT}: ${whatHappened(endpoint, failure)} on its last try, and no try got a clear answer. ${SAFE_TO_REPEAT}`
				: generalHeadline(endpoint, failure);
	const response: JsonObject =
		failure.kind === 'status'
			? { statusCode: failure.status, message: failure.apiMessage }
			: { message: headline };
	const error = new NodeApiError(node, response, {
		message: headline,
		description: [`${endpoint.method} ${endpoint.path} ${answered(failure)}`, ...notes].join(' '),
		httpCode: failure.kind === 'noAnswer' ? undefined : String(failure.status),
		itemIndex: circumstances.itemIndex,
	});
	const cause = declaredCause(failure, circumstances);
	if (cause) error.failure = cause;
	return error;
}

/** The headline of a write whose answer does not tell whether it took effect (never for a read). */
export const MAY_HAVE_TAKEN_EFFECT = 'The request may have taken effect';
export const OUTCOME_UNKNOWN = 'Whether the request took effect is unknown';
const SAFE_TO_REPEAT = 'Running the item again is safe: this request does not take effect twice.';

/**
 * A write that is safe to repeat, answered with a 2xx that is not the API's own answer (other JSON,
 * plain text): a gateway, a catch-all or another service may have answered without the API ever
 * seeing the request, so nothing says it took effect.
 */
function unknownOutcomeHeadline(
	endpoint: Endpoint,
	failure: Extract<Failure, { kind: 'unreadable' }>,
): string {
	return `${OUTCOME_UNKNOWN}: the service answered ${endpoint.method} ${endpoint.path} with HTTP ${failure.status} but ${failure.what}, not the API's own answer (a gateway, a catch-all or a wrong Base URL may have answered instead). ${BASE_URL_ADVICE[0].toUpperCase()}${BASE_URL_ADVICE.slice(1)}. ${SAFE_TO_REPEAT}`;
}

/** A write that may have taken effect: what happened, said after "may have been …". */
function whatHappened(endpoint: Endpoint, failure: Failure): string {
	switch (failure.kind) {
		case 'noAnswer':
			return failure.stopped ? failure.reason : `${failure.reason} after it was sent`;
		case 'unreadable':
			return `the service answered ${endpoint.method} ${endpoint.path} with HTTP ${failure.status} but ${failure.what}`;
		case 'status':
			return `the service failed with HTTP ${failure.status} after receiving it${failure.webPage ? " (a web page, not the API's answer)" : ''}`;
		case 'redirect':
			return `the service answered with a redirect (HTTP ${failure.status}) to ${failure.target}, which was not followed`;
	}
}

/**
 * A write the API itself answered with a 2xx the node cannot read (its own answer, cut or
 * changed), where running it again is safe (an update, a stop, a cancel, events with IDs): the
 * 2xx says it took effect; only its answer is missing or odd. A web page is still "a wrong Base URL".
 */
function tookEffectHeadline(
	endpoint: Endpoint,
	failure: Extract<Failure, { kind: 'unreadable' }>,
): string {
	// a batch takes effect event by event: the unread answer held each one's outcome
	const each =
		endpoint.repeat === 'eventIds'
			? ' Each of its events may have been stored or refused; run again, those stored are answered duplicate.'
			: '';
	return `The service answered ${endpoint.method} ${endpoint.path} with HTTP ${failure.status} and ${failure.what}: the request took effect, but its answer could not be read. You can run the item again: this request does not take effect twice.${each}`;
}

/** The headline of a failure that says nothing happened (the credential test's too). */
export function generalHeadline(endpoint: Endpoint, failure: Failure): string {
	switch (failure.kind) {
		case 'noAnswer':
			if (failure.plainHttp) return PLAIN_HTTP;
			return `The service did not answer: ${failure.reason}. Check the Base URL in the credential and that the service is reachable.`;
		case 'unreadable':
			return `The service answered ${endpoint.method} ${endpoint.path} with HTTP ${failure.status} but ${failure.what}. This may be a wrong Base URL (a web page instead of the API) or a service change: ${BASE_URL_ADVICE}.`;
		case 'status':
			return `${statusAdvice(endpoint, failure)} (HTTP ${failure.status})`;
		case 'redirect':
			return redirectHeadline(endpoint, failure);
	}
}

function redirectHeadline(
	endpoint: Endpoint,
	failure: Extract<Failure, { kind: 'redirect' }>,
): string {
	const { status, target } = failure;
	switch (failure.why) {
		case 'otherOrigin':
			return `The service redirected the request to another host (${target}, HTTP ${status}). The redirect was not followed, so the API key was not sent there. Check the Base URL in the credential: it must be the API's own address.`;
		case 'otherScheme':
			return `The service redirected the request to ${target} (HTTP ${status}), the same host on another scheme. The redirect was not followed, so the API key was not sent there. If the API is served there, write ${target} as the Base URL in the credential.`;
		case 'changesMethod':
			return `The service answered ${endpoint.method} ${endpoint.path} with a redirect (HTTP ${status}) that would send it again as a GET. The node never changes a write into a read, so it was not followed: ${BASE_URL_ADVICE}.`;
		case 'tooMany':
			return `The service redirected the request more than ${MAX_SAME_ORIGIN_REDIRECTS} times within ${target}; it was not followed further: ${BASE_URL_ADVICE}.`;
	}
}

/** A status that says nothing happened, or a repeated request that kept failing. */
function statusAdvice(endpoint: Endpoint, failure: Extract<Failure, { kind: 'status' }>): string {
	const { status } = failure;
	// a web page that is not there, or a missing list, is the wrong address, never a missing record;
	// a proxy's page for a 413 or a 429 still means what its status says
	if (failure.webPage && (status === 404 || status === 405))
		return `The service answered with a web page, not the API: ${BASE_URL_ADVICE}.`;
	if (status === 404 && !endpoint.path.includes('{'))
		return `This address has no such list: ${BASE_URL_ADVICE}.`;
	const advice = endpoint.failure.byStatus?.[status] ?? STATUS_ADVICE[status];
	if (advice) return advice.replace('{apiMessage}', failure.apiMessage || 'no reason given');
	if (status >= 500) return SERVICE_FAILED;
	return 'The API answered with an unexpected status.';
}

function answered(failure: Failure): string {
	switch (failure.kind) {
		case 'noAnswer':
			return `got no answer: ${failure.reason}.`;
		case 'unreadable':
			return `answered ${failure.status} with ${failure.what}.`;
		case 'status':
			return `answered ${failure.status}.${failure.apiMessage ? ` The API said: "${failure.apiMessage}".` : ''}`;
		case 'redirect':
			return `answered ${failure.status}, a redirect to ${failure.target}.`;
	}
}
