import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ENDPOINTS, endpointPath, type Endpoint, type EndpointName } from './endpoints';
import { apiError, apiMessageOf, noAnswerError } from './errors';
import {
	BUDGET_LABELS,
	budgetsOf,
	exhaustedBudget,
	observeRateHeaders,
	secondsHeader,
	waitForBudgets,
} from './pacing';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'voiceAgentCrmApi';

/**
 * Bounds of the repeat policy: a run never hangs on a budget that does not come back.
 *
 * `timeoutMs` is how long one request may take before it counts as unanswered (then repeated or
 * not, by the endpoint's policy). It is a setting of the package, not a node option: the service's
 * answers take well under a second, and a user who shortened it would only turn slow placements
 * and sends into "may have been placed" failures, which cannot be repeated. Tests lower it (and
 * the backoff) here rather than wait 30 s.
 */
export const RETRY_LIMITS = {
	rateLimitTries: 6,
	rateLimitTotalWaitMs: 5 * 60_000,
	transientTries: 3,
	transientBackoffMs: 1_000,
	timeoutMs: 30_000,
};

export interface RequestOptions {
	params?: Record<string, string>;
	query?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** Event batches: true when every event has an `event_id`, so a repeat cannot store twice. */
	repeatSafe?: boolean;
	/** Event batches carrying anonymous events also draw on the anonymous budget. */
	anonymous?: boolean;
	timeoutMs?: number;
}

export interface ApiAnswer<T = unknown> {
	/** The payload: `data` of an envelope, or the bare body. */
	payload: T;
	/** `pagination.total_rows` or `count`, when the answer carries one. */
	total?: number;
	status: number;
	/** How many 429s were waited out before this answer; callers that poll slow down after one. */
	rateLimited: number;
}

/** The base URL as users paste it: trailing slashes and a trailing `/v1` are dropped. */
export function normalizeBaseUrl(raw: unknown): string | undefined {
	const trimmed = String(raw ?? '').trim();
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) return undefined;
	return trimmed.replace(/\/+$/, '').replace(/\/v1$/i, '');
}

async function baseUrlOf(context: ApiContext, itemIndex: number | undefined): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	if (!baseUrl) {
		throw new NodeOperationError(
			context.getNode(),
			'The Base URL in the Voice Agent CRM API credential must start with http:// or https://',
			{ itemIndex },
		);
	}
	return baseUrl;
}

function parseBody(body: unknown): { parsed: unknown; malformed: boolean } {
	if (typeof body !== 'string') return { parsed: body, malformed: false };
	if (!body.trim()) return { parsed: undefined, malformed: false };
	try {
		return { parsed: JSON.parse(body), malformed: false };
	} catch {
		return { parsed: body, malformed: true };
	}
}

/** Whether a request that got a 5xx, or no answer at all, may be sent again. */
function mayRepeat(endpoint: Endpoint, status: number | undefined, options: RequestOptions): boolean {
	switch (endpoint.repeat) {
		case 'idempotent':
			return status === undefined || status >= 500;
		case 'provider502':
			return status === 502;
		case 'eventIds':
			return options.repeatSafe === true && (status === undefined || status >= 500);
		case 'never':
			return false;
	}
}

/** Whether the request may be sent again after it may have taken effect (a 5xx or no answer). */
function isRepeatable(endpoint: Endpoint, options: RequestOptions): boolean {
	return mayRepeat(endpoint, 500, options);
}

/**
 * What the user must know when a request failed after it may have taken effect (a 5xx, no answer,
 * or an answer the node cannot read): whether running the item again is safe, and what to check.
 */
