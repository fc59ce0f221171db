import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { MAIN_ORG_IDS } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const TEN_MB = 10 * 1024 * 1024;

/**
 * A 10 MB file on WhatsApp → Send Media. The reference documents no size limit for `media_data`,
 * and WhatsApp's own limits differ by media type and change over time, so the node does not invent
 * one: it sends the file, once, and a service that refuses it (413 from a proxy, or a 400 with the
 * provider's reason) fails the item with that status and what to do.
 */
describe('WhatsApp → Send Media with a 10 MB binary file', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const file = randomBytes(TEN_MB);
	/** WhatsApp → Send Media of a document to Maria on the sales number; `source` says where the file is. */
	const sendDocument = (source: INodeParameters): INodeParameters => ({
		resource: 'whatsapp',
		operation: 'sendMedia',
		channelId: byId(MAIN_ORG_IDS.channels.whatsappSales),
		contactId: byId(MAIN_ORG_IDS.contacts.mariaGarcia),
		mediaType: 'document',
		...source,
	});
	const sendFile = () =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: sendDocument({ mediaSource: 'binary', binaryPropertyName: 'data' }),
			items: [{ order: 1 }],
			binary: [
				{
					data: {
						data: file.toString('base64'),
						mimeType: 'application/pdf',
						fileName: 'catalog.pdf',
					},
				},
			],
			continueOnFail: true,
		});

	it('is sent once, every byte, and stored once', async () => {
		const { items, error } = await sendFile();
		expect(error).toBeUndefined();
		expect(items[0].json.description).toBeUndefined();
		expect(items[0].json.error).toBeUndefined();
		const sent = sim.requestsTo('POST', '/v1/waba/send-media');
		expect(sent).toHaveLength(1);
		expect(
			Buffer.from(String((sent[0].body as IDataObject).media_data), 'base64').equals(file),
		).toBe(true);
		const stored = [...sim.org.messages.values()].filter((m) => m.id === items[0].json.message_id);
		expect(stored).toHaveLength(1);
		expect(stored[0].media).toMatchObject({ size_bytes: TEN_MB, file_name: 'catalog.pdf' });
	});

	it('given as 10 MB of base64 text in the item (Base64 Text), is checked without overflowing and sent once', async () => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: sendDocument({ mediaSource: 'base64', mediaBase64: '={{ $json.file }}' }),
			items: [{ file: file.toString('base64') }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/waba/send-media')).toHaveLength(1);
		expect(
			[...sim.org.messages.values()].find((m) => m.id === items[0].json.message_id)?.media,
		).toMatchObject({ size_bytes: TEN_MB });
	});

	it('refused by the service as too large, fails the item with the status and what to do, sent once', async () => {
		sim.faults.inject({
			method: 'POST',
			path: '/v1/waba/send-media',
			fault: {
				status: 413,
				rawBody: '<html><body><h1>413 Request Entity Too Large</h1></body></html>',
			},
		});
		const { items, error } = await sendFile();
		expect(error).toBeUndefined();
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json.error).toMatch(
			/too large.*Send a smaller file, or a public URL to it\. \(HTTP 413\)/,
		);
		expect(sim.requestsTo('POST', '/v1/waba/send-media')).toHaveLength(1);
	});
});
