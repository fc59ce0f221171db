import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';

import {
	bare,
	envelope,
	type RouteDef,
	type SimRequest,
	type SimResponse,
	type Simulator,
} from '../server.cts';
import type { Channel, Contact, Message, Organization, Thread } from '../types.cts';
import {
	answering,
	invalid,
	isUuid,
	notFound,
	objectBody,
	oneOf,
	optionalBoolean,
	optionalString,
	page,
	pageQuery,
	rejectUnknownFields,
	requiredString,
	type Body,
} from './requestFields.cts';

/** WhatsApp's customer service window: free-form messages only within 24 hours. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

// ---- Channels ---------------------------------------------------------------------------------

/** `sort`, `name` and `answer_method` are the names docs/decisions.md infers. */
function listChannels(req: SimRequest) {
	const { limit, offset } = pageQuery(req.query, 10);
	const sort =
		req.query.sort === undefined ? 'desc' : oneOf('sort', req.query.sort, ['asc', 'desc'] as const);
	const { status, type, answer_method } = req.query;
	const name = req.query.name?.toLowerCase();
	// newest first among equal creation times too: insertion order, reversed for `desc`
	const inOrder = [...req.org.channels.values()];
	if (sort === 'desc') inOrder.reverse();
	const matching = inOrder
		.filter(
			(channel) =>
				(!status || channel.status === status) &&
				(!type || channel.type === type) &&
				(!answer_method || channel.answer_method === answer_method) &&
				(!name || channel.name.toLowerCase().includes(name)),
		)
		.sort((a, b) => (sort === 'asc' ? 1 : -1) * a.created_at.localeCompare(b.created_at));
	return bare({ data: page(matching, { limit, offset }), count: matching.length });
}

// ---- Threads ----------------------------------------------------------------------------------

/** Thread status values beyond these are not shown in the reference, so none other is accepted. */
const THREAD_STATUSES = ['open', 'closed'] as const;

type ThreadView = Omit<Thread, 'window_open_until'>;

export function threadView({ window_open_until: _window, ...visible }: Thread): ThreadView {
	return visible;
}

function updateThread(req: SimRequest) {
	const thread = req.org.threads.get(req.params.threadId);
	if (!thread) throw notFound(`Thread ${req.params.threadId} not found`);
	const body = objectBody(req.body ?? {});
	rejectUnknownFields(body, ['status', 'assignee', 'assignee_type']);
	const status =
		body.status === undefined ? undefined : oneOf('status', body.status, THREAD_STATUSES);
	const assignment = threadAssignment(req.org, body);
	if (status) thread.status = status;
	if (assignment) Object.assign(thread, assignment);
	thread.updated_at = req.sim.clock.iso();
	return bare(threadView(thread));
}

/** The assignment the body asks for, checked; `undefined` when the body leaves it alone. */
function threadAssignment(
	org: Organization,
	body: Body,
): Pick<Thread, 'assignee' | 'assignee_type'> | undefined {
	if (body.assignee === undefined) {
		if (body.assignee_type !== undefined && body.assignee_type !== null) {
			throw invalid('assignee_type is only accepted together with assignee');
		}
		return undefined;
	}
	if (body.assignee === null) {
		if (body.assignee_type !== undefined && body.assignee_type !== null) {
			throw invalid('assignee_type must be absent or null when assignee is null (unassign)');
		}
		return { assignee: null, assignee_type: null };
	}
	if (!isUuid(body.assignee))
		throw invalid('assignee must be the UUID of a user or an agent, or null to unassign');
	if (body.assignee_type === undefined || body.assignee_type === null) {
		throw invalid('assignee_type (user or agent) is required when assignee is set');
	}
	const assignee_type = oneOf('assignee_type', body.assignee_type, ['user', 'agent'] as const);
	const known =
		assignee_type === 'user'
			? org.members.some((m) => m.id === body.assignee)
			: org.agents.has(body.assignee);
	if (!known)
		throw invalid(
			`assignee ${body.assignee} is not ${assignee_type === 'user' ? 'a user' : 'an agent'} of the organization`,
		);
	return { assignee: body.assignee, assignee_type };
}

