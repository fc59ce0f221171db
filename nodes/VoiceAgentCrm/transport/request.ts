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

import { CREDENTIAL_NAME } from './credential';
import {
	endpointOf,
	endpointPath,
	type Endpoint,
	type EndpointName,
	type WholeEndpointName,
} from './endpoints';
import {
	apiMessageOf,
	failureError,
	isProviderUnavailable,
	MAY_HAVE_TAKEN_EFFECT,
	mayHaveTakenEffect,
	STOPPED_BEFORE_SENDING,
	type Failure,
} from './errors';
import { keyRemover, type KeyRemover } from './keyRemoval';
import {
	announcedLimits,
	BUDGET_LABELS,
	budgetsOf,
	exhaustedBudget,
	observeRateHeaders,
	secondsHeader,
	waitForBudgets,
	type BudgetKey,
} from './pacing';
import { redirectStep } from './redirects';

export { keepForCancels } from './pacing';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export { CREDENTIAL_NAME };

/**
 * Bounds of the repeat policy: a run never hangs on a budget that does not come back.
 *
 * `timeoutMs` is how long one request may take before it counts as unanswered (then repeated or
 * not, by the endpoint's policy). It is a setting of the package, not a node option: the service's
 * answers take well under a second, and a user who shortened it would only turn slow placements
 * and sends into "may have been placed" failures, which cannot be repeated. Fixed: the tests run on
 * a fake clock, where these waits and the timeout cost nothing.
 */
export const RETRY_LIMITS = Object.freeze({
	rateLimitTries: 6,
	rateLimitTotalWaitMs: 5 * 60_000,
	transientTries: 3,
	transientBackoffMs: 1_000,
	timeoutMs: 30_000,
});

export interface RequestOptions {
	params?: Record<string, string>;
	query?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** Event batches: true when every event has an `event_id`, so a repeat cannot store twice. */
	repeatSafe?: boolean;
	/** Event batches carrying anonymous events also draw on the anonymous budget. */
	anonymous?: boolean;
	/** Called as each attempt is sent (repeats and 429s included), for callers that count requests. */
	onAttempt?: () => void;
	/**
	 * Called when an attempt is answered 429, which the service did nothing with; `earlierMayHave`:
	 * an earlier attempt of the request may have taken effect all the same.
	 */
	onRefused?: (earlierMayHave: boolean) => void;
	/**
	 * Event batches: the body sent and the answer read as JSON bytes (a Buffer), not as objects. n8n
	 * keeps what a request refers to until its next full garbage collection; as bytes, a batch of
	 * 100 events and its 100 results stay out of the JavaScript heap (docs/performance.md).
	 */
	asBytes?: boolean;
	/**
	 * The caller writes the Stop's note in the custom data itself (a file's run, which knows the
	 * row to start from): the transport writes none for this request.
	 */
	callerNotesStop?: boolean;
	/**
	 * Epoch ms after which the request is no longer sent (a scheduled call's placement whose start
	 * came too close while it waited for its turn): it fails unsent instead (`wasNotSentInTime`).
	 */
	sendBy?: number;
	/** Undoes a write before it takes effect (a scheduled call's cancel): it takes no paced turn (pacing.ts). */
	urgent?: boolean;
}

export interface ApiAnswer<T = unknown> {
	/** The payload: `data` of an envelope, or the bare body. */
	payload: T;
	/** `pagination.total_rows` or `count`, when the answer carries one. */
	total?: number;
	status: number;
	/** How many 429s were waited out before this answer; callers that poll slow down after one. */
	rateLimited: number;
	/**
	 * True when this answer came from a repeat that followed a 5xx, a lost (dropped or timed-out)
	 * answer or an unreadable answer to an earlier attempt of the same request: that attempt may
	 * have taken effect, so the answer may describe its effect, not this repeat's (a Stop answering
	 * "not stopped", an event answered `duplicate`).
	 */
	repeatedAfterUncertainAttempt: boolean;
	/** The budgets' sizes per window as this answer's rate headers announce them (`X-RateLimit-Limit…`). */
	announced: Partial<Record<BudgetKey, number>>;
}