function notRepeatedNote(endpoint: Endpoint, options: RequestOptions): string {
	if (endpoint.notRepeated) return endpoint.notRepeated;
	if (endpoint.repeat === 'never') {
		return 'The request was not repeated because it may already have taken effect. Check before running the item again.';
	}
	if (endpoint.repeat === 'provider502') {
		return 'The message was not sent again, so that the contact does not get it twice: the first attempt may have sent it. Check the conversation (Thread → Get Many, or the inbox) before running this item again.';
	}
	if (endpoint.repeat === 'eventIds' && !options.repeatSafe) {
		return 'The batch was not repeated because some events have no event ID, so a repeat could store them twice: the first attempt may have stored them. Give every event an ID (or keep "Derive Event IDs" on) to make batches safe to repeat.';
	}
	if (endpoint.repeat === 'eventIds') {
		return 'Every event has an ID, so running the items again is safe: events already stored are answered duplicate, not stored twice.';
	}
	return '';
}

function unexpectedAnswer(
	context: ApiContext,
	endpoint: Endpoint,
	status: number,
	what: string,
	options: RequestOptions,
): NodeOperationError {
	const note = notRepeatedNote(endpoint, options);
	return new NodeOperationError(
		context.getNode(),
		`The service answered ${endpoint.method} ${endpoint.path} with HTTP ${status} but ${what}. This may be a wrong Base URL (a web page instead of the API) or a service change: check the Base URL in the credential.`,
		{
			itemIndex: options.itemIndex,
			description: note ? `The request reached the service and may have taken effect. ${note}` : undefined,
		},
	);
}

/**
 * The payload out of the answer's shape (`endpoint.answer`), or what is wrong with the answer. A
 * bare answer is a record with its `id` (a call, a message, a contact, a thread) or a boolean
 * (tag deletion), as the reference shows them.
 */
function unwrap(endpoint: Endpoint, body: unknown): { payload: unknown; total?: number } | { wrong: string } {
	const record = body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : undefined;
	switch (endpoint.answer) {
		case 'bare':
			if (body === undefined || body === null) return { wrong: 'an empty answer' };
			if (typeof body !== 'boolean' && (!record || record.id === undefined)) return { wrong: 'an answer that is not a record with its ID' };
			return { payload: body };
		case 'envelope':
			if (!record || !('data' in record)) return { wrong: 'an answer without its data envelope' };
			return { payload: record.data };
		case 'paginated':
			// the reference's contacts example is a bare array; its limits section describes the envelope
			if (Array.isArray(body)) return { payload: body };
			if (!record || !Array.isArray(record.data)) return { wrong: 'an answer without a data list' };
			return { payload: record.data, total: numberOr((record.pagination as IDataObject | undefined)?.total_rows) };
		case 'counted':
			if (!record || !Array.isArray(record.data)) return { wrong: 'an answer without a data list' };
			return { payload: record.data, total: numberOr(record.count) };
		case 'send':
			if (!record || typeof record.success !== 'boolean') return { wrong: 'an answer without a success flag' };
			return { payload: record };
	}
}

function numberOr(value: unknown): number | undefined {
	const n = Number(value);
	return value === undefined || value === null || !Number.isFinite(n) ? undefined : n;
}

export function isNoAnswer(error: unknown): string | undefined {
	const e = error as { code?: string; message?: string; cause?: { code?: string } };
	const code = e?.code ?? e?.cause?.code;
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(e?.message ?? '')) return 'the request timed out';
	if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(e?.message ?? '')) return 'the connection was dropped';
	if (code === 'ECONNREFUSED') return 'the connection was refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
	return e?.message ? 'the request failed' : undefined;
}

/**
 * One request to the API, following the project's request policy: authentication through the
 * credential, pacing on the rate headers, 429 waited out, repeats only where the endpoint's
 * policy allows, errors a user can act on, and the payload out of its envelope.
 */