/** Inferred (docs/decisions.md): newest `updated_at` first; `limit` default 100, at most 1000. */
function listThreads(req: SimRequest) {
	const pageOf = pageQuery(req.query, 100, 1000);
	const { status, channel_id } = req.query;
	// among equal `updated_at`, the thread created last comes first
	const matching = [...req.org.threads.values()]
		.reverse()
		.filter(
			(thread) =>
				(!status || thread.status === status) && (!channel_id || thread.channel_id === channel_id),
		)
		.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
	return bare({
		data: page(matching, pageOf).map(threadView),
		pagination: { total_rows: matching.length },
	});
}

// ---- Messages ---------------------------------------------------------------------------------

function getMessage(req: SimRequest) {
	const message = req.org.messages.get(req.params.messageId);
	if (!message) throw notFound(`Message ${req.params.messageId} not found`);
	return bare(message);
}

// ---- WhatsApp (WABA) sends --------------------------------------------------------------------

/** Errors of the sends keep the sends' `success` flag beside the project's `{statusCode, message}`. */
function sendError(status: number, message: string): SimResponse {
	return { status, body: { statusCode: status, success: false, message } };
}

interface Conversation {
	channel: Channel;
	contact: Contact;
	thread?: Thread;
}

/**
 * Channel and contact of a send: from `thread_id` when given (then `channel_id` and `contact_id`
 * may be left out, and must agree with the thread if present), else from both fields.
 */
function conversationOf(org: Organization, body: Body): Conversation {
	const threadId = optionalString(body, 'thread_id');
	const thread = threadId === undefined ? undefined : org.threads.get(threadId);
	if (threadId !== undefined && !thread) throw notFound(`Thread ${threadId} not found`);
	const channelId = thread
		? (optionalString(body, 'channel_id') ?? thread.channel_id)
		: requiredString(body, 'channel_id');
	const contactId = thread
		? (optionalString(body, 'contact_id') ?? thread.contact_id)
		: requiredString(body, 'contact_id');
	if (thread && (channelId !== thread.channel_id || contactId !== thread.contact_id)) {
		throw invalid(
			`channel_id and contact_id must match those of thread ${thread.id}, or be left out`,
		);
	}
	const channel = wabaChannel(org, channelId);
	if (channel.status !== 'active')
		throw invalid(`Channel ${channel.id} is inactive; sends need an active channel`);
	const contact = contactOf(org, contactId);
	return { channel, contact, thread: thread ?? conversationThread(org, channel.id, contact.id) };
}

function wabaChannel(org: Organization, channelId: string): Channel {
	const channel = org.channels.get(channelId);
	if (!channel) throw invalid(`channel_id: no channel ${channelId} in this organization`);
	if (channel.type !== 'WABA')
		throw invalid(
			`Invalid channel type: ${channel.id} is ${channel.type}, a WABA channel is required`,
		);
	return channel;
}

function contactOf(org: Organization, contactId: string): Contact {
	if (!isUuid(contactId)) throw invalid('contact_id must be a UUID');
	const contact = org.contacts.get(contactId);
	if (!contact) throw notFound(`Contact ${contactId} not found`);
	return contact;
}

/** One thread per channel and contact: the conversation between them. */
function conversationThread(
	org: Organization,
	channelId: string,
	contactId: string,
): Thread | undefined {
	return [...org.threads.values()].find(
		(t) => t.channel_id === channelId && t.contact_id === contactId,
	);
}

function startThread(
	sim: Simulator,
	org: Organization,
	channel: Channel,
	contact: Contact,
): Thread {
	const thread: Thread = {
		id: `thr-${randomUUID()}`,
		channel_id: channel.id,
		channel_type: channel.type,
		contact_id: contact.id,
		organization_id: org.id,
		status: 'open',
		assignee: null,
		assignee_type: null,
		updated_at: sim.clock.iso(),
		window_open_until: 0,
	};
	org.threads.set(thread.id, thread);
	return thread;
}

