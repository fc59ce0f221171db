import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { byId, commentBy, VALID_UUID } from '../helpers/parameters.cts';
import { refusedBeforeAnyRequest, runContinuingOnFail } from '../helpers/runs.cts';

interface Case {
	name: string;
	parameters: INodeParameters;
	/** The field as users see it, then what the message must say is expected. */
	field: string;
	expected: string;
}

const CASES: Case[] = [
	// Contact
	{
		// 0034… is read as +34… (00 for +); a national trunk prefix without a country is not
		name: 'Create: phone number with a national prefix and no country',
		parameters: { resource: 'contact', operation: 'create', phoneNumber: '(0) 611 222 333' },
		field: 'Phone Number',
		expected: 'E.164',
	},
	{
		name: 'Create: phone number as pasted but without + and country code',
		parameters: { resource: 'contact', operation: 'create', phoneNumber: '611 222-333' },
		field: 'Phone Number',
		expected: 'E.164',
	},
	{
		name: 'Create: no phone number (empty expression)',
		parameters: { resource: 'contact', operation: 'create', phoneNumber: '={{ "" }}' },
		field: 'Phone Number',
		expected: 'E.164',
	},
	{
		name: 'Create: email without domain',
		parameters: {
			resource: 'contact',
			operation: 'create',
			phoneNumber: '+34611222333',
			additionalFields: { email: 'ana@' },
		},
		field: 'Email',
		expected: 'must be an email address',
	},
	{
		name: 'Update: contact ID not a UUID',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: byId('={{ "not-a-uuid" }}'),
			updateFields: { fullName: 'X' },
		},
		field: 'Contact',
		expected: 'must be a UUID',
	},
	{
		name: 'Update: additional data row missing its field name',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: byId(VALID_UUID),
			updateFields: {
				additionalData: { entries: [{ type: 'text', field: '', value: 'premium' }] },
			},
		},
		field: 'Additional Data → 0 → field',
		expected: 'must not be empty',
	},
	{
		name: 'Update: additional data row missing its type',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: byId(VALID_UUID),
			updateFields: {
				additionalData: { entries: [{ type: ' ', field: 'plan', value: 'premium' }] },
			},
		},
		field: 'Additional Data → 0 → type',
		expected: 'must not be empty',
	},
	{
		name: 'Update: new phone number not E.164',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: byId(VALID_UUID),
			updateFields: { phoneNumber: '611-222-333' },
		},
		field: 'Phone Number',
		expected: 'E.164',
	},
	{
		name: 'Update: nothing to change',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: byId(VALID_UUID),
			updateFields: {},
		},
		field: 'Update Fields',
		expected: 'add at least one field',
	},
	{
		name: 'Delete: contact ID not a UUID',
		parameters: { resource: 'contact', operation: 'delete', contactId: byId('={{ 12345 }}') },
		field: 'Contact',
		expected: 'must be a UUID',
	},
	{
		name: 'Get Tags: contact ID not a UUID',
		parameters: {
			resource: 'contact',
			operation: 'getTags',
			contactId: byId('={{ "contact-1" }}'),
		},
		field: 'Contact',
		expected: 'must be a UUID',
	},
	{
		name: 'Get Comments: contact ID from an expression, not a UUID',
		parameters: { resource: 'contact', operation: 'getComments', contactId: byId('={{ "abc" }}') },
		field: 'Contact',
		expected: 'must be a UUID',
	},
	{
		name: 'Get Many: limit 0',
		parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 0 },
		field: 'Limit',
		expected: 'whole number of 1 or more',
	},
	// Tag
	{
		name: 'Tag Create: color by name',
		parameters: { resource: 'tag', operation: 'create', name: 'vip', color: 'orange' },
		field: 'Color',
		expected: 'hex color',
	},
	{
		name: 'Tag Create: color with 4 hex digits',
		parameters: { resource: 'tag', operation: 'create', name: 'vip', color: '#ff99' },
		field: 'Color',
		expected: 'hex color',
	},
	{
		name: 'Tag Create: empty name',
		parameters: { resource: 'tag', operation: 'create', name: '  ', color: '#ff9900' },
		field: 'Name',
		expected: 'must not be empty',
	},
	{
		name: 'Tag Delete: no tag ID',
		parameters: { resource: 'tag', operation: 'delete', tagId: byId('={{ "" }}') },
		field: 'Tag',
		expected: 'must not be empty',
	},
	{
		name: 'Tag Get Many: limit 0',
		parameters: { resource: 'tag', operation: 'getAll', returnAll: false, limit: 0 },
		field: 'Limit',
		expected: 'whole number of 1 or more',
	},
	// Comment
	{
		name: 'Comment: USER without email',
		parameters: commentBy('USER', '={{ "" }}'),
		field: 'Created By Email',
		expected: 'is required when Created By Type is USER',
	},
	{
		name: 'Comment: SYSTEM (from an expression) with an email',
		parameters: commentBy('={{ "SYSTEM" }}', 'owner@example.test'),
		field: 'Created By Email',
		expected: 'only accepted when Created By Type is USER',
	},
	{
		name: 'Comment: creator type in lower case',
		parameters: commentBy('={{ "ai" }}', '={{ "" }}'),
		field: 'Created By Type',
		expected: 'must be one of USER, SYSTEM, AI, AUTOMATIZATION',
	},
	{
		name: 'Comment: USER with a malformed email',
		parameters: commentBy('USER', 'bruno'),
		field: 'Created By Email',
		expected: 'must be an email address',
	},
	{
		name: 'Comment: empty content',
		parameters: {
			resource: 'comment',
			operation: 'create',
			contactId: byId(VALID_UUID),
			content: '={{ "" }}',
			createdByType: 'AI',
		},
		field: 'Content',
		expected: 'must not be empty',
	},
	{
		name: 'Comment: contact ID not a UUID',
		parameters: {
			resource: 'comment',
			operation: 'create',
			contactId: byId('={{ "8d7c6b5a" }}'),
			content: 'Hi',
			createdByType: 'AI',
		},
		field: 'Contact',
		expected: 'must be a UUID',
	},
	// Task
	{
		name: 'Task Create: unknown status',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { status: 'pending' },
		},
		field: 'Status',
		expected: 'must be one of backlog, todo, in_progress, done, blocked, canceled',
	},
	{
		name: 'Task Create: unknown priority',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { priority: 'urgent' },
		},
		field: 'Priority',
		expected: 'must be one of low, medium, high',
	},
	{
		name: 'Task Create: unknown type',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { type: 'manual' },
		},
		field: 'Type',
		expected: 'must be one of custom, AI, system, automatization',
	},
	{
		name: 'Task Create: empty brief',
		parameters: { resource: 'task', operation: 'create', brief: '   ' },
		field: 'Brief',
		expected: 'must not be empty',
	},
	{
		name: 'Task Create: assignee not an email',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { assignedTo: 'owner@example.test, bruno' },
		},
		field: 'Assigned To → 1',
		expected: 'must be an email address',
	},
	{
		name: 'Task Create: additional data not JSON',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { additionalData: '{source: web' },
		},
		field: 'Additional Data',
		expected: 'must be a JSON object',
	},
	{
		name: 'Task Create: additional data a JSON list',
		parameters: {
			resource: 'task',
			operation: 'create',
			brief: 'Call',
			additionalFields: { additionalData: '["a"]' },
		},
		field: 'Additional Data',
		expected: 'must be a JSON object',
	},
	{
		name: 'Task Get: task ID not a UUID',
		parameters: { resource: 'task', operation: 'get', taskId: byId('={{ "task-1" }}') },
		field: 'Task',
		expected: 'must be a UUID',
	},
	{
		name: 'Task Get Many: unknown status filter',
		parameters: {
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'open' },
		},
		field: 'Status',
		expected: 'must be one of',
	},
	{
		name: 'Task Get Many: negative limit',
		parameters: { resource: 'task', operation: 'getAll', returnAll: false, limit: -5 },
		field: 'Limit',
		expected: 'whole number of 1 or more',
	},
];