export async function apiRequest<T = unknown>(
	this: ApiContext,
	name: EndpointName,
	options: RequestOptions = {},
): Promise<ApiAnswer<T>> {
	const endpoint: Endpoint = ENDPOINTS[name];
	const { itemIndex } = options;
	const baseUrl = await baseUrlOf(this, itemIndex);
	const budgets = budgetsOf(endpoint.budget, options.anonymous === true);
	const headerBudget = endpoint.budget === 'events' ? 'events' : 'org';
	const request: IHttpRequestOptions = {
		method: endpoint.method,
		url: `${baseUrl}${endpointPath(name, options.params)}`,
		qs: options.query,
		body: options.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeoutMs ?? RETRY_LIMITS.timeoutMs,
	};

	let rateLimitTries = 0;
	let rateLimitWaitedMs = 0;
	let transientTries = 0;
	for (;;) {
		await waitForBudgets(this, budgets);
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const reason = isNoAnswer(error) ?? 'the request failed';
			if (mayRepeat(endpoint, undefined, options) && ++transientTries < RETRY_LIMITS.transientTries) {
				await sleep(RETRY_LIMITS.transientBackoffMs * 2 ** (transientTries - 1));
				continue;
			}
			throw noAnswerError(this.getNode(), endpoint, reason, itemIndex, notRepeatedNote(endpoint, options));
		}

		const headers = (response.headers ?? {}) as IDataObject;
		observeRateHeaders(this, headerBudget, headers);
		const status = response.statusCode;
		const { parsed, malformed } = parseBody(response.body);

		if (status >= 200 && status < 300) {
			if (malformed) throw unexpectedAnswer(this, endpoint, status, 'a body that is not JSON', options);
			const answer = unwrap(endpoint, parsed);
			if ('wrong' in answer) throw unexpectedAnswer(this, endpoint, status, answer.wrong, options);
			return { payload: answer.payload as T, total: answer.total, status, rateLimited: rateLimitTries };
		}

		if (status === 429) {
			const waitMs =
				1000 *
				(secondsHeader(headers, 'retry-after') ??
					secondsHeader(headers, 'x-ratelimit-reset') ??
					2 ** rateLimitTries);
			rateLimitTries++;
			if (
				rateLimitTries < RETRY_LIMITS.rateLimitTries &&
				rateLimitWaitedMs + waitMs <= RETRY_LIMITS.rateLimitTotalWaitMs
			) {
				rateLimitWaitedMs += waitMs;
				await sleep(waitMs);
				continue;
			}
			const budget = BUDGET_LABELS[exhaustedBudget(headerBudget, headers)];
			throw apiError(
				this.getNode(),
				endpoint,
				{ status, apiMessage: apiMessageOf(parsed) },
				itemIndex,
				`The ${budget} ran out: ${rateLimitTries} tries over ${Math.round(rateLimitWaitedMs / 1000)} s of waiting.`,
			);
		}

		if (mayRepeat(endpoint, status, options) && ++transientTries < RETRY_LIMITS.transientTries) {
			await sleep(RETRY_LIMITS.transientBackoffMs * 2 ** (transientTries - 1));
			continue;
		}
		const note = status >= 500 ? notRepeatedNote(endpoint, options) : '';
		throw apiError(this.getNode(), endpoint, { status, apiMessage: apiMessageOf(parsed) }, itemIndex, note, isRepeatable(endpoint, options));
	}
}

/** Page size cap of the listing endpoints (API reference, "Limits"). */
export const MAX_PAGE_SIZE = 1000;

export interface PageOptions extends Omit<RequestOptions, 'body'> {
	returnAll: boolean;
	/** Used when `returnAll` is false. */
	limit?: number;
}

/**
 * Fetch a list with `limit`/`offset`, a thousand at a time, stopping as soon as the asked number
 * is reached, the total is reached, or a page comes back short.
 */
export async function apiList<T = IDataObject>(
	this: ApiContext,
	name: EndpointName,
	options: PageOptions,
): Promise<T[]> {
	const wanted = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
	const records: T[] = [];
	let offset = 0;
	while (records.length < wanted) {
		const pageSize = Math.min(MAX_PAGE_SIZE, wanted - records.length);
		const { payload, total } = await apiRequest.call<ApiContext, [EndpointName, RequestOptions], Promise<ApiAnswer<T[]>>>(
			this,
			name,
			{ ...options, query: { ...options.query, limit: pageSize, offset } },
		);
		const page = Array.isArray(payload) ? payload : [];
		records.push(...page.slice(0, wanted - records.length));
		offset += page.length;
		if (page.length < pageSize || (total !== undefined && offset >= total)) break;
	}
	return records;
}