/** The base URL as users paste it: trailing slashes and a trailing `/v1` are dropped. */
export function normalizeBaseUrl(raw: unknown): string | undefined {
	const trimmed = String(raw ?? '').trim();
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) return undefined;
	return trimmed.replace(/\/+$/, '').replace(/\/v1$/i, '');
}

interface Connection {
	baseUrl: string;
	/** Removes the credential's key and the Base URL's user info wherever the service quotes them. */
	keys: KeyRemover;
}

async function connectionOf(
	context: ApiContext,
	itemIndex: number | undefined,
): Promise<Connection> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	if (!baseUrl) {
		throw new NodeOperationError(
			context.getNode(),
			'The Base URL in the Voice Agent CRM API credential must start with http:// or https://',
			{ itemIndex },
		);
	}
	const apiKey =
		typeof credentials.apiKey === 'string' && credentials.apiKey ? credentials.apiKey : undefined;
	return { baseUrl, keys: keyRemover(apiKey, baseUrl) };
}

function parseBody(raw: unknown): { parsed: unknown; malformed: boolean } {
	const body = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
	if (typeof body !== 'string') return { parsed: body, malformed: false };
	if (!body.trim()) return { parsed: undefined, malformed: false };
	try {
		return { parsed: JSON.parse(body), malformed: false };
	} catch {
		return { parsed: body, malformed: true };
	}
}

/** Whether the endpoint's policy sends the request again after this failure. */
function mayRepeat(endpoint: Endpoint, failure: Failure, options: RequestOptions): boolean {
	// no answer or a 5xx: what a later attempt may not meet again (a plain HTTP port it will)
	const transient =
		(failure.kind === 'noAnswer' && !failure.plainHttp) ||
		(failure.kind === 'status' && failure.status >= 500);
	switch (endpoint.repeat) {
		case 'idempotent':
			return transient;
		case 'provider502':
			return (
				failure.kind === 'status' && isProviderUnavailable(endpoint, failure.status, failure.json)
			);
		case 'eventIds':
			return options.repeatSafe === true && transient;
		case 'never':
			return false;
	}
}

/** The signal n8n aborts when the execution is stopped (a Stop in the editor, a timeout); none for a bare context. */
export function cancelSignalOf(context: object): AbortSignal | undefined {
	const functions = context as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;
	return functions.getExecutionCancelSignal?.();
}

/**
 * Wait `ms`, or until the execution is stopped: false then. (n8n's `sleep` rejects when its signal
 * aborts; a Stop is no failure of the wait.)
 */
export async function pauseUnlessStopped(
	ms: number,
	stop: AbortSignal | undefined,
): Promise<boolean> {
	return await sleep(ms, stop).then(
		() => stop?.aborted !== true,
		() => false,
	);
}

/**
 * The context for what a Stop itself calls for (a campaign canceling the calls it scheduled): its
 * requests are sent, paced and repeated as any, although the execution's signal is aborted. n8n
 * lets a stopped node's work run on; only the transport's own Stop checks would hold these back.
 */
export function despiteTheStop<T extends ApiContext>(context: T): T {
	return Object.create(context, { getExecutionCancelSignal: { value: () => undefined } }) as T;
}

/** Whether the execution was stopped: its aborted request is not repeated, nor waited for. */
function wasStopped(context: ApiContext): boolean {
	return cancelSignalOf(context)?.aborted === true;
}

/** The key of the execution's custom data that says what a Stop left in the balance. */
export const STOPPED_NOTE_KEY = 'voice_agent_crm_stopped';

/**
 * What a Stop left in the balance, in the execution's custom data, at once. n8n saves a stopped
 * execution as it was at the Stop (its custom data included) and drops the node's later error, so
 * this note, set while n8n aborts the execution's signal, is what the user can find. n8n keeps 512
 * characters of a value (its documentation says 255).
 */