interface Outbound {
	type: Message['type'];
	content: string;
	media: Record<string, unknown> | null;
	/** A template may open a conversation; anything else needs the 24-hour window open. */
	isTemplate: boolean;
	save: boolean;
}

interface Sent {
	message_id: string | null;
	provider_id: string;
	thread_id: string;
}

/**
 * Hand a message to the provider and, unless `save_message` is false, store it in the thread.
 * With `save_message: false` no message is stored and `message_id` is null; a template still
 * records the window it opens on the conversation's thread (created if there is none), because
 * the window is the conversation's state, not the message's.
 */
function sendOutbound(req: SimRequest, conversation: Conversation, outbound: Outbound): Sent {
	const now = req.sim.clock.now();
	const { channel, contact } = conversation;
	let thread = conversation.thread;
	if (!outbound.isTemplate && !(thread && thread.window_open_until > now)) {
		throw invalid(
			'The 24-hour customer service window is closed for this contact: a template is required (send an approved template with /v1/waba/send-template)',
		);
	}
	thread ??= startThread(req.sim, req.org, channel, contact);
	if (outbound.isTemplate) thread.window_open_until = now + SERVICE_WINDOW_MS;
	const sent: Sent = {
		message_id: null,
		provider_id: `wamid.${randomBytes(12).toString('hex')}`,
		thread_id: thread.id,
	};
	if (!outbound.save) return sent;
	const message: Message = {
		id: `msg-${randomUUID()}`,
		thread_id: thread.id,
		role: 'human',
		type: outbound.type,
		content: outbound.content,
		media: outbound.media,
		from: channel.name,
		source: 'webapp',
		status: 'sent',
		sender_id: null,
		created_at: req.sim.clock.iso(now),
	};
	req.org.messages.set(message.id, message);
	thread.updated_at = message.created_at;
	return { ...sent, message_id: message.id };
}

function sent(message: string, data: object): SimResponse {
	return bare({ success: true, message, data });
}

const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];
const EXTENSION: Record<MediaType, string> = {
	image: 'jpg',
	video: 'mp4',
	audio: 'ogg',
	document: 'pdf',
};

function sendMedia(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, [
		'channel_id',
		'contact_id',
		'media_type',
		'media_data',
		'content',
		'file_name',
		'thread_id',
		'save_message',
	]);
	const mediaType = oneOf('media_type', requiredString(body, 'media_type'), MEDIA_TYPES);
	const mediaData = requiredString(body, 'media_data');
	const caption = optionalString(body, 'content') ?? '';
	const fileName = optionalString(body, 'file_name');
	if (fileName !== undefined && mediaType !== 'document')
		throw invalid('file_name applies to documents only (media_type document)');
	const save = optionalBoolean(body, 'save_message') ?? true;
	const stored = storedMedia(req, mediaData, mediaType);
	const conversation = conversationOf(req.org, body);
	const media = {
		media_type: mediaType,
		url: stored.url,
		size_bytes: stored.sizeBytes,
		...(mediaType === 'document' && { file_name: fileName || defaultFileName(req, mediaType) }),
	};
	const delivery = sendOutbound(req, conversation, {
		type: mediaType,
		content: caption,
		media,
		isTemplate: false,
		save,
	});
	return sent('Media message sent', { ...delivery, media_url: stored.url });
}

function defaultFileName(req: SimRequest, mediaType: MediaType): string {
	const stamp = req.sim.clock.iso().replace(/\D/g, '').slice(0, 14);
	return `${mediaType}-${stamp}.${EXTENSION[mediaType]}`;
}

/**
 * `media_data` is a public http(s) URL (sent as is) or a base64 file, plain or as a data URI,
 * which the service uploads to its storage: the simulator keeps its size and a storage URL.
 */
