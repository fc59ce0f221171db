import type { IHttpRequestMethods } from 'n8n-workflow';

/**
 * Every endpoint the nodes call, documented and inferred, in one table. Nothing else in the
 * package spells a path. An inferred endpoint is one the API reference names without describing;
 * its request and answer follow the project's decisions (README, "Operations"), so a user whose
 * account differs sees here at once what was assumed.
 */

/** The request budget an endpoint draws on (API reference, "Limits"). */
export type Budget = 'org' | 'listing' | 'events';

/**
 * What may be repeated after a failure that is not a 429 (a 429 is always repeated: the request
 * was rejected, so nothing happened).
 * - `idempotent`: reads and updates; repeated after a 5xx, a timeout or a dropped connection.
 * - `never`: creations and call placements; a second call to a real person is worse than an error.
 * - `provider502`: WhatsApp sends; the reference says a 502 is safe to repeat, nothing else is.
 * - `eventIds`: event batches; repeated after a 5xx or a dropped connection only when every event
 *   carries an `event_id` (the service then answers `duplicate` for what it already stored).
 */
export type RepeatPolicy = 'idempotent' | 'never' | 'provider502' | 'eventIds';

/**
 * How the answer carries its payload.
 * - `envelope`: `{statusCode, data}`; the node returns `data`.
 * - `bare`: the payload itself (an object, an array or a boolean).
 * - `paginated`: `{data, pagination: {total_rows}}`.
 * - `counted`: `{data, count}`.
 * - `send`: `{success, message, data}` of the WhatsApp sends.
 */
export type AnswerShape = 'envelope' | 'bare' | 'paginated' | 'counted' | 'send';

/**
 * The failure contract of an endpoint: what a failed request means to the user. The transport
 * words every failure from it (`errors.ts`); operations only add their own context (item, call ID).
 * A read needs none of it: it changes nothing and is repeated, so the general advice of its status
 * is all there is to say.
 */
export interface FailureContract {
	/** The record a write leaves behind, to name it when a run stops part-way: "call", "contact". */
	record?: string;
	/** The headline of a write that may have taken effect and was not repeated: "The call may have been placed". */
	mayHaveHappened?: string;
	/** Why it was not sent again. */
	notRepeated?: string;
	/** What to check before running the item again. */
	check?: string;
	/** Event batches whose events all have IDs: why running the items again is safe. */
	repeatSafe?: string;
	/** Advice for a status where it differs from the general advice of that status. */
	byStatus?: Partial<Record<number, string>>;
}

export interface Endpoint {
	method: IHttpRequestMethods;
	/** Path template; `{name}` is replaced by the encoded path parameter. */
	path: string;
	budget: Budget;
	repeat: RepeatPolicy;
	answer: AnswerShape;
	inferred: boolean;
	/**
	 * The list is read page by page, with `limit` (at most 1000) and `offset` (API reference,
	 * "Limits"); a list without it answers whole. The one pager, `paging.ts`, reads it.
	 */
	pages?: true;
	failure: FailureContract;
}

const NOT_REPEATED = 'It was not sent again, so that it does not take effect twice.';
const PHONE_TAKEN = {
	409: 'Another contact already has this phone number. Phone numbers are unique per contact.',
};

/** A write that is never repeated: what it leaves, and what to check when it may have taken effect. */
const once = (
	record: string,
	mayHaveHappened: string,
	check: string,
	extra: FailureContract = {},
): FailureContract => ({
	record,
	mayHaveHappened,
	notRepeated: NOT_REPEATED,
	check,
	...extra,
});

const CALL_PLACEMENT = once(
	'call',
	'The call may have been placed',
	'Check Call → Get Many before running this item again.',
	{
		notRepeated: 'It was not sent again, so that nobody is called twice.',
	},
);

const WHATSAPP_SEND = once(
	'WhatsApp message',
	'The WhatsApp message may have been sent',
	'Check the conversation (Thread → Get Many, or the inbox) before running this item again.',
	{
		notRepeated: 'It was not sent again, so that the contact does not get it twice.',
		// the API's own 502 (a JSON answer) says the provider did not take the message; see request.ts
		byStatus: {
			400: 'WhatsApp send rejected: {apiMessage}',
			502: 'The messaging provider is unavailable. Try again in a little while.',
		},
	},
);

