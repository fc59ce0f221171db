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

export interface Endpoint {
	method: IHttpRequestMethods;
	/** Path template; `{name}` is replaced by the encoded path parameter. */
	path: string;
	budget: Budget;
	repeat: RepeatPolicy;
	answer: AnswerShape;
	inferred: boolean;
	/** What a 409 means on this endpoint, for the error message. */
	conflict?: string;
	/** What to check when a request that is never repeated failed after it may have taken effect. */
	notRepeated?: string;
}

const CALL_NOT_REPEATED =
	'The call was not placed again, so that nobody is called twice: the first attempt may have placed it. Check the calls list (Call → Get Many) before running this item again.';

const read = (path: string, answer: AnswerShape, inferred = false, budget: Budget = 'org'): Endpoint => ({
	method: 'GET',
	path,
	budget,
	repeat: 'idempotent',
	answer,
	inferred,
});

export const ENDPOINTS = {
	// Agents
	listVoices: read('/v1/agents/voices', 'envelope'),
	getAgent: read('/v1/agents/{agentId}', 'envelope'),
	listAgents: read('/v1/agents', 'envelope', true),
	createAgent: { method: 'POST', path: '/v1/agents', budget: 'org', repeat: 'never', answer: 'envelope', inferred: false },
	updateAgent: { method: 'PATCH', path: '/v1/agents/{agentId}', budget: 'org', repeat: 'idempotent', answer: 'envelope', inferred: true },
	listPhoneNumbers: read('/v1/phone-numbers', 'envelope', true),

	// Calls
	placePhoneCall: { method: 'POST', path: '/v1/calls/single-phone-call', budget: 'org', repeat: 'never', answer: 'envelope', inferred: false, notRepeated: CALL_NOT_REPEATED },
	placeContactCall: { method: 'POST', path: '/v1/calls/single-contact-call', budget: 'org', repeat: 'never', answer: 'envelope', inferred: false, notRepeated: CALL_NOT_REPEATED },
	getCall: read('/v1/calls/{callId}', 'bare'),
	getCallStatus: read('/v1/calls/{callId}/status', 'envelope'),
	listCalls: read('/v1/calls', 'paginated', true, 'listing'),
	stopCall: {
		method: 'POST',
		path: '/v1/calls/single-phone-call/{callId}/stop',
		budget: 'org',
		// stopping twice is harmless: a finished call answers `stopped: false`
		repeat: 'idempotent',
		answer: 'envelope',
		inferred: false,
		conflict: 'The call is not placed yet (queued or scheduled), so it cannot be hung up. Retry in a few seconds, or cancel it if it is scheduled.',
	},
	cancelCall: {
		method: 'POST',
		path: '/v1/calls/{callId}/cancel',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'envelope',
		inferred: true,
		conflict: 'Only a scheduled call can be canceled; this one is already placed or finished. Use Stop to hang up a live call.',
	},

	// Contacts
	listContacts: read('/v1/contacts', 'paginated', false, 'listing'),
	createContact: {
		method: 'POST',
		path: '/v1/contacts',
		budget: 'org',
		repeat: 'never',
		answer: 'envelope',
		inferred: true,
		conflict: 'Another contact already has this phone number. Phone numbers are unique per contact.',
	},
	updateContact: {
		method: 'PATCH',
		path: '/v1/contacts/{contactId}',
		budget: 'org',
		repeat: 'idempotent',
		answer: 'bare',
		inferred: false,
		conflict: 'Another contact already has this phone number. Phone numbers are unique per contact.',
	},
	deleteContact: { method: 'DELETE', path: '/v1/contacts/{contactId}', budget: 'org', repeat: 'never', answer: 'envelope', inferred: false },
	listContactTags: read('/v1/contacts/{contactId}/tags', 'envelope'),
	listContactComments: read('/v1/contacts/{contactId}/comments', 'envelope', true),

	// Tags, comments, tasks
	listTags: read('/v1/tags', 'envelope', true),
	createTag: { method: 'POST', path: '/v1/tags', budget: 'org', repeat: 'never', answer: 'envelope', inferred: true },
	deleteTag: { method: 'DELETE', path: '/v1/tags/{tagId}', budget: 'org', repeat: 'never', answer: 'bare', inferred: false },
	createComment: { method: 'POST', path: '/v1/comments', budget: 'org', repeat: 'never', answer: 'envelope', inferred: false },
	getTask: read('/v1/tasks/{taskId}', 'envelope'),
	listTasks: read('/v1/tasks', 'envelope', true),
	createTask: { method: 'POST', path: '/v1/tasks', budget: 'org', repeat: 'never', answer: 'envelope', inferred: true },

	// Channels, threads, messages
	listChannels: read('/v1/channels', 'counted'),
	updateThread: { method: 'PUT', path: '/v1/thread/{threadId}', budget: 'org', repeat: 'idempotent', answer: 'bare', inferred: false },
	listThreads: read('/v1/threads', 'paginated', true),
	getMessage: read('/v1/messages/{messageId}', 'bare'),

	// WhatsApp Business (WABA)
	sendMedia: { method: 'POST', path: '/v1/waba/send-media', budget: 'org', repeat: 'provider502', answer: 'send', inferred: false },
	sendTemplate: { method: 'POST', path: '/v1/waba/send-template', budget: 'org', repeat: 'provider502', answer: 'send', inferred: false },
	sendMessage: { method: 'POST', path: '/v1/waba/send-message', budget: 'org', repeat: 'provider502', answer: 'send', inferred: true },
	listTemplates: read('/v1/waba/templates', 'envelope', true),

	// Events
	sendEvents: { method: 'POST', path: '/v1/events', budget: 'events', repeat: 'eventIds', answer: 'envelope', inferred: false },
} satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The path with its parameters filled in and URI-encoded. */
export function endpointPath(name: EndpointName, params: Record<string, string> = {}): string {
	return ENDPOINTS[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
		const value = params[key];
		if (value === undefined) throw new Error(`Missing path parameter ${key} for ${name}`);
		return encodeURIComponent(value);
	});
}