function storedMedia(
	req: SimRequest,
	mediaData: string,
	mediaType: MediaType,
): { url: string; sizeBytes: number | null } {
	if (/^https?:\/\//i.test(mediaData)) return { url: publicUrl(mediaData), sizeBytes: null };
	const base64 = mediaData.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/i, '').replace(/\s+/g, '');
	if (!isBase64(base64)) {
		throw invalid(
			'Invalid media: media_data must be a public http(s) URL or a base64-encoded file',
		);
	}
	const url = `https://storage.simulator.example.test/${req.org.id}/${randomUUID()}.${EXTENSION[mediaType]}`;
	return { url, sizeBytes: Buffer.from(base64, 'base64').length };
}

/**
 * Whole quartets of the base64 alphabet, padding only at the end. A character loop, because a
 * regex over a 10 MB file can overflow V8's backtracking stack (seen in CI, not always locally).
 */
function isBase64(text: string): boolean {
	if (!text.length || text.length % 4 !== 0) return false;
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	for (let i = 0; i < text.length - padding; i++) {
		const c = text.charCodeAt(i);
		const alphabet =
			(c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
		if (!alphabet) return false;
	}
	return true;
}

/** The provider fetches the URL itself, so loopback, private and link-local hosts are refused. */
function publicUrl(raw: string): string {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw invalid('Invalid media: media_data is not a valid URL');
	}
	const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
	const privateHost =
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		(isIP(host) === 4 &&
			/^(?:127\.|10\.|192\.168\.|169\.254\.|0\.|172\.(?:1[6-9]|2\d|3[01])\.)/.test(host)) ||
		(isIP(host) === 6 && /^(?:::1?$|fc|fd|fe80)/.test(host));
	if (privateHost)
		throw invalid(
			`Invalid media: media_data must be a public URL; ${url.hostname} is not reachable by the provider`,
		);
	return url.toString();
}

const COMPONENT_TYPES = ['BODY', 'HEADER', 'BUTTON'] as const;

function sendTemplate(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, [
		'channel_id',
		'contact_id',
		'template_name',
		'language_code',
		'components',
		'thread_id',
		'save_message',
	]);
	const templateName = requiredString(body, 'template_name');
	const languageCode = optionalString(body, 'language_code') ?? 'es';
	const components = templateComponents(body.components);
	const save = optionalBoolean(body, 'save_message') ?? true;
	const conversation = conversationOf(req.org, body);
	const template = req.org.templates.find(
		(t) =>
			t.channel_id === conversation.channel.id &&
			t.name === templateName &&
			t.language === languageCode,
	);
	if (!template || template.status !== 'APPROVED') {
		throw invalid(
			`Template not found: no approved template ${templateName} in language ${languageCode} for channel ${conversation.channel.id}`,
		);
	}
	const media = { template_name: templateName, language_code: languageCode, components };
	const delivery = sendOutbound(req, conversation, {
		type: 'template',
		content: templateName,
		media,
		isTemplate: true,
		save,
	});
	return sent('Template message sent', delivery);
}

/** `components`: `{type: BODY|HEADER|BUTTON, parameters?: [{type, text?, parameter_name?}]}`. */
function templateComponents(value: unknown): Body[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw invalid('components must be an array');
	return value.map((item: unknown, index) => {
		const where = `components[${index}]`;
		const component = objectAt(where, item);
		oneOf(`${where}.type`, component.type, COMPONENT_TYPES);
		if (component.parameters !== undefined) {
			if (!Array.isArray(component.parameters))
				throw invalid(`${where}.parameters must be an array`);
			component.parameters.forEach((parameter: unknown, p) =>
				templateParameter(`${where}.parameters[${p}]`, parameter),
			);
		}
		return component;
	});
}

function templateParameter(where: string, value: unknown): void {
	const parameter = objectAt(where, value);
	if (typeof parameter.type !== 'string' || !parameter.type)
		throw invalid(`${where}.type is required (text, image, document, ...)`);
	if (parameter.type === 'text' && typeof parameter.text !== 'string')
		throw invalid(`${where}.text is required for a text parameter`);
	for (const key of ['text', 'parameter_name']) {
		if (parameter[key] !== undefined && typeof parameter[key] !== 'string')
			throw invalid(`${where}.${key} must be a string`);
	}
}

