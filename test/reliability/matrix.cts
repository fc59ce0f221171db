import {
	ENDPOINTS,
	type EndpointName,
	type RepeatPolicy,
} from '../../nodes/VoiceAgentCrm/transport/endpoints';
import type { Fault } from '../../simulator/index.cts';

/**
 * The fault matrix: operation classes × faults the simulator injects, with each cell's outcome
 * derived from the endpoint's repeat policy (docs/decisions.md, "Requests"). The test runs
 * every cell against it and the README's table is rendered from it, so the table is the policy.
 */

/** How the request policy sorts a fault. */
export type FaultKind =
	/** 429: the request was rejected, so nothing happened; always waited out and repeated. */
	| 'rateLimit'
	/** A 5xx: the request may have taken effect. */
	| 'serverError'
	/** The API's own 502 (its JSON body): the messaging provider was unavailable; the reference calls a WhatsApp send safe to repeat. */
	| 'providerUnavailable'
	/** A timeout or a dropped connection: the request may have taken effect. */
	| 'noAnswer'
	/** A 2xx the node cannot read: the request was carried out, and a repeat would not read better. */
	| 'badAnswer';

/**
 * How late the simulator answers in the "slower than the timeout" column: well past the nodes' 30 s
 * request timeout. The matrix runs on the fake clock, which moves both: the simulator's delay is a
 * timer, and so is the HTTP client's timeout until the answer's headers arrive (axios, and
 * follow-redirects when redirects are followed, time the request with `setTimeout` besides the
 * socket's own timeout).
 */
const SLOW_ANSWER_MS = 45_000;

export interface FaultColumn {
	key: string;
	/** The column head in the README. */
	label: string;
	kind: FaultKind;
	fault: Fault;
	/**
	 * Whether the service carries the request out before the fault answers. The reference says a
	 * 429 and a provider 502 mean nothing happened; every other fault is injected after the request
	 * took effect, the worst case for a write that must not be sent twice.
	 */
	handled: boolean;
	/** What the error of a failed item must say: the status or what happened. */
	says: RegExp;
	/** A 2xx that is not the API's own answer for any endpoint: another server's JSON. */
	notTheApi?: true;
}

const HTML_ERROR_PAGE =
	'<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>';

const HTML_BAD_GATEWAY =
	'<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>';

export const FAULTS: FaultColumn[] = [
	{
		key: 'retryAfter429',
		label: '429 with Retry-After',
		kind: 'rateLimit',
		fault: { status: 429, retryAfter: 1, body: { statusCode: 429, message: 'Too many requests' } },
		handled: false,
		says: /HTTP 429/,
	},
	{
		key: 'plain429',
		label: '429 without it',
		kind: 'rateLimit',
		fault: { status: 429, body: { statusCode: 429, message: 'Too many requests' } },
		handled: false,
		says: /HTTP 429/,
	},
	{
		key: 'error500',
		label: '500',
		kind: 'serverError',
		fault: {
			status: 500,
			afterHandling: true,
			body: { statusCode: 500, message: 'Internal server error' },
		},
		handled: true,
		says: /HTTP 500/,
	},
	{
		key: 'provider502',
		label: "API's own 502",
		kind: 'providerUnavailable',
		fault: {
			status: 502,
			body: { statusCode: 502, success: false, message: 'Messaging provider unavailable' },
		},
		handled: false,
		says: /HTTP 502/,
	},
	{
		key: 'slow',
		label: 'slower than the timeout',
		kind: 'noAnswer',
		// the answer comes, and the request takes effect, after the node has given up on it
		fault: { delayMs: SLOW_ANSWER_MS },
		handled: true,
		says: /timed out/,
	},
	{
		key: 'drop',
		label: 'answer lost after processing',
		kind: 'noAnswer',
		// the service acted, then the connection closed before any answer
		fault: { drop: true, afterHandling: true },
		handled: true,
		says: /connection was dropped/,
	},
	{
		key: 'cutBody',
		label: 'body cut mid-way',
		kind: 'noAnswer',
		// the service acted and began its answer; the connection closed half-way through the body
		fault: { cutBody: true, afterHandling: true },
		handled: true,
		says: /connection was dropped/,
	},
	{
		key: 'malformedJson',
		label: 'malformed JSON',
		kind: 'badAnswer',
		fault: {
			status: 200,
			rawBody: '{"statusCode": 200, "data": {"id": ',
			contentType: 'application/json',
			afterHandling: true,
		},
		handled: true,
		says: /HTTP 200.*not JSON/,
	},
	{
		key: 'htmlPage',
		label: 'HTML error page (503)',
		kind: 'serverError',
		fault: { status: 503, rawBody: HTML_ERROR_PAGE, contentType: 'text/html', afterHandling: true },
		handled: true,
		says: /HTTP 503.*503 Service Temporarily Unavailable/s,
	},
	{
		key: 'html502',
		label: 'HTML 502 after processing',
		kind: 'serverError',
		// a gateway's page, not the API's own 502: the request may have taken effect behind it
		fault: {
			status: 502,
			rawBody: HTML_BAD_GATEWAY,
			contentType: 'text/html',
			afterHandling: true,
		},
		handled: true,
		says: /HTTP 502/,
	},
	{
		key: 'unexpectedShape',
		label: '200, unexpected shape',
		kind: 'badAnswer',
		fault: { status: 200, body: { status: 'ok' }, afterHandling: true },
		handled: true,
		notTheApi: true,
		says: /HTTP 200 .*(without|not)/,
	},
];