const read = (
	path: string,
	answer: AnswerShape,
	inferred = false,
	budget: Budget = 'org',
): Endpoint => ({
	method: 'GET',
	path,
	budget,
	repeat: 'idempotent',
	answer,
	inferred,
	failure: {},
});

/** A list read page by page: only the pager (`paging.ts`) sends its requests. */
const paged = (endpoint: Endpoint): Endpoint & { pages: true } => ({ ...endpoint, pages: true });

export const ENDPOINTS = {
	// Agents
	listVoices: read('/v1/agents/voices', 'envelope'),
	getAgent: read('/v1/agents/{agentId}', 'envelope'),
	listAgents: paged(read('/v1/agents', 'envelope', true)),
	createAgent: {
		method: 'POST',
		path: '/v1/agents',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: false,
		failure: once(
			'agent',
			'The agent may have been created',
			'Check Agent → Get Many before running this item again.',
		),
	},
	updateAgent: {
		method: 'PATCH',
		path: '/v1/agents/{agentId}',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'envelope',
		inferred: true,
		failure: { record: 'agent' },
	},
	listPhoneNumbers: read('/v1/phone-numbers', 'envelope', true),

	// Calls
	placePhoneCall: {
		method: 'POST',
		path: '/v1/calls/single-phone-call',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: false,
		failure: CALL_PLACEMENT,
	},
	placeContactCall: {
		method: 'POST',
		path: '/v1/calls/single-contact-call',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: false,
		failure: CALL_PLACEMENT,
	},
	getCall: read('/v1/calls/{callId}', 'bare'),
	getCallStatus: read('/v1/calls/{callId}/status', 'envelope'),
	listCalls: paged(read('/v1/calls', 'paginated', true, 'listing')),
	stopCall: {
		method: 'POST',
		path: '/v1/calls/single-phone-call/{callId}/stop',
		budget: 'org',
		// stopping twice is harmless: a finished call answers `stopped: false`
		repeat: 'idempotent',
		answer: 'envelope',
		inferred: false,
		failure: {
			record: 'stopped call',
			byStatus: {
				409: 'The call is not placed yet (queued or scheduled), so it cannot be hung up. Retry in a few seconds, or cancel it if it is scheduled.',
			},
		},
	},
	cancelCall: {
		method: 'POST',
		path: '/v1/calls/{callId}/cancel',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'envelope',
		inferred: true,
		failure: {
			record: 'canceled call',
			byStatus: {
				409: 'Only a scheduled call can be canceled; this one is already placed or finished. Use Stop to hang up a live call.',
			},
		},
	},

	// Contacts
	listContacts: paged(read('/v1/contacts', 'paginated', false, 'listing')),
	createContact: {
		method: 'POST',
		path: '/v1/contacts',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: true,
		failure: once(
			'contact',
			'The contact may have been created',
			'Check Contact → Get Many (search by the phone number) before running this item again.',
			{ byStatus: PHONE_TAKEN },
		),
	},
	updateContact: {
		method: 'PATCH',
		path: '/v1/contacts/{contactId}',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'bare',
		inferred: false,
		failure: { record: 'contact', byStatus: PHONE_TAKEN },
	},
	deleteContact: {
		method: 'DELETE',
		path: '/v1/contacts/{contactId}',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: false,
		failure: once(
			'deleted contact',
			'The contact may have been deleted',
			'Check Contact → Get Many before running this item again.',
		),
	},
	listContactTags: read('/v1/contacts/{contactId}/tags', 'envelope'),
	listContactComments: read('/v1/contacts/{contactId}/comments', 'envelope', true),

	// Tags, comments, tasks
	listTags: read('/v1/tags', 'envelope', true),
	createTag: {
		method: 'POST',
		path: '/v1/tags',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: true,
		failure: once(
			'tag',
			'The tag may have been created',
			'Check Tag → Get Many before running this item again.',
		),
	},
	deleteTag: {
		method: 'DELETE',
		path: '/v1/tags/{tagId}',
		budget: 'org',
		repeat: 'never',
		answer: 'bare',
		inferred: false,
		failure: once(
			'deleted tag',
			'The tag may have been deleted',
			'Check Tag → Get Many before running this item again.',
		),
	},
	createComment: {
		method: 'POST',
		path: '/v1/comments',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: false,
		failure: once(
			'comment',
			'The comment may have been added',
			"Check the contact's comments (Contact → Get Comments) before running this item again.",
		),
	},
	getTask: read('/v1/tasks/{taskId}', 'envelope'),
	listTasks: paged(read('/v1/tasks', 'envelope', true)),
	createTask: {
		method: 'POST',
		path: '/v1/tasks',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: true,
		failure: once(
			'task',
			'The task may have been created',
			'Check Task → Get Many before running this item again.',
		),
	},

	// Channels, threads, messages
	listChannels: paged(read('/v1/channels', 'counted')),
	updateThread: {
		method: 'PUT',
		path: '/v1/thread/{threadId}',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'bare',
		inferred: false,
		failure: { record: 'thread' },
	},
	listThreads: paged(read('/v1/threads', 'paginated', true)),
	getMessage: read('/v1/messages/{messageId}', 'bare'),

	// WhatsApp Business (WABA)
	sendMedia: {
		method: 'POST',
		path: '/v1/waba/send-media',
		budget: 'org',
		repeat: 'provider502',
		answer: 'send',
		inferred: false,
		failure: WHATSAPP_SEND,
	},
	sendTemplate: {
		method: 'POST',
		path: '/v1/waba/send-template',
		budget: 'org',
		repeat: 'provider502',
		answer: 'send',
		inferred: false,
		failure: WHATSAPP_SEND,
	},
	sendMessage: {
		method: 'POST',
		path: '/v1/waba/send-message',
		budget: 'org',
		repeat: 'provider502',
		answer: 'send',
		inferred: true,
		failure: WHATSAPP_SEND,
	},
	listTemplates: read('/v1/waba/templates', 'envelope', true),

	// Events
	sendEvents: {
		method: 'POST',
		path: '/v1/events',
		budget: 'events',
		repeat: 'eventIds',
		answer: 'envelope',
		inferred: false,
		failure: {
			record: 'event batch',
			mayHaveHappened: 'The events may have been stored',
			notRepeated:
				'The batch was not repeated because some events have no event ID, so a repeat could store them twice.',
			check:
				'Check the events in the dashboard before running these items again, or give every event an Event ID (Options → Derive Missing Event IDs: "When Occurred At Is Set" or "Always") so that batches are safe to repeat.',
			repeatSafe:
				'Every event has an Event ID, so running the items again is safe: events already stored are answered duplicate, not stored twice.',
			byStatus: {
				403: 'The events add-on is not enabled for this organization. Enable it in the dashboard, then run again.',
			},
		},
	},
} satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The lists that page: `apiRequest` refuses them, so that no reader stops at the first page. */
export type PagedEndpointName = {
	[K in EndpointName]: (typeof ENDPOINTS)[K] extends { pages: true } ? K : never;
}[EndpointName];

/** Every endpoint a single request answers whole: what `apiRequest` sends. */
export type WholeEndpointName = Exclude<EndpointName, PagedEndpointName>;

/** The endpoint's row; a name without one (an operation added without its row) is named. */
export function endpointOf(name: EndpointName): Endpoint {
	const endpoint: Endpoint | undefined = ENDPOINTS[name];
	if (!endpoint)
		throw new Error(
			`The endpoint ${name} has no row in the endpoint table (transport/endpoints.ts)`,
		);
	return endpoint;
}

/** The path with its parameters filled in and URI-encoded. */
export function endpointPath(name: EndpointName, params: Record<string, string> = {}): string {
	return endpointOf(name).path.replace(/\{(\w+)\}/g, (_, key: string) => {
		const value = params[key];
		if (value === undefined) throw new Error(`Missing path parameter ${key} for ${name}`);
		return encodeURIComponent(value);
	});
}
