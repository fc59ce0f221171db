import type { IBinaryKeyData, IDataObject, INodeParameters } from 'n8n-workflow';

import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { byId } from '../helpers/parameters.cts';
import { refusedBeforeAnyRequest, runContinuingOnFail } from '../helpers/runs.cts';

const CONTACT = '8d7c6b5a-4e3f-4a1b-9c2d-1e0f2a3b4c5d';
const USER = '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d';
const to = { channelId: byId('chn_any'), contactId: byId(CONTACT) };
const sendMedia = {
	resource: 'whatsapp',
	operation: 'sendMedia',
	...to,
	mediaType: 'image',
	mediaSource: 'url',
	mediaUrl: 'https://cdn.example.com/a.jpg',
};
const sendTemplate = {
	resource: 'whatsapp',
	operation: 'sendTemplate',
	...to,
	templateName: 'welcome_offer',
	languageCode: 'en_US',
};
const sendMessage = { resource: 'whatsapp', operation: 'sendMessage', ...to, content: 'Hi' };
/**
 * An invalid value that arrives through an expression, as it does in real workflows: n8n's own
 * checks already stop a literal empty required field or an ID the locator's pattern refuses.
 */
const FROM_ITEM = '={{ $json.value }}';
const itemWith = (value: IDataObject[string]): IDataObject[] => [{ value }];
const updateThread = {
	resource: 'thread',
	operation: 'update',
	threadId: byId('thr-1'),
	status: 'closed',
};

interface Case {
	name: string;
	parameters: INodeParameters;
	/** The field the error names, as the user sees it. */
	field: string;
	/** What the error says is expected. */
	expected: string;
	items?: IDataObject[];
	binary?: Array<IBinaryKeyData | null>;
}

