import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { onFakeTime } from '../../harness/fakeTime.cts';
import { startSimulator } from '../../simulator/index.cts';
import type { Channel, Contact, Message, Thread, Simulator } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('WhatsApp (WABA) sends through the engine', () => {
	let sim: Simulator;
	let waba: Channel;
	let maria: Contact; // seeded: thread open, 24-hour window open
	let john: Contact; // seeded: thread closed, window expired long ago
	let mariaThread: Thread;
	const run = (parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}) =>
		runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters, ...extra });
	const to = (contact: Contact) => ({ channelId: byId(waba.id), contactId: byId(contact.id) });
	const storedMessage = (id: unknown): Message | undefined => sim.org.messages.get(String(id));

	beforeEach(async () => {
		// budgets are not what these tests are about: the node's pacing would wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		waba = [...sim.org.channels.values()].find((c) => c.type === 'WABA')!;
		maria = [...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!;
		john = [...sim.org.contacts.values()].find((c) => c.phone_number === '+14155550123')!;
		mariaThread = [...sim.org.threads.values()].find((t) => t.contact_id === maria.id)!;
	});
	afterEach(() => sim.stop());

	describe('Send Message (inferred)', () => {
		it('sends text inside the open window; the simulator stores it in the conversation', async () => {
			const { items, error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(maria),
				content: 'Your order has shipped.',
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				thread_id: mariaThread.id,
				message_id: expect.any(String),
			});
			expect(storedMessage(items[0].json.message_id)).toMatchObject({
				type: 'text',
				content: 'Your order has shipped.',
				thread_id: mariaThread.id,
			});
			expect(sim.requestsTo('POST', '/v1/waba/send-message')[0].body).toEqual({
				channel_id: waba.id,
				contact_id: maria.id,
				content: 'Your order has shipped.',
				save_message: true,
			});
		});

		it('fails the item with the provider reason when the 24-hour window is closed', async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(john),
				content: 'Hello again',
			});
			expect(error?.message).toMatch(
				/^WhatsApp send rejected: .*24-hour customer service window is closed/,
			);
			expect(error?.message).toContain('HTTP 400');
		});

		it('repeats a 502 once and stores the message once', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/waba/send-message',
				fault: {
					status: 502,
					body: { statusCode: 502, success: false, message: 'Provider unavailable' },
				},
			});
			const before = sim.org.messages.size;
			// the repeat's backoff on fake time
			const { items, error } = await onFakeTime(() =>
				run({
					resource: 'whatsapp',
					operation: 'sendMessage',
					...to(maria),
					content: 'Second try works',
				}),
			);
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/waba/send-message')).toHaveLength(2);
			expect(sim.org.messages.size).toBe(before + 1);
			expect(storedMessage(items[0].json.message_id)?.content).toBe('Second try works');
		});

		it('does not repeat a 500: the send may have happened', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/waba/send-message',
				fault: { status: 500, body: { statusCode: 500, message: 'boom' } },
			});
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(maria),
				content: 'Once',
			});
			expect(error?.message).toContain('HTTP 500');
			expect(sim.requestsTo('POST', '/v1/waba/send-message')).toHaveLength(1);
		});

		it('fails the item on an answer with success: false, with the API message', async () => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/waba/send-message',
				fault: {
					status: 200,
					body: { success: false, message: 'Channel token expired', data: null },
				},
			});
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(maria),
				content: 'Hi',
			});
			expect(error?.message).toBe(
				'Item 0: WhatsApp did not send the message: Channel token expired',
			);
		});

		it('with Save to Thread off, sends without storing a message', async () => {
			const before = sim.org.messages.size;
			const { items, error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(maria),
				content: 'Not kept',
				options: { saveMessage: false },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.message_id).toBeNull();
			expect(sim.org.messages.size).toBe(before);
			expect(sim.requestsTo('POST', '/v1/waba/send-message')[0].body).toMatchObject({
				save_message: false,
			});
		});
	});

	describe('Send Template', () => {
		it('opens a conversation with components from the fields; the template send is recorded', async () => {
			const { items, error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(john),
				templateName: 'welcome_offer',
				languageCode: 'en_US',
				components: {
					component: [
						{
							type: 'BODY',
							parameters: {
								parameter: [
									{ type: 'text', text: 'John', parameterName: 'first_name' },
									{ type: 'text', text: '20%' },
								],
							},
						},
					],
				},
			});
			expect(error).toBeUndefined();
			const components = [
				{
					type: 'BODY',
					parameters: [
						{ type: 'text', text: 'John', parameter_name: 'first_name' },
						{ type: 'text', text: '20%' },
					],
				},
			];
			expect(sim.requestsTo('POST', '/v1/waba/send-template')[0].body).toEqual({
				channel_id: waba.id,
				contact_id: john.id,
				template_name: 'welcome_offer',
				language_code: 'en_US',
				components,
				save_message: true,
			});
			expect(storedMessage(items[0].json.message_id)).toMatchObject({
				type: 'template',
				content: 'welcome_offer',
				media: { template_name: 'welcome_offer', language_code: 'en_US', components },
			});
			// the template opened the window: a free-form message now goes through
			const followUp = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				...to(john),
				content: 'Thanks for replying',
			});
			expect(followUp.error).toBeUndefined();
		});

		it('takes the components as JSON, the language code by default es, inside an existing thread', async () => {
			const { items, error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(maria),
				templateName: 'appointment_reminder',
				componentsInput: 'json',
				componentsJson:
					'[{"type": "BODY", "parameters": [{"type": "text", "text": "jueves 10:00"}]}]',
				options: { threadId: byId(mariaThread.id) },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.thread_id).toBe(mariaThread.id);
			const body = sim.requestsTo('POST', '/v1/waba/send-template')[0].body as IDataObject;
			expect(body).toMatchObject({
				language_code: 'es',
				thread_id: mariaThread.id,
				components: [{ type: 'BODY', parameters: [{ type: 'text', text: 'jueves 10:00' }] }],
			});
		});

		it('fails the item with the API reason for a template in another language', async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(john),
				templateName: 'welcome_offer',
				languageCode: 'es',
			});
			expect(error?.message).toMatch(/^WhatsApp send rejected: Template not found/);
		});
	});

	describe('Template chosen from the list', () => {
		it('sends the language of the chosen template when Language Code is left empty', async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(john),
				templateName: 'welcome_offer|en_US',
				languageCode: '',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/waba/send-template')[0].body).toMatchObject({
				template_name: 'welcome_offer',
				language_code: 'en_US',
			});
		});

		it("sends the language the user sets over the chosen template's", async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(john),
				templateName: 'welcome_offer|en_US',
				languageCode: 'es',
			});
			expect(error?.message).toMatch(
				/Template not found: no approved template welcome_offer in language es/,
			);
			expect(sim.requestsTo('POST', '/v1/waba/send-template')[0].body).toMatchObject({
				template_name: 'welcome_offer',
				language_code: 'es',
			});
		});
	});

	describe('Template given by name alone, Language Code empty', () => {
		it('sends the language the template is approved in, reading the templates once for all items', async () => {
			const { items: output, error } = await run(
				{
					resource: 'whatsapp',
					operation: 'sendTemplate',
					...to(john),
					templateName: 'welcome_offer',
					languageCode: '',
				},
				{ items: [{}, {}] },
			);
			expect(error).toBeUndefined();
			expect(output).toHaveLength(2);
			expect(
				sim
					.requestsTo('POST', '/v1/waba/send-template')
					.map((r) => (r.body as IDataObject).language_code),
			).toEqual(['en_US', 'en_US']);
			expect(sim.requestsTo('GET', '/v1/waba/templates')).toHaveLength(1);
		});

		it('refuses before sending a name no approved template has', async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendTemplate',
				...to(john),
				templateName: 'spring_sale',
				languageCode: '',
			});
			expect(error?.message).toBe(
				'Item 0: Template: there is no approved template named spring_sale on this channel. Pick one from the list.',
			);
			expect(sim.requestsTo('POST', '/v1/waba/send-template')).toHaveLength(0);
		});
	});

	describe('Channel check before sending', () => {
		const sends = () =>
			sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/waba/'));

		it('refuses a channel that is not WABA before any send request, saying why', async () => {
			const insta = [...sim.org.channels.values()].find((c) => c.type !== 'WABA')!;
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendMessage',
				channelId: byId(insta.id),
				contactId: byId(maria.id),
				content: 'Hi',
			});
			expect(error?.message).toBe(
				`Item 0: Channel: "${insta.name}" (${insta.id}) is a ${insta.type} channel; WhatsApp messages are sent through an active WABA channel. Pick one from the list.`,
			);
			expect(sends()).toHaveLength(0);
		});

		it('refuses an inactive WABA channel and an unknown one, and sends through the active one; the channels are read once', async () => {
			const inactive = {
				...waba,
				id: 'chn_inactive-waba',
				name: 'Old WhatsApp',
				status: 'inactive' as const,
			};
			sim.org.channels.set(inactive.id, inactive);
			const items = [{ channel: inactive.id }, { channel: 'chn_nowhere' }, { channel: waba.id }];
			const { items: output } = await run(
				{
					resource: 'whatsapp',
					operation: 'sendTemplate',
					channelId: byId('={{ $json.channel }}'),
					contactId: byId(john.id),
					templateName: 'welcome_offer|en_US',
				},
				{ items, continueOnFail: true },
			);
			expect(output.map((i) => i.json.error ?? 'sent')).toEqual([
				expect.stringMatching(
					/^Item 0: Channel: "Old WhatsApp" \(chn_inactive-waba\) is inactive; WhatsApp messages are sent through an active WABA channel/,
				),
				'Item 1: Channel: there is no channel chn_nowhere in this organization. Pick an active WhatsApp channel from the list.',
				'sent',
			]);
			expect(sends()).toHaveLength(1);
			expect(sim.requestsTo('GET', '/v1/channels')).toHaveLength(1);
		});
	});

	describe('Send Media', () => {
		/** An image by its public URL to Maria. */
		const imageByUrl = () => ({
			resource: 'whatsapp',
			operation: 'sendMedia',
			...to(maria),
			mediaType: 'image',
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/a.jpg',
		});

		it('sends a public URL; the simulator stores the media', async () => {
			const { items, error } = await run({ ...imageByUrl(), caption: 'The new model' });
			expect(error).toBeUndefined();
			expect(items[0].json.media_url).toBe('https://cdn.example.com/a.jpg');
			expect(storedMessage(items[0].json.message_id)).toMatchObject({
				type: 'image',
				content: 'The new model',
				media: { media_type: 'image', url: 'https://cdn.example.com/a.jpg', size_bytes: null },
			});
		});

		it('sends a binary file of the input item as base64; the simulator stores every byte and its file name', async () => {
			const file = randomBytes(3000);
			const { items, error } = await run(
				{
					resource: 'whatsapp',
					operation: 'sendMedia',
					...to(maria),
					mediaType: 'document',
					mediaSource: 'binary',
					binaryPropertyName: 'invoice',
				},
				{
					items: [{ order: 42 }],
					binary: [
						{
							invoice: {
								data: file.toString('base64'),
								mimeType: 'application/pdf',
								fileName: 'invoice-42.pdf',
							},
						},
					],
				},
			);
			expect(error).toBeUndefined();
			const body = sim.requestsTo('POST', '/v1/waba/send-media')[0].body as IDataObject;
			expect(Buffer.from(String(body.media_data), 'base64').equals(file)).toBe(true);
			expect(storedMessage(items[0].json.message_id)?.media).toMatchObject({
				media_type: 'document',
				size_bytes: file.length,
				file_name: 'invoice-42.pdf',
			});
			expect(items[0].pairedItem).toEqual({ item: 0 });
		});

		it('sends base64 text given as a data URI, with the file name given', async () => {
			const file = randomBytes(100);
			const { items, error } = await run({
				resource: 'whatsapp',
				operation: 'sendMedia',
				...to(maria),
				mediaType: 'document',
				mediaSource: 'base64',
				mediaBase64: `data:application/pdf;base64,${file.toString('base64')}`,
				fileName: 'terms.pdf',
			});
			expect(error).toBeUndefined();
			expect(storedMessage(items[0].json.message_id)?.media).toMatchObject({
				size_bytes: 100,
				file_name: 'terms.pdf',
			});
		});

		it('fails the item with the provider reason for a media URL the provider cannot reach', async () => {
			const { error } = await run({
				resource: 'whatsapp',
				operation: 'sendMedia',
				...to(maria),
				mediaType: 'image',
				mediaSource: 'url',
				mediaUrl: 'http://127.0.0.1/a.jpg',
			});
			expect(error?.message).toMatch(/^WhatsApp send rejected: Invalid media/);
		});

		it('repeats a 502 once and stores one message', async () => {
			sim.faults.inject({ method: 'POST', path: '/v1/waba/send-media', fault: { status: 502 } });
			const before = sim.org.messages.size;
			const { error } = await onFakeTime(() => run(imageByUrl()));
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/waba/send-media')).toHaveLength(2);
			expect(sim.org.messages.size).toBe(before + 1);
		});
	});
});