export interface OperationClass {
	key: string;
	/** The row head in the README. */
	label: string;
	/** The endpoint the faults hit; its repeat policy decides every cell of the row. */
	endpoint: EndpointName;
	/** Event batches: whether every event carries an `event_id`. */
	repeatSafe?: boolean;
	/** A poll fails as a whole (the trigger keeps its state); an action fails its item. */
	trigger?: boolean;
	/**
	 * The faults hit the reads of Place AI Call's "Wait for Outcome", after the call was placed: a
	 * failed item names the call so that its outcome can be read later, and the call is never
	 * placed again (the placement's own faults are the placement row).
	 */
	waitsForCall?: boolean;
	/** The cell's words when a request that took effect was repeated, where the output says more than "succeeds". */
	afterRepeat?: string;
	/** The cell's words when a 2xx that is not the API's answer is followed by a read that proves the outcome (Stop). */
	provedByRead?: string;
}

export const OPERATION_CLASSES: OperationClass[] = [
	{ key: 'read', label: 'Read (Agent → Get)', endpoint: 'getAgent' },
	{ key: 'update', label: 'Update (Contact → Update)', endpoint: 'updateContact' },
	{ key: 'create', label: 'Create (Contact → Create)', endpoint: 'createContact' },
	{ key: 'placement', label: 'Call placement (Call → Place AI Call)', endpoint: 'placePhoneCall' },
	{ key: 'whatsapp', label: 'WhatsApp send (WhatsApp → Send Message)', endpoint: 'sendMessage' },
	{
		key: 'stop',
		label: 'Stop (Call → Stop), a live call',
		endpoint: 'stopCall',
		afterRepeat: 'repeats, reports the call stopped',
		provedByRead: "reads the call's status, reports the call stopped",
	},
	{
		key: 'eventsWithIds',
		label: 'Event batch, every event with an ID',
		endpoint: 'sendEvents',
		repeatSafe: true,
	},
	{
		key: 'eventsWithoutIds',
		label: 'Event batch, some events without an ID',
		endpoint: 'sendEvents',
		repeatSafe: false,
	},
	{ key: 'poll', label: 'Trigger poll (Call Finished)', endpoint: 'listCalls', trigger: true },
	{
		key: 'waitStatus',
		label: 'Call wait, status read (Place AI Call → Wait for Outcome)',
		endpoint: 'getCallStatus',
		waitsForCall: true,
	},
	{
		key: 'waitRecord',
		label: 'Call wait, record read (Place AI Call → Wait for Outcome)',
		endpoint: 'getCall',
		waitsForCall: true,
	},
];

/** `proves`: not sent again; a read of the record shows what the request did, and the item succeeds. */
export type Outcome = 'repeats' | 'fails' | 'proves';

/** The policy, cell by cell: whether a request that met this fault is sent again. */
export function expectedOutcome(row: OperationClass, fault: FaultColumn): Outcome {
	const policy: RepeatPolicy = ENDPOINTS[row.endpoint].repeat;
	const repeatable = policy === 'idempotent' || (policy === 'eventIds' && row.repeatSafe === true);
	switch (fault.kind) {
		case 'rateLimit':
			return 'repeats';
		case 'badAnswer':
			return row.provedByRead && fault.notTheApi ? 'proves' : 'fails';
		case 'providerUnavailable':
			return repeatable || policy === 'provider502' ? 'repeats' : 'fails';
		case 'serverError':
		case 'noAnswer':
			return repeatable ? 'repeats' : 'fails';
	}
}

function cellText(row: OperationClass, fault: FaultColumn): string {
	const outcome = expectedOutcome(row, fault);
	if (outcome === 'proves') return row.provedByRead!;
	if (outcome === 'repeats') {
		if (fault.kind === 'rateLimit') return 'waits, repeats, succeeds';
		return (fault.handled && row.afterRepeat) || 'repeats, succeeds';
	}
	if (row.trigger) return 'poll fails, state kept';
	return row.waitsForCall ? 'item fails with the call ID, placed once' : 'item fails, sent once';
}

/** The README's table: one row per operation class, one column per fault. */
export function renderMatrix(): string {
	const head = `| | ${FAULTS.map((f) => f.label).join(' | ')} |`;
	const rule = `|---|${FAULTS.map(() => '---').join('|')}|`;
	const rows = OPERATION_CLASSES.map(
		(row) => `| ${row.label} | ${FAULTS.map((f) => cellText(row, f)).join(' | ')} |`,
	);
	return [head, rule, ...rows].join('\n');
}
