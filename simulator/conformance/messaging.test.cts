import { randomUUID } from 'node:crypto';

import { startSimulator, type Simulator } from '../index.cts';
import { insertContacts } from '../routes/contacts.cts';
import {
	receiveInboundMessage,
	SERVICE_WINDOW_MS,
	setMessageStatus,
} from '../routes/messaging.cts';
import type { Channel, Contact, Organization, Thread } from '../types.cts';
import { api } from '../client.cts';

const badRequest = { statusCode: 400, message: expect.any(String) };
const notFound = { statusCode: 404, message: expect.any(String) };
const sendFailure = (status: number) => ({
	statusCode: status,
	success: false,
	message: expect.any(String),
});

const contactByPhone = (org: Organization, phone: string): Contact =>
	[...org.contacts.values()].find((contact) => contact.phone_number === phone)!;
const channelOfType = (org: Organization, type: Channel['type']): Channel =>
	[...org.channels.values()].find((channel) => channel.type === type)!;
const threadOf = (org: Organization, contact: Contact): Thread =>
	[...org.threads.values()].find((thread) => thread.contact_id === contact.id)!;

const THREAD_KEYS = [
	'assignee',
	'assignee_type',
	'channel_id',
	'channel_type',
	'contact_id',
	'id',
	'organization_id',
	'status',
	'updated_at',
];
/** 1x1 transparent PNG, 68 bytes. */
const PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('Channels, threads, messages and WhatsApp sends', () => {
	let sim: Simulator;
	let waba: Channel;
	let maria: Contact; // seeded: open thread, window open
	let john: Contact; // seeded: closed thread, window expired
	let lucas: Contact; // seeded: no thread
	beforeEach(async () => {
		sim = await startSimulator();
		waba = channelOfType(sim.org, 'WABA');
		maria = contactByPhone(sim.org, '+34600000001');
		john = contactByPhone(sim.org, '+14155550123');
		lucas = contactByPhone(sim.org, '+5511999990000');
	});
	afterEach(() => sim.stop());

	describe('GET /v1/channels', () => {
		function addChannels(count: number): void {
			for (let i = 0; i < count; i++) {
				const id = `chn_${randomUUID()}`;
				const created_at = new Date(Date.UTC(2024, 0, 1 + i)).toISOString();
				sim.org.channels.set(id, {
					id,
					name: `Support ${i}`,
					type: 'WABA',
					status: i % 2 ? 'inactive' : 'active',
					answer_method: i % 3 ? 'manual' : 'auto',
					organization_id: sim.org.id,
					created_at,
				});
			}
		}

		it('answers bare {data, count}: 10 per page by default, count is the total matching', async () => {
			addChannels(12);
			const res = await api(sim, 'GET', '/v1/channels');
			expect(res.status).toBe(200);
			expect(Object.keys(res.body).sort()).toEqual(['count', 'data']);
			expect(res.body.data).toHaveLength(10);
			expect(res.body.count).toBe(14);
			expect(Object.keys(res.body.data[0]).sort()).toEqual([
				'answer_method',
				'created_at',
				'id',
				'name',
				'organization_id',
				'status',
				'type',
			]);
		});

		it('sorts by creation date, newest first by default, oldest first with sort=asc', async () => {
			addChannels(3);
			const names = async (query: Record<string, string>) =>
				(
					await api(sim, 'GET', '/v1/channels', { query: { name: 'support', ...query } })
				).body.data.map((c: Channel) => c.name);
			expect(await names({})).toEqual(['Support 2', 'Support 1', 'Support 0']);
			expect(await names({ sort: 'desc' })).toEqual(['Support 2', 'Support 1', 'Support 0']);
			expect(await names({ sort: 'asc' })).toEqual(['Support 0', 'Support 1', 'Support 2']);
		});

		it('pages with limit and offset', async () => {
			addChannels(5);
			const res = await api(sim, 'GET', '/v1/channels', {
				query: { name: 'support', sort: 'asc', limit: 2, offset: 2 },
			});
			expect(res.body).toEqual({
				data: [
					expect.objectContaining({ name: 'Support 2' }),
					expect.objectContaining({ name: 'Support 3' }),
				],
				count: 5,
			});
		});

		it.each([
			[{ status: 'inactive' }, ['Instagram DMs']],
			[{ type: 'INSTAGRAM' }, ['Instagram DMs']],
			[{ name: 'whatsapp' }, ['WhatsApp Sales']],
			[{ answer_method: 'auto' }, ['Instagram DMs']],
			[{ type: 'WABA', status: 'active' }, ['WhatsApp Sales']],
		])('filters by %j', async (query, expected) => {
			const res = await api(sim, 'GET', '/v1/channels', { query });
			expect(res.body.data.map((c: Channel) => c.name)).toEqual(expected);
			expect(res.body.count).toBe(expected.length);
		});

		it('answers 400 for a sort other than asc or desc, or a limit that is not a whole number', async () => {
			expect((await api(sim, 'GET', '/v1/channels', { query: { sort: 'newest' } })).body).toEqual(
				badRequest,
			);
			expect((await api(sim, 'GET', '/v1/channels', { query: { limit: 'all' } })).status).toBe(400);
		});

		it("lists only the caller's channels", async () => {
			const res = await api(sim, 'GET', '/v1/channels');
			expect(res.body.data.every((c: Channel) => c.organization_id === sim.org.id)).toBe(true);
		});
	});

	describe('PUT /v1/thread/{threadId}', () => {
		const put = (thread: Thread, body: unknown) =>
			api(sim, 'PUT', `/v1/thread/${thread.id}`, { body });

		it('closes and reopens a thread, answering the bare Thread and bumping updated_at', async () => {
			const thread = threadOf(sim.org, maria);
			const before = thread.updated_at;
			await sim.clock.advance(5_000);
			const closed = await put(thread, { status: 'closed' });
			expect(closed.status).toBe(200);
			expect(Object.keys(closed.body).sort()).toEqual(THREAD_KEYS);
			expect(closed.body).toMatchObject({
				id: thread.id,
				status: 'closed',
				contact_id: maria.id,
				channel_id: waba.id,
				channel_type: 'WABA',
			});
			expect(Date.parse(closed.body.updated_at)).toBeGreaterThan(Date.parse(before));
			expect((await put(thread, { status: 'open' })).body.status).toBe('open');
		});

		it('assigns a user or an agent; null unassigns and clears the type', async () => {
			const thread = threadOf(sim.org, maria);
			const member = sim.org.members[1];
			const agent = [...sim.org.agents.values()][0];
			expect(
				(await put(thread, { assignee: member.id, assignee_type: 'user' })).body,
			).toMatchObject({ assignee: member.id, assignee_type: 'user', status: 'open' });
			expect(
				(await put(thread, { assignee: agent.id, assignee_type: 'agent' })).body,
			).toMatchObject({ assignee: agent.id, assignee_type: 'agent' });
			expect((await put(thread, { assignee: null })).body).toMatchObject({
				assignee: null,
				assignee_type: null,
			});
		});

		it.each([
			['a status other than open or closed', () => ({ status: 'archived' }), /status/],
			['an assignee without assignee_type', (m: string) => ({ assignee: m }), /assignee_type/],
			[
				'an assignee_type outside user and agent',
				(m: string) => ({ assignee: m, assignee_type: 'team' }),
				/assignee_type/,
			],
			[
				'an assignee that is not a UUID',
				() => ({ assignee: 'bruno', assignee_type: 'user' }),
				/assignee/,
			],
			[
				'a user id given as an agent',
				(m: string) => ({ assignee: m, assignee_type: 'agent' }),
				/agent/,
			],
			['an unknown user', () => ({ assignee: randomUUID(), assignee_type: 'user' }), /user/],
			['assignee_type alone', () => ({ assignee_type: 'user' }), /assignee_type/],
			['an unknown field', () => ({ state: 'closed' }), /state/],
		])('answers 400 for %s', async (_case, body, message) => {
			const res = await put(threadOf(sim.org, maria), body(sim.org.members[0].id));
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(message);
		});

		it("answers 404 for an unknown thread and for another organization's", async () => {
			expect(
				(await api(sim, 'PUT', `/v1/thread/thr-${randomUUID()}`, { body: { status: 'closed' } }))
					.body,
			).toEqual(notFound);
			const foreign = [...sim.otherOrg.threads.values()][0];
			expect((await put(foreign, { status: 'closed' })).status).toBe(404);
			expect(foreign.status).toBe('open');
		});
	});

	describe('GET /v1/threads (inferred)', () => {
		it('answers {data, pagination: {total_rows}}, newest updated_at first', async () => {
			await sim.clock.advance(1000);
			receiveInboundMessage(sim, sim.org, {
				channelId: waba.id,
				contactId: john.id,
				content: 'Hi again',
			});
			const res = await api(sim, 'GET', '/v1/threads');
			expect(res.status).toBe(200);
			expect(res.body.pagination).toEqual({ total_rows: 2 });
			expect(res.body.data.map((t: Thread) => t.contact_id)).toEqual([john.id, maria.id]);
			expect(Object.keys(res.body.data[0]).sort()).toEqual(THREAD_KEYS);
		});

		it('filters by status and channel_id, pages with limit and offset', async () => {
			expect(
				(await api(sim, 'GET', '/v1/threads', { query: { status: 'closed' } })).body.data.map(
					(t: Thread) => t.contact_id,
				),
			).toEqual([john.id]);
			expect(
				(await api(sim, 'GET', '/v1/threads', { query: { channel_id: 'chn_none' } })).body,
			).toEqual({ data: [], pagination: { total_rows: 0 } });
			const second = await api(sim, 'GET', '/v1/threads', { query: { limit: 1, offset: 1 } });
			expect(second.body.data.map((t: Thread) => t.contact_id)).toEqual([john.id]);
			expect(second.body.pagination.total_rows).toBe(2);
		});

		it('answers 400 for a limit above 1000', async () => {
			expect((await api(sim, 'GET', '/v1/threads', { query: { limit: 1001 } })).body).toEqual(
				badRequest,
			);
		});
	});

	describe('GET /v1/messages/{messageId}', () => {
		it('answers the bare Message', async () => {
			const { message } = receiveInboundMessage(sim, sim.org, {
				channelId: waba.id,
				contactId: maria.id,
				content: 'Hola',
			});
			const res = await api(sim, 'GET', `/v1/messages/${message.id}`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual(message);
			expect(res.body).toMatchObject({
				role: 'human',
				type: 'text',
				source: 'whatsapp',
				from: maria.phone_number,
				sender_id: null,
			});
		});

		it("answers 404 for an unknown message and for another organization's", async () => {
			expect((await api(sim, 'GET', '/v1/messages/msg-nope')).body).toEqual(notFound);
			const foreign = [...sim.otherOrg.messages.values()][0];
			expect((await api(sim, 'GET', `/v1/messages/${foreign.id}`)).status).toBe(404);
		});
	});

	describe('POST /v1/waba/send-media', () => {
		const sendMedia = (body: Record<string, unknown>) =>
			api(sim, 'POST', '/v1/waba/send-media', {
				body: {
					channel_id: waba.id,
					contact_id: maria.id,
					media_type: 'image',
					media_data: 'https://cdn.example.com/a.jpg',
					...body,
				},
			});

		it("sends a public URL and stores the message in the conversation's thread", async () => {
			const res = await sendMedia({ content: 'Our menu' });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				success: true,
				message: expect.any(String),
				data: {
					message_id: expect.stringMatching(/^msg-/),
					provider_id: expect.any(String),
					media_url: 'https://cdn.example.com/a.jpg',
					thread_id: threadOf(sim.org, maria).id,
				},
			});
			const stored = await api(sim, 'GET', `/v1/messages/${res.body.data.message_id}`);
			expect(stored.body).toMatchObject({
				type: 'image',
				content: 'Our menu',
				role: 'human',
				source: 'webapp',
				status: 'sent',
				sender_id: null,
			});
		});

		it('uploads base64 (plain or data URI): generated storage URL, decoded size kept', async () => {
			for (const mediaData of [PNG_BASE64, `data:image/png;base64,${PNG_BASE64}`]) {
				const res = await sendMedia({ media_data: mediaData });
				expect(res.status).toBe(200);
				expect(res.body.data.media_url).toMatch(/^https:\/\/storage\..+\.jpg$/);
				const stored = sim.org.messages.get(res.body.data.message_id)!;
				expect(stored.media).toMatchObject({ url: res.body.data.media_url, size_bytes: 68 });
			}
		});

		it('names a document by default after its media type; file_name overrides', async () => {
			const generated = await sendMedia({ media_type: 'document', media_data: PNG_BASE64 });
			expect(sim.org.messages.get(generated.body.data.message_id)!.media).toMatchObject({
				file_name: expect.stringMatching(/^document-\d{14}\.pdf$/),
			});
			const named = await sendMedia({
				media_type: 'document',
				media_data: PNG_BASE64,
				file_name: 'quote.pdf',
			});
			expect(sim.org.messages.get(named.body.data.message_id)!.media).toMatchObject({
				file_name: 'quote.pdf',
			});
		});

		it('infers channel and contact from thread_id', async () => {
			const thread = threadOf(sim.org, maria);
			const res = await api(sim, 'POST', '/v1/waba/send-media', {
				body: {
					thread_id: thread.id,
					media_type: 'audio',
					media_data: 'https://cdn.example.com/a.ogg',
				},
			});
			expect(res.status).toBe(200);
			expect(res.body.data.thread_id).toBe(thread.id);
		});

		it('with save_message false sends without storing: message_id null', async () => {
			const before = sim.org.messages.size;
			const res = await sendMedia({ save_message: false });
			expect(res.status).toBe(200);
			expect(res.body.data.message_id).toBeNull();
			expect(sim.org.messages.size).toBe(before);
		});

		it.each([
			['a missing media_type', { media_type: undefined }, /media_type/],
			['a media_type outside the enum', { media_type: 'sticker' }, /media_type/],
			['a missing media_data', { media_data: undefined }, /media_data/],
			['media_data that is neither URL nor base64', { media_data: 'not base64!' }, /media/],
			['truncated base64', { media_data: PNG_BASE64.slice(0, -3) }, /media/],
			['a private URL', { media_data: 'http://127.0.0.1/a.jpg' }, /public/],
			['a localhost URL', { media_data: 'https://localhost/a.jpg' }, /public/],
			['file_name on an image', { file_name: 'a.jpg' }, /file_name/],
			['a missing channel_id', { channel_id: undefined }, /channel_id/],
			['an unknown channel', { channel_id: 'chn_unknown' }, /channel/],
			['a contact_id that is not a UUID', { contact_id: 'maria' }, /contact_id/],
			['save_message that is not a boolean', { save_message: 'yes' }, /save_message/],
		])('answers 400 for %s', async (_case, body, message) => {
			const res = await sendMedia(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual(sendFailure(400));
			expect(res.body.message).toMatch(message);
		});

		it('answers 400 for a channel that is not WABA, and for an inactive WABA channel', async () => {
			const instagram = channelOfType(sim.org, 'INSTAGRAM');
			const wrongType = await sendMedia({ channel_id: instagram.id });
			expect(wrongType.status).toBe(400);
			expect(wrongType.body.message).toMatch(/channel type/i);
			waba.status = 'inactive';
			const inactive = await sendMedia({});
			expect(inactive.status).toBe(400);
			expect(inactive.body.message).toMatch(/inactive/);
		});

		it("answers 400 for another organization's channel, 404 for an unknown or foreign contact", async () => {
			const foreignChannel = channelOfType(sim.otherOrg, 'WABA');
			expect((await sendMedia({ channel_id: foreignChannel.id })).status).toBe(400);
			expect((await sendMedia({ contact_id: randomUUID() })).body).toEqual(sendFailure(404));
			const foreignContact = [...sim.otherOrg.contacts.values()][0];
			expect((await sendMedia({ contact_id: foreignContact.id })).status).toBe(404);
		});

		it('answers 404 for an unknown thread_id, 400 when channel or contact contradict the thread', async () => {
			expect((await sendMedia({ thread_id: `thr-${randomUUID()}` })).status).toBe(404);
			const res = await sendMedia({ thread_id: threadOf(sim.org, maria).id, contact_id: john.id });
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(/thread/);
		});

		it('answers 400 outside the 24-hour window: a template is required', async () => {
			const res = await sendMedia({ contact_id: john.id });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(sendFailure(400));
			expect(res.body.message).toMatch(/24-hour.*template/);
		});
	});

	describe('POST /v1/waba/send-template', () => {
		const sendTemplate = (body: Record<string, unknown>) =>
			api(sim, 'POST', '/v1/waba/send-template', {
				body: {
					channel_id: waba.id,
					contact_id: lucas.id,
					template_name: 'appointment_reminder',
					...body,
				},
			});

		it('sends an approved template (language es by default), creating the thread and storing the message', async () => {
			const res = await sendTemplate({
				components: [
					{ type: 'BODY', parameters: [{ type: 'text', text: 'Lucas', parameter_name: 'name' }] },
				],
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				success: true,
				message: expect.any(String),
				data: {
					message_id: expect.stringMatching(/^msg-/),
					provider_id: expect.any(String),
					thread_id: expect.stringMatching(/^thr-/),
				},
			});
			const thread = threadOf(sim.org, lucas);
			expect(thread).toMatchObject({
				id: res.body.data.thread_id,
				status: 'open',
				channel_id: waba.id,
			});
			expect(sim.org.messages.get(res.body.data.message_id)).toMatchObject({
				type: 'template',
				thread_id: thread.id,
			});
		});

		it('opens the 24-hour window: free-form messages then pass, until it expires', async () => {
			const free = () =>
				api(sim, 'POST', '/v1/waba/send-message', {
					body: { channel_id: waba.id, contact_id: john.id, content: 'Hello' },
				});
			expect((await free()).status).toBe(400);
			expect((await sendTemplate({ contact_id: john.id })).status).toBe(200);
			expect((await free()).status).toBe(200);
			await sim.clock.advance(SERVICE_WINDOW_MS);
			expect((await free()).status).toBe(400);
		});

		it('answers 400 "template not found" for an unknown name, another language or an unapproved template', async () => {
			sim.org.templates.push({
				name: 'pending_promo',
				language: 'es',
				status: 'PENDING',
				category: 'MARKETING',
				channel_id: waba.id,
			});
			for (const body of [
				{ template_name: 'nope' },
				{ template_name: 'welcome_offer' },
				{ template_name: 'pending_promo' },
			]) {
				const res = await sendTemplate(body);
				expect(res.status).toBe(400);
				expect(res.body).toEqual(sendFailure(400));
				expect(res.body.message).toMatch(/template not found/i);
			}
			expect(
				(await sendTemplate({ template_name: 'welcome_offer', language_code: 'en_US' })).status,
			).toBe(200);
		});

		it.each([
			['a missing template_name', { template_name: undefined }, /template_name/],
			['components that are not an array', { components: { type: 'BODY' } }, /components/],
			[
				'a component type outside BODY, HEADER, BUTTON',
				{ components: [{ type: 'body' }] },
				/components\[0\]\.type/,
			],
			[
				'a parameter without type',
				{ components: [{ type: 'BODY', parameters: [{ text: 'x' }] }] },
				/parameters\[0\]\.type/,
			],
			[
				'a text parameter without text',
				{ components: [{ type: 'HEADER', parameters: [{ type: 'text' }] }] },
				/text/,
			],
			[
				'parameters that are not an array',
				{ components: [{ type: 'BODY', parameters: 'x' }] },
				/parameters/,
			],
			['a missing contact_id', { contact_id: undefined }, /contact_id/],
		])('answers 400 for %s', async (_case, body, message) => {
			const res = await sendTemplate(body);
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(message);
		});

		it('answers 404 for an unknown contact', async () => {
			expect((await sendTemplate({ contact_id: randomUUID() })).body).toEqual(sendFailure(404));
		});

		it('with save_message false stores no message but still opens the window', async () => {
			const res = await sendTemplate({ save_message: false });
			expect(res.body.data.message_id).toBeNull();
			const sendMessage = await api(sim, 'POST', '/v1/waba/send-message', {
				body: { thread_id: res.body.data.thread_id, content: 'Following up' },
			});
			expect(sendMessage.status).toBe(200);
		});
	});

	describe('POST /v1/waba/send-message (inferred)', () => {
		it('sends free-form text inside the window and bumps the thread', async () => {
			const thread = threadOf(sim.org, maria);
			await sim.clock.advance(1000);
			const res = await api(sim, 'POST', '/v1/waba/send-message', {
				body: { channel_id: waba.id, contact_id: maria.id, content: 'See you Thursday' },
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				success: true,
				message: expect.any(String),
				data: {
					message_id: expect.stringMatching(/^msg-/),
					provider_id: expect.any(String),
					thread_id: thread.id,
				},
			});
			expect(thread.updated_at).toBe(sim.org.messages.get(res.body.data.message_id)!.created_at);
		});

		it('answers 400 outside the window, with a reason that asks for a template', async () => {
			const res = await api(sim, 'POST', '/v1/waba/send-message', {
				body: { channel_id: waba.id, contact_id: lucas.id, content: 'Hi' },
			});
			expect(res.status).toBe(400);
			expect(res.body).toEqual(sendFailure(400));
			expect(res.body.message).toMatch(/template is required/);
		});

		it('answers 400 for missing content', async () => {
			const res = await api(sim, 'POST', '/v1/waba/send-message', {
				body: { channel_id: waba.id, contact_id: maria.id },
			});
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(/content/);
		});
	});

	describe('GET /v1/waba/templates (inferred)', () => {
		it('lists {name, language, status, category} in {statusCode, data}, optionally for one channel', async () => {
			const res = await api(sim, 'GET', '/v1/waba/templates', { query: { channel_id: waba.id } });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				statusCode: 200,
				data: [
					{ name: 'appointment_reminder', language: 'es', status: 'APPROVED', category: 'UTILITY' },
					{ name: 'welcome_offer', language: 'en_US', status: 'APPROVED', category: 'MARKETING' },
				],
			});
			expect((await api(sim, 'GET', '/v1/waba/templates')).body.data).toHaveLength(2);
		});

		it("answers 400 for a channel that is not WABA or not the organization's", async () => {
			expect(
				(
					await api(sim, 'GET', '/v1/waba/templates', {
						query: { channel_id: channelOfType(sim.org, 'INSTAGRAM').id },
					})
				).body,
			).toEqual(badRequest);
			expect(
				(
					await api(sim, 'GET', '/v1/waba/templates', {
						query: { channel_id: channelOfType(sim.otherOrg, 'WABA').id },
					})
				).status,
			).toBe(400);
		});
	});

	describe('provider failures (fault injection)', () => {
		const send = () =>
			api(sim, 'POST', '/v1/waba/send-media', {
				body: {
					channel_id: waba.id,
					contact_id: maria.id,
					media_type: 'image',
					media_data: 'https://cdn.example.com/a.jpg',
				},
			});

		it("400 with the provider's reason in message", async () => {
			const reason = 'Provider rejected the request: channel access token expired';
			sim.faults.inject({
				path: '/v1/waba/send-media',
				fault: { status: 400, body: { statusCode: 400, success: false, message: reason } },
			});
			const res = await send();
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ statusCode: 400, success: false, message: reason });
		});

		it('429 provider rate limit, then the retry passes', async () => {
			sim.faults.inject({ path: '/v1/waba/send-media', fault: { status: 429, retryAfter: 2 } });
			const limited = await send();
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual({ statusCode: 429, message: expect.any(String) });
			expect(limited.headers.get('retry-after')).toBe('2');
			expect((await send()).status).toBe(200);
		});

		it('502 provider unavailable, safe to retry', async () => {
			sim.faults.inject({ path: /^\/v1\/waba\//, fault: { status: 502 } });
			const before = sim.org.messages.size;
			expect((await send()).status).toBe(502);
			expect(sim.org.messages.size).toBe(before);
			expect((await send()).status).toBe(200);
		});
	});

	describe('test helpers: what customers do', () => {
		it("receiveInboundMessage reopens a closed thread, opens the window, bumps updated_at and the contact's activity", async () => {
			const thread = threadOf(sim.org, john);
			await sim.clock.advance(1000);
			const { message } = receiveInboundMessage(sim, sim.org, {
				channelId: waba.id,
				contactId: john.id,
				content: 'Are you open?',
			});
			expect(thread).toMatchObject({ status: 'open', updated_at: message.created_at });
			expect(thread.window_open_until).toBe(Date.parse(message.created_at) + SERVICE_WINDOW_MS);
			expect(john.last_activity_at).toBe(Date.parse(message.created_at));
			expect(
				(
					await api(sim, 'POST', '/v1/waba/send-message', {
						body: { thread_id: thread.id, content: 'Yes' },
					})
				).status,
			).toBe(200);
		});

		it('receiveInboundMessage creates the thread of a new conversation', () => {
			const [newcomer] = insertContacts(sim, sim.org, 1);
			const { thread } = receiveInboundMessage(sim, sim.org, {
				channelId: waba.id,
				contactId: newcomer.id,
				content: 'Hi',
			});
			expect(thread).toMatchObject({
				contact_id: newcomer.id,
				channel_id: waba.id,
				status: 'open',
				assignee: null,
			});
		});

		it('setMessageStatus changes the delivery status a client reads', async () => {
			const { message } = receiveInboundMessage(sim, sim.org, {
				channelId: waba.id,
				contactId: maria.id,
				content: 'Hola',
			});
			setMessageStatus(sim.org, message.id, 'read');
			expect((await api(sim, 'GET', `/v1/messages/${message.id}`)).body.status).toBe('read');
		});
	});
});