function objectAt(where: string, value: unknown): Body {
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw invalid(`${where} must be an object`);
	return value as Body;
}

/** Inferred (docs/decisions.md): free-form text, only inside the 24-hour window. */
function sendMessage(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, ['channel_id', 'contact_id', 'content', 'thread_id', 'save_message']);
	const content = requiredString(body, 'content');
	const save = optionalBoolean(body, 'save_message') ?? true;
	const conversation = conversationOf(req.org, body);
	const delivery = sendOutbound(req, conversation, {
		type: 'text',
		content,
		media: null,
		isTemplate: false,
		save,
	});
	return sent('Message sent', delivery);
}

/** Inferred (docs/decisions.md): every template of the organization's WABA channels, or of one. */
function listTemplates(req: SimRequest) {
	const channelId = req.query.channel_id;
	if (channelId) wabaChannel(req.org, channelId);
	const templates = req.org.templates
		.filter((t) => !channelId || t.channel_id === channelId)
		.map(({ name, language, status, category }) => ({ name, language, status, category }));
	return envelope(templates);
}

export const messagingRoutes: RouteDef[] = [
	{ method: 'GET', pattern: '/v1/channels', handler: answering(listChannels) },
	{ method: 'GET', pattern: '/v1/threads', handler: answering(listThreads) },
	{ method: 'PUT', pattern: '/v1/thread/:threadId', handler: answering(updateThread) },
	{ method: 'GET', pattern: '/v1/messages/:messageId', handler: answering(getMessage) },
	{ method: 'POST', pattern: '/v1/waba/send-media', handler: answering(sendMedia, sendError) },
	{
		method: 'POST',
		pattern: '/v1/waba/send-template',
		handler: answering(sendTemplate, sendError),
	},
	{ method: 'POST', pattern: '/v1/waba/send-message', handler: answering(sendMessage, sendError) },
	{ method: 'GET', pattern: '/v1/waba/templates', handler: answering(listTemplates) },
];

// ---- Test helpers: what customers do ----------------------------------------------------------

export interface InboundMessage {
	channelId: string;
	contactId: string;
	content: string;
}

/**
 * A customer writes on WhatsApp: the conversation's thread is created or reopened, the message
 * is stored (`source: 'whatsapp'`), the 24-hour window opens, the thread's `updated_at` and the
 * contact's last activity move to now.
 */
export function receiveInboundMessage(
	sim: Simulator,
	org: Organization,
	inbound: InboundMessage,
): { thread: Thread; message: Message } {
	const channel = org.channels.get(inbound.channelId);
	const contact = org.contacts.get(inbound.contactId);
	if (!channel || !contact)
		throw new Error(
			`no channel ${inbound.channelId} or contact ${inbound.contactId} in organization ${org.id}`,
		);
	const now = sim.clock.now();
	const thread =
		conversationThread(org, channel.id, contact.id) ?? startThread(sim, org, channel, contact);
	const message: Message = {
		id: `msg-${randomUUID()}`,
		thread_id: thread.id,
		role: 'human',
		type: 'text',
		content: inbound.content,
		media: null,
		from: contact.phone_number,
		source: 'whatsapp',
		status: 'delivered',
		sender_id: null,
		created_at: sim.clock.iso(now),
	};
	org.messages.set(message.id, message);
	Object.assign(thread, {
		status: 'open',
		updated_at: message.created_at,
		window_open_until: now + SERVICE_WINDOW_MS,
	});
	contact.last_activity_at = now;
	return { thread, message };
}

/** The provider reports a delivery status change (delivered, read, failed) of a message. */
export function setMessageStatus(
	org: Organization,
	messageId: string,
	status: Message['status'],
): Message {
	const message = org.messages.get(messageId);
	if (!message) throw new Error(`no message ${messageId} in organization ${org.id}`);
	message.status = status;
	return message;
}