describe('Contact, Tag, Comment and Task: invalid inputs fail before any request', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it.each(CASES.map((c) => [c.name, c] as const))(
		'%s',
		async (_name, { parameters, field, expected }) => {
			const message = await refusedBeforeAnyRequest(sim, { parameters });
			expect(message).toContain(`Item 0: ${field}: `);
			expect(message).toContain(expected);
		},
	);

	it('n8n itself refuses literal values the form marks as invalid, before the node runs', async () => {
		const before = sim.requests.length;
		const credentials = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
		await expect(
			runNode({
				credentials,
				parameters: { resource: 'contact', operation: 'delete', contactId: byId('12345') },
			}),
		).rejects.toThrow(/Not a valid Contact ID/);
		await expect(
			runNode({
				credentials,
				parameters: { resource: 'task', operation: 'get', taskId: byId('task-1') },
			}),
		).rejects.toThrow(/Not a valid Task ID/);
		await expect(
			runNode({
				credentials,
				parameters: commentBy('USER'),
			}),
		).rejects.toThrow(/Parameter "Created By Email" is required/);
		await expect(
			runNode({
				credentials,
				parameters: { resource: 'contact', operation: 'create', phoneNumber: '' },
			}),
		).rejects.toThrow(/Parameter "Phone Number" is required/);
		expect(sim.requests.slice(before)).toEqual([]);
	});

	it('has at least 14 cases', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(14);
	});
});