export function noteStop(context: object, note: string): void {
	try {
		(context as Partial<IExecuteFunctions>).customData?.set(STOPPED_NOTE_KEY, note.slice(0, 512));
	} catch {
		// a context without an execution's data (a trigger's poll): the error is all there is
	}
}

/** A Stop while a write was on its way: it may have taken effect. */
function noteStoppedOnItsWay(context: ApiContext, endpoint: Endpoint, itemIndex?: number): void {
	const { failure } = endpoint;
	const item = itemIndex === undefined ? '' : ` (item ${itemIndex})`;
	noteStop(
		context,
		`${failure.mayHaveHappened ?? MAY_HAVE_TAKEN_EFFECT}: the execution was stopped while ${endpoint.method} ${endpoint.path} was on its way${item}. ${failure.check ?? 'Check before running the item again.'}`,
	);
}

/** A request the transport never sent (again) because the execution was stopped while it waited. */
function stoppedBeforeSending(context: ApiContext, endpoint: Endpoint, itemIndex?: number) {
	return new NodeOperationError(context.getNode(), STOPPED_BEFORE_SENDING, {
		itemIndex,
		description: `${endpoint.method} ${endpoint.path} was not sent: the execution was stopped while the request waited for its turn.`,
	});
}

/** Requests not sent because their turn came after their `sendBy`. */
const notSentInTimeErrors = new WeakSet<object>();

function notSentInTime(
	context: ApiContext,
	endpoint: Endpoint,
	sendBy: number,
	itemIndex?: number,
) {
	const error = new NodeOperationError(
		context.getNode(),
		`The request was not sent: its turn in the rate budget came after ${new Date(sendBy).toISOString()}, the latest it could go`,
		{
			itemIndex,
			description: `${endpoint.method} ${endpoint.path} was not sent, so it took no effect.`,
		},
	);
	notSentInTimeErrors.add(error);
	return error;
}

/** Whether `error` is a request that was not sent because its `sendBy` passed while it waited. */
export function wasNotSentInTime(error: unknown): boolean {
	return !!error && typeof error === 'object' && notSentInTimeErrors.has(error);
}

/** Whether the request may be sent again after it may have taken effect. */
function isRepeatable(endpoint: Endpoint, options: RequestOptions): boolean {
	return (
		endpoint.repeat === 'idempotent' ||
		(endpoint.repeat === 'eventIds' && options.repeatSafe === true)
	);
}

/**
 * The payload out of the answer's shape (`endpoint.answer`), or what is wrong with the answer. A
 * bare answer is a record with its `id` (a call, a message, a contact, a thread) or a boolean
 * (tag deletion), as the reference shows them.
 */
function unwrap(
	endpoint: Endpoint,
	body: unknown,
): { payload: unknown; total?: number } | { wrong: string } {
	const record =
		body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : undefined;
	switch (endpoint.answer) {
		case 'bare':
			if (body === undefined || body === null) return { wrong: 'an empty answer' };
			if (typeof body !== 'boolean' && (!record || record.id === undefined))
				return { wrong: 'an answer that is not a record with its ID' };
			return { payload: body };
		case 'envelope':
			if (!record || !('data' in record)) return { wrong: 'an answer without its data envelope' };
			return { payload: record.data };
		case 'paginated':
			// the reference's contacts example is a bare array; its limits section describes the envelope
			if (Array.isArray(body)) return { payload: body };
			if (!record || !Array.isArray(record.data)) return { wrong: 'an answer without a data list' };
			return {
				payload: record.data,
				total: numberOr((record.pagination as IDataObject | undefined)?.total_rows),
			};
		case 'counted':
			if (!record || !Array.isArray(record.data)) return { wrong: 'an answer without a data list' };
			return { payload: record.data, total: numberOr(record.count) };
		case 'send':
			if (!record || typeof record.success !== 'boolean')
				return { wrong: 'an answer without a success flag' };
			return { payload: record };
	}
}