const CASES: Case[] = [
	{
		name: 'a non-UUID contact',
		parameters: { ...sendMessage, contactId: byId(FROM_ITEM) },
		items: itemWith('maria'),
		field: 'Contact',
		expected: 'must be a UUID',
	},
	{
		name: 'an empty channel',
		parameters: { ...sendMessage, channelId: byId(FROM_ITEM) },
		items: itemWith(''),
		field: 'Channel',
		expected: 'must not be empty',
	},
	{
		name: 'an empty message text',
		parameters: { ...sendMessage, content: '   ' },
		field: 'Message Text',
		expected: 'must not be empty',
	},
	{
		name: 'an unknown media type',
		parameters: { ...sendMedia, mediaType: 'gif' },
		field: 'Media Type',
		expected: 'must be one of image, video, audio or document',
	},
	{
		name: 'a bad media URL',
		parameters: { ...sendMedia, mediaUrl: 'ftp://cdn.example.com/a.jpg' },
		field: 'Media URL',
		expected: 'must be a URL starting with http:// or https://',
	},
	{
		name: 'a non-base64 media string',
		parameters: { ...sendMedia, mediaSource: 'base64', mediaBase64: 'this is not base64!' },
		field: 'Base64 Data',
		expected: 'must be a base64-encoded file',
	},
	{
		name: 'a binary field the item does not have',
		parameters: { ...sendMedia, mediaSource: 'binary', binaryPropertyName: 'photo' },
		items: [{}],
		binary: [{ data: { data: 'aGVsbG8=', mimeType: 'image/png', fileName: 'a.png' } }],
		field: 'Input Binary Field',
		expected: 'no binary field "photo" on the input item (the item has "data")',
	},
	{
		name: 'an empty template name',
		parameters: { ...sendTemplate, templateName: FROM_ITEM },
		items: itemWith(''),
		field: 'Template',
		expected: 'must not be empty',
	},
	{
		name: 'a language code with a hyphen',
		parameters: { ...sendTemplate, languageCode: 'en-US' },
		field: 'Language Code',
		expected: 'must be a WhatsApp language code',
	},
	{
		name: 'a components JSON that is not an array',
		parameters: { ...sendTemplate, componentsInput: 'json', componentsJson: '{"type": "BODY"}' },
		field: 'Components',
		expected: 'must be a JSON array of components',
	},
	{
		name: 'a components JSON that does not parse',
		parameters: { ...sendTemplate, componentsInput: 'json', componentsJson: '[{"type": BODY}]' },
		field: 'Components',
		expected: 'it is not valid JSON',
	},
	{
		name: 'a component of an unknown type',
		parameters: {
			...sendTemplate,
			componentsInput: 'json',
			componentsJson: '[{"type": "FOOTER"}]',
		},
		field: 'Components → 0 → type',
		expected: 'must be BODY, HEADER or BUTTON',
	},
	{
		name: 'a text parameter without its text',
		parameters: {
			...sendTemplate,
			components: {
				component: [{ type: 'BODY', parameters: { parameter: [{ type: 'text', text: '' }] } }],
			},
		},
		field: 'Components → 0 → parameters → 0 → text',
		expected: 'a text parameter needs its text',
	},
	{
		name: 'an assignee without type',
		parameters: { ...updateThread, assignment: 'assign', assignee: USER, assigneeType: FROM_ITEM },
		items: itemWith(''),
		field: 'Assignee Type',
		expected: 'is required when an assignee is set: user or agent',
	},
	{
		name: 'an assignee that is not a UUID',
		parameters: {
			...updateThread,
			assignment: 'assign',
			assignee: 'bruno@example.test',
			assigneeType: 'user',
		},
		field: 'Assignee ID',
		expected: 'must be a UUID',
	},
	{
		name: 'an unknown thread status',
		parameters: { ...updateThread, status: 'archived' },
		field: 'Status',
		expected: 'must be open, closed or unchanged',
	},
	{
		name: 'a thread update that changes nothing',
		parameters: { ...updateThread, status: 'unchanged' },
		field: 'Status and Assignment',
		expected: 'nothing to update',
	},
	{
		name: 'an empty message ID',
		parameters: { resource: 'message', operation: 'get', messageId: FROM_ITEM },
		items: itemWith(' '),
		field: 'Message ID',
		expected: 'must not be empty',
	},
	{
		name: 'limit 0 on channels',
		parameters: { resource: 'channel', operation: 'getAll', limit: 0 },
		field: 'Limit',
		expected: 'must be a whole number of 1 or more',
	},
	{
		name: 'an unknown channel answer method',
		parameters: { resource: 'channel', operation: 'getAll', filters: { answerMethod: 'robot' } },
		field: 'Answer Method',
		expected: 'must be manual (human agents) or auto (AI agent)',
	},
	{
		name: 'limit 0 on threads',
		parameters: { resource: 'thread', operation: 'getAll', limit: 0 },
		field: 'Limit',
		expected: 'must be a whole number of 1 or more',
	},
	{
		name: 'an unknown thread status filter',
		parameters: { resource: 'thread', operation: 'getAll', filters: { status: 'pending' } },
		field: 'Status',
		expected: 'must be open or closed',
	},
];

describe('Channel, Thread, Message and WhatsApp: invalid input fails the item before any request', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it.each(CASES)('$name', async ({ parameters, field, expected, items, binary }) => {
		const message = await refusedBeforeAnyRequest(sim, { parameters, items, binary });
		expect(message).toContain(`Item 0: ${field}: `);
		expect(message).toContain(expected);
	});

	it('under Continue On Fail, pairs error items to their inputs and sends only the valid items', async () => {
		const waba = [...sim.org.channels.values()].find((c) => c.type === 'WABA')!;
		const maria = [...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!;
		const inputs = [
			{ contact: maria.id, text: 'first' },
			{ contact: 'not-a-uuid', text: 'second' },
			{ contact: maria.id, text: '' },
			{ contact: maria.id, text: 'fourth' },
		];
		const items = await runContinuingOnFail(
			sim,
			{
				resource: 'whatsapp',
				operation: 'sendMessage',
				channelId: byId(waba.id),
				contactId: byId('={{ $json.contact }}'),
				content: '={{ $json.text }}',
			},
			inputs,
		);
		expect(items[1].json.error).toMatch(/^Item 1: Contact: must be a UUID/);
		expect(items[2].json.error).toMatch(/^Item 2: Message Text: must not be empty/);
		for (const ok of [items[0], items[3]])
			expect(sim.org.messages.get(String(ok.json.message_id))).toBeDefined();
		const sent = sim
			.requestsTo('POST', '/v1/waba/send-message')
			.map((r) => (r.body as IDataObject).content);
		expect(sent).toEqual(['first', 'fourth']);
	});
});