describe('Continue On Fail with invalid and valid items mixed', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('Contact Create: invalid items become error items paired to their input; only the valid ones are sent', async () => {
		const phones = ['+34611000001', '611000002', '+34611000003', ''];
		const items = await runContinuingOnFail(
			sim,
			{
				resource: 'contact',
				operation: 'create',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { fullName: '={{ $json.name }}' },
			},
			phones.map((phone, n) => ({ phone, name: `Person ${n}` })),
		);
		expect(items[0].json).toMatchObject({ phone_number: '+34611000001', full_name: 'Person 0' });
		expect(items[1].json.error).toMatch(/^Item 1: Phone Number: .*E\.164/);
		expect(items[2].json).toMatchObject({ phone_number: '+34611000003', full_name: 'Person 2' });
		expect(items[3].json.error).toMatch(/^Item 3: Phone Number: .*E\.164/);
		expect(sim.requestsTo('POST', '/v1/contacts').map((r) => r.body)).toEqual([
			{ phone_number: '+34611000001', full_name: 'Person 0' },
			{ phone_number: '+34611000003', full_name: 'Person 2' },
		]);
		const stored = [...sim.org.contacts.values()].filter((c) => c.full_name.startsWith('Person '));
		expect(stored.map((c) => c.phone_number).sort()).toEqual(['+34611000001', '+34611000003']);
	});

	it('Comment Create: a USER comment without email fails alone; the others are stored', async () => {
		const contactId = [...sim.org.contacts.keys()][0];
		const rows = [
			{ type: 'USER', email: 'owner@example.test', text: 'first' },
			{ type: 'USER', email: '', text: 'second' },
			{ type: 'AI', email: '', text: 'third' },
		];
		const items = await runContinuingOnFail(
			sim,
			{
				resource: 'comment',
				operation: 'create',
				contactId: byId(contactId),
				content: '={{ $json.text }}',
				createdByType: '={{ $json.type }}',
				createdBy: '={{ $json.email }}',
			},
			rows,
		);
		expect(items[1].json.error).toMatch(/^Item 1: Created By Email: is required/);
		expect(
			sim.requestsTo('POST', '/v1/comments').map((r) => (r.body as { content: string }).content),
		).toEqual(['first', 'third']);
		expect([...sim.org.comments.values()].map((c) => c.content)).toEqual(['first', 'third']);
	});
});