/**
 * How the API's own answer of each shape begins, to know a cut or garbled answer of the API from
 * another server's: the envelope repeats its status first, a bare record starts with its `id`.
 */
const API_OPENINGS: Record<Endpoint['answer'], RegExp> = {
	envelope: /^\s*\{\s*"statusCode"\s*:\s*2\d\d\b/,
	bare: /^\s*(\{\s*"id"\s*:|true\b|false\b)/,
	paginated: /^\s*(\[|\{\s*"data"\s*:)/,
	counted: /^\s*\{\s*"data"\s*:/,
	send: /^\s*\{\s*"success"\s*:/,
};

/** An envelope endpoint's answer that is the API's own (its `statusCode` repeats the status) but lacks its data. */
function isEnvelopeOf(endpoint: Endpoint, body: unknown, status: number): boolean {
	return (
		endpoint.answer === 'envelope' &&
		!!body &&
		typeof body === 'object' &&
		(body as IDataObject).statusCode === status
	);
}

function numberOr(value: unknown): number | undefined {
	const n = Number(value);
	return value === undefined || value === null || !Number.isFinite(n) ? undefined : n;
}

/**
 * What became of a request that got no complete answer. A connection dropped after the status
 * line (a body cut mid-way) is a dropped connection too: the service had already acted. The
 * credential test words its failures with it too.
 */
export function noAnswerOf(error: unknown): Extract<Failure, { kind: 'noAnswer' }> {
	const e = error as { code?: string; message?: string; cause?: { code?: string } };
	const code = e?.code ?? e?.cause?.code;
	const message = e?.message ?? '';
	if (isPlainHttpAnswer(code, message))
		return { kind: 'noAnswer', reason: PLAIN_HTTP_REASON, reached: false, plainHttp: true };
	if (code === 'ECONNREFUSED')
		return { kind: 'noAnswer', reason: 'the connection was refused', reached: false };
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return { kind: 'noAnswer', reason: 'the host name could not be resolved', reached: false };
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message))
		return { kind: 'noAnswer', reason: 'the request timed out', reached: true };
	if (
		code === 'ECONNRESET' ||
		code === 'EPIPE' ||
		code === 'ERR_BAD_RESPONSE' ||
		/socket hang up|aborted|terminated|premature close/i.test(message)
	) {
		return { kind: 'noAnswer', reason: 'the connection was dropped', reached: true };
	}
	return { kind: 'noAnswer', reason: 'the request failed', reached: true };
}

/** The execution was stopped while the request was on its way: n8n aborted it, sent or not. */
const STOPPED_ON_ITS_WAY: Failure = {
	kind: 'noAnswer',
	reason: 'the execution was stopped while it was on its way',
	reached: true,
	stopped: true,
};

const PLAIN_HTTP_REASON = 'the server answered plain HTTP to an https:// address';

/** OpenSSL's words when an https:// request meets a server that speaks plain HTTP. */
function isPlainHttpAnswer(code: string | undefined, message: string): boolean {
	return (
		code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
		code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
		/wrong version number|packet length too long/i.test(message)
	);
}

/** Whether the answer is a web page (a gateway's or a website's), not the API's JSON. */
export function isWebPage(response: IN8nHttpFullResponse, parsed: unknown): boolean {
	const type = String((response.headers as IDataObject | undefined)?.['content-type'] ?? '');
	return /html/i.test(type) || (typeof parsed === 'string' && /^\s*</.test(parsed));
}

/**
 * A request with the credential to the service's origin at a URL the service gave (a recording's
 * `call_record`), outside the endpoint table. It draws on the organization and IP budgets as every
 * authenticated request does, so it takes its turn and reports its answer to the pacing; the
 * caller reads the answer (status, body) itself. Rejects, sending nothing, when `stop` aborts
 * while it waits for its turn.
 */
export async function serviceUrlRequest(
	this: ApiContext,
	request: IHttpRequestOptions,
	stop?: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	const budgets = budgetsOf('org', false);
	await waitForBudgets(this, budgets, stop);
	const response = (await this.helpers.httpRequestWithAuthentication.call(
		this,
		CREDENTIAL_NAME,
		request,
	)) as IN8nHttpFullResponse;
	observeRateHeaders(this, 'org', (response.headers ?? {}) as IDataObject, budgets);
	return response;
}

/**
 * One request to the API, following the project's request policy: authentication through the
 * credential, pacing on the rate headers, 429 waited out, repeats only where the endpoint's
 * policy allows, errors worded from the endpoint's failure contract without the key, and the
 * payload out of its envelope.
 *
 * Not for a list that pages (its row's `pages`): one request would answer its first page only, so
 * such a list is read through the one pager (`paging.ts`: `apiList`, `readPage`). The types refuse
 * its name here, and so does the function, for code the types do not see.
 */
export async function apiRequest<T = unknown>(
	this: ApiContext,
	name: WholeEndpointName,
	options: RequestOptions = {},
): Promise<ApiAnswer<T>> {
	if (endpointOf(name).pages)
		throw new NodeOperationError(
			this.getNode(),
			`The list ${name} pages, so one request reads only its first page: read it through the pager (transport/paging.ts: apiList or readPage)`,
			{ itemIndex: options.itemIndex },
		);
	return (await pageRequest.call(this, name, options)) as ApiAnswer<T>;
}

/**
 * `apiRequest` for every endpoint, paged lists included: the pager's own request (`paging.ts`),
 * which sends each page's `limit` and `offset`. Nothing else imports it (test/lint/pager.test.cts).
 */
export async function pageRequest<T = unknown>(
	this: ApiContext,
	name: EndpointName,
	options: RequestOptions = {},
): Promise<ApiAnswer<T>> {
	const endpoint = endpointOf(name);
	const { itemIndex } = options;
	const { baseUrl, keys } = await connectionOf(this, itemIndex);
	const budgets = budgetsOf(endpoint.budget, options.anonymous === true);
	const headerBudget = endpoint.budget === 'events' ? 'events' : 'org';
	const request: IHttpRequestOptions = {
		method: endpoint.method,
		url: `${baseUrl}${endpointPath(name, options.params)}`,
		qs: options.query,
		...(options.asBytes === true && options.body
			? {
					body: Buffer.from(JSON.stringify(options.body), 'utf8'),
					headers: { 'content-type': 'application/json' },
					encoding: 'arraybuffer' as const,
				}
			: { body: options.body }),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// redirects are the transport's decision (redirects.ts): the key stays on the Base URL's origin
		disableFollowRedirect: true,
		timeout: RETRY_LIMITS.timeoutMs,
	};
	let rateLimitTries = 0;
	let rateLimitWaitedMs = 0;
	let transientTries = 0;
	let redirects = 0;
	let repeatedAfterUncertainAttempt = false;
	const fail = (failure: Failure, extra?: string, retryAfterMs?: number) => {
		const error = failureError(this.getNode(), endpoint, failure, {
			itemIndex,
			repeatable: isRepeatable(endpoint, options),
			extra,
			retryAfterMs,
		});
		if (repeatedAfterUncertainAttempt && failure.kind === 'status')
			refusedAfterUncertainAttempt.set(error, failure.status);
		if (failure.kind === 'unreadable' && !failure.apiShaped && !failure.webPage)
			notTheApisAnswer.add(error);
		return error;
	};
	noteAttempt(this, endpoint, itemIndex);

	const stop = cancelSignalOf(this);
	/** Wait `ms`, or until the execution is stopped: then false, and nothing more is sent. */
	const pause = async (ms: number): Promise<boolean> => await pauseUnlessStopped(ms, stop);
	const repeatAfter = async (failure: Failure): Promise<boolean> => {
		if (
			wasStopped(this) ||
			!mayRepeat(endpoint, failure, options) ||
			++transientTries >= RETRY_LIMITS.transientTries
		)
			return false;
		if (!(await pause(RETRY_LIMITS.transientBackoffMs * 2 ** (transientTries - 1)))) return false;
		repeatedAfterUncertainAttempt ||= mayHaveTakenEffect(endpoint, failure);
		return true;
	};
	for (;;) {
		const turn = await waitForBudgets(this, budgets, stop, options.urgent).then(
			() => !wasStopped(this),
			() => false,
		);
		if (!turn) throw stoppedBeforeSending(this, endpoint, itemIndex);
		if (options.sendBy !== undefined && Date.now() > options.sendBy)
			throw notSentInTime(this, endpoint, options.sendBy, itemIndex);
		let response: IN8nHttpFullResponse;
		options.onAttempt?.();
		const onStop = () => noteStoppedOnItsWay(this, endpoint, itemIndex);
		if (isWrite(endpoint) && options.callerNotesStop !== true)
			stop?.addEventListener('abort', onStop, { once: true });
		try {
			response = (await this.helpers.httpRequestWithAuthentication
				.call(this, CREDENTIAL_NAME, request)
				.finally(() => stop?.removeEventListener('abort', onStop))) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = wasStopped(this) ? STOPPED_ON_ITS_WAY : noAnswerOf(error);
			if (await repeatAfter(failure)) continue;
			throw fail(failure);
		}

		const headers = (response.headers ?? {}) as IDataObject;
		observeRateHeaders(this, headerBudget, headers, budgets);
		const status = response.statusCode;
		const redirect = redirectStep(
			endpoint.method,
			status,
			headers.location,
			request.url,
			baseUrl,
			redirects,
		);
		if (redirect && 'follow' in redirect) {
			// the target carries the query already
			Object.assign(request, { url: redirect.follow, qs: undefined });
			redirects++;
			continue;
		}
		if (redirect)
			throw fail({
				kind: 'redirect',
				status,
				target: keys.text(redirect.target),
				why: redirect.refuse,
			});
		const { parsed, malformed } = parseBody(response.body);

		if (status >= 200 && status < 300) {
			if (malformed)
				throw fail({
					kind: 'unreadable',
					status,
					what: 'a body that is not JSON',
					webPage: isWebPage(response, parsed),
					apiShaped: API_OPENINGS[endpoint.answer].test(String(parsed)),
				});
			const answer = unwrap(endpoint, keys.value(parsed));
			if ('wrong' in answer)
				throw fail({
					kind: 'unreadable',
					status,
					what: answer.wrong,
					apiShaped: isEnvelopeOf(endpoint, parsed, status),
				});
			noteWrite(this, endpoint, itemIndex, answer.payload);
			return {
				payload: answer.payload as T,
				total: answer.total,
				status,
				rateLimited: rateLimitTries,
				repeatedAfterUncertainAttempt,
				announced: announcedLimits(headerBudget, headers),
			};
		}

		const webPage = isWebPage(response, parsed);
		const failure: Failure = {
			kind: 'status',
			status,
			apiMessage: apiMessageOf(parsed, keys),
			json: !malformed && !webPage && typeof parsed === 'object' && parsed !== null,
			webPage,
		};
		if (status === 429) {
			const askedSeconds =
				secondsHeader(headers, 'retry-after') ?? secondsHeader(headers, 'x-ratelimit-reset');
			const waitMs = 1000 * (askedSeconds ?? 2 ** rateLimitTries);
			rateLimitTries++;
			options.onRefused?.(repeatedAfterUncertainAttempt);
			if (
				rateLimitTries < RETRY_LIMITS.rateLimitTries &&
				rateLimitWaitedMs + waitMs <= RETRY_LIMITS.rateLimitTotalWaitMs
			) {
				rateLimitWaitedMs += waitMs;
				// a 429 left nothing done: a Stop during its wait leaves nothing sent
				if (!(await pause(waitMs))) throw stoppedBeforeSending(this, endpoint, itemIndex);
				continue;
			}
			const budget = BUDGET_LABELS[exhaustedBudget(headerBudget, headers)];
			throw fail(
				failure,
				`The ${budget} ran out: ${rateLimitTries} tries over ${Math.round(rateLimitWaitedMs / 1000)} s of waiting.`,
				askedSeconds ? askedSeconds * 1000 : undefined,
			);
		}
		if (await repeatAfter(failure)) continue;
		throw fail(failure);
	}
}

/** Errors of a 2xx whose body is not the API's own answer (nor a web page): whether it took effect is unknown. */
const notTheApisAnswer = new WeakSet<object>();

/**
 * Whether `error` is a 2xx answered with a body that is not the API's own answer (other JSON, plain
 * text): a gateway or another server may have answered, so only a read can tell what happened.
 */
export function isNotTheApisAnswer(error: unknown): boolean {
	return !!error && typeof error === 'object' && notTheApisAnswer.has(error);
}

/** Errors of a repeat that followed an uncertain attempt, with the status the repeat met. */
const refusedAfterUncertainAttempt = new WeakMap<object, number>();

/**
 * The HTTP status of a failure met by a repeat that followed an uncertain attempt (a lost or cut
 * answer, a 5xx), when `error` is one: that first attempt may have done what the repeat is refused
 * for (Cancel's repeat meets 409 "not scheduled" because the first attempt canceled the call).
 */
export function statusAfterUncertainAttempt(error: unknown): number | undefined {
	return error && typeof error === 'object' ? refusedAfterUncertainAttempt.get(error) : undefined;
}

/**
 * The writes of one run, by item: what went through (the record and its ID) and which items a
 * write was attempted for. A run that stops part-way names them (`shared/operation.ts`), so that
 * re-running the workflow does not call a person again unknowingly. Keyed by the run's context,
 * which n8n creates for each execution of the node.
 */
export interface WriteLedger {
	/** Item index → the records its writes left, e.g. "call 5f0c…". */
	written: Map<number, string[]>;
	/** Item indexes a write was sent for (the failed one included). */
	attempted: Set<number>;
}

const ledgers = new WeakMap<object, WriteLedger>();

export function writesOf(context: ApiContext): WriteLedger {
	let ledger = ledgers.get(context);
	if (!ledger) {
		ledger = { written: new Map(), attempted: new Set() };
		ledgers.set(context, ledger);
	}
	return ledger;
}

const isWrite = (endpoint: Endpoint) => endpoint.method !== 'GET';

function noteAttempt(context: ApiContext, endpoint: Endpoint, itemIndex: number | undefined): void {
	if (isWrite(endpoint) && itemIndex !== undefined) writesOf(context).attempted.add(itemIndex);
}

function noteWrite(
	context: ApiContext,
	endpoint: Endpoint,
	itemIndex: number | undefined,
	payload: unknown,
): void {
	if (!isWrite(endpoint) || itemIndex === undefined) return;
	const id = recordIdOf(payload);
	const record = endpoint.failure.record ?? 'record';
	const { written } = writesOf(context);
	const entry = id ? `${record} ${id}` : record;
	// in place: a file's 10,000 batches are all writes of its one item
	const records = written.get(itemIndex);
	if (records) records.push(entry);
	else written.set(itemIndex, [entry]);
}

/** The ID a write answered with: a call's `call_id`, a record's `id`, a WhatsApp send's `message_id`. */
function recordIdOf(payload: unknown): string | undefined {
	if (!payload || typeof payload !== 'object') return undefined;
	const record = payload as IDataObject;
	const data = (record.data && typeof record.data === 'object' ? record.data : {}) as IDataObject;
	const id = record.call_id ?? record.id ?? record.message_id ?? data.message_id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
