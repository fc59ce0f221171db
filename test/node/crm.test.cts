import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { tagContact } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Tag, Comment and Task operations through the engine', () => {
	let sim: Simulator;
	const run = (parameters: INodeParameters) =>
		runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters });
	const firstContactId = () => [...sim.org.contacts.keys()][0];
	const member = (email: string) => sim.org.members.find((m) => m.email === email)!;

	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	describe('Tag', () => {
		it('Create stores the tag with its name, color and label', async () => {
			const { items, error } = await run({
				resource: 'tag',
				operation: 'create',
				name: 'hot-lead',
				color: '#e11',
				label: 'Hot lead',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/tags')[0].body).toEqual({
				name: 'hot-lead',
				color: '#e11',
				label: 'Hot lead',
			});
			const id = items[0].json.id as string;
			expect(id).toMatch(/^tag-/);
			expect(sim.org.tags.get(id)).toEqual({
				id,
				name: 'hot-lead',
				color: '#e11',
				label: 'Hot lead',
			});
		});

		it('Create without a label sends none', async () => {
			const { items, error } = await run({
				resource: 'tag',
				operation: 'create',
				name: 'cold',
				color: '#0000ff',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/tags').at(-1)!.body).toEqual({
				name: 'cold',
				color: '#0000ff',
			});
			expect(sim.org.tags.get(items[0].json.id as string)?.label).toBeUndefined();
		});

		it('Get Many outputs one item per tag, and Limit cuts the list', async () => {
			const all = await run({ resource: 'tag', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			expect(all.items.map((i) => i.json)).toEqual([...sim.org.tags.values()]);
			const one = await run({ resource: 'tag', operation: 'getAll', returnAll: false, limit: 1 });
			expect(one.items.map((i) => i.json)).toEqual([[...sim.org.tags.values()][0]]);
		});

		it('Delete removes the tag from the organization and from its contacts, and outputs {deleted, id}', async () => {
			const [tagId] = [...sim.org.tags.keys()];
			tagContact(sim.org, firstContactId(), tagId);
			const { items, error } = await run({
				resource: 'tag',
				operation: 'delete',
				tagId: byId(tagId),
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([{ deleted: true, id: tagId }]);
			expect(sim.org.tags.has(tagId)).toBe(false);
			expect(sim.org.contactTags.get(firstContactId())?.has(tagId)).toBe(false);
		});
	});

	describe('Comment', () => {
		it('Create by a USER names the member by email', async () => {
			const contactId = firstContactId();
			const { items, error } = await run({
				resource: 'comment',
				operation: 'create',
				contactId: byId(contactId),
				content: 'Asked to be called back next week',
				createdByType: 'USER',
				createdBy: 'bruno@example.test',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/comments').at(-1)!.body).toEqual({
				content: 'Asked to be called back next week',
				contact_id: contactId,
				created_by_type: 'USER',
				created_by: 'bruno@example.test',
			});
			const stored = sim.org.comments.get(items[0].json.id as string)!;
			expect(stored).toMatchObject({
				contact_id: contactId,
				content: 'Asked to be called back next week',
			});
			expect(stored.created_by).toMatchObject({
				email: 'bruno@example.test',
				id: member('bruno@example.test').id,
			});
		});

		it('Create by an AUTOMATIZATION sends no author email, even one left in the hidden field', async () => {
			const contactId = firstContactId();
			const { items, error } = await run({
				resource: 'comment',
				operation: 'create',
				contactId: byId(contactId),
				content: 'Workflow ran',
				createdByType: 'AUTOMATIZATION',
				// the form hides the field for this type; n8n drops a hidden field's leftover value
				createdBy: 'owner@example.test',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/comments').at(-1)!.body).toEqual({
				content: 'Workflow ran',
				contact_id: contactId,
				created_by_type: 'AUTOMATIZATION',
			});
			expect(sim.org.comments.get(items[0].json.id as string)?.created_by).toBe('AUTOMATIZATION');
		});
	});

	describe('Task', () => {
		let createdId: string;

		it('Create stores the task with every field, assignees by email and custom data', async () => {
			const { items, error } = await run({
				resource: 'task',
				operation: 'create',
				brief: 'Call back about the renewal',
				additionalFields: {
					type: 'automatization',
					details: 'Renewal due on 1 June',
					status: 'in_progress',
					priority: 'high',
					assignedTo: 'owner@example.test, bruno@example.test',
					additionalData: '{"source": "web form", "order": 1001}',
				},
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/tasks')[0].body).toEqual({
				brief: 'Call back about the renewal',
				type: 'automatization',
				details: 'Renewal due on 1 June',
				status: 'in_progress',
				priority: 'high',
				assigned_to: ['owner@example.test', 'bruno@example.test'],
				additional_data: { source: 'web form', order: 1001 },
			});
			createdId = items[0].json.id as string;
			expect(sim.org.tasks.get(createdId)).toMatchObject({
				brief: 'Call back about the renewal',
				status: 'in_progress',
				priority: 'high',
				assigned_to: [member('owner@example.test').id, member('bruno@example.test').id],
				additional_data: { source: 'web form', order: 1001 },
			});
		});

		it('Create with only a brief sends only the brief', async () => {
			const { items, error } = await run({
				resource: 'task',
				operation: 'create',
				brief: 'Send the quote',
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('POST', '/v1/tasks').at(-1)!.body).toEqual({ brief: 'Send the quote' });
			expect(sim.org.tasks.get(items[0].json.id as string)).toMatchObject({
				brief: 'Send the quote',
				status: 'todo',
			});
		});

		it('Get outputs the stored task', async () => {
			const { items, error } = await run({
				resource: 'task',
				operation: 'get',
				taskId: byId(createdId),
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([
				JSON.parse(JSON.stringify(sim.org.tasks.get(createdId))),
			]);
		});

		it('Get of a task that does not exist fails with a 404 explained', async () => {
			const { error } = await run({
				resource: 'task',
				operation: 'get',
				taskId: byId('00000000-0000-4000-8000-000000000000'),
			});
			expect(error?.message).toMatch(/Not found in this organization/);
		});

		it('Get Many filters by status', async () => {
			const { items, error } = await run({
				resource: 'task',
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'todo' },
			});
			expect(error).toBeUndefined();
			expect(sim.requestsTo('GET', '/v1/tasks').at(-1)!.query).toMatchObject({ status: 'todo' });
			const todo = [...sim.org.tasks.values()].filter((t) => t.status === 'todo');
			expect(items.map((i) => i.json.id).sort()).toEqual(todo.map((t) => t.id).sort());
			expect(items.length).toBeGreaterThan(0);
		});

		it('Get Many with Limit returns at most that many, newest first', async () => {
			const { items, error } = await run({
				resource: 'task',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.brief)).toEqual(['Send the quote']);
			expect(sim.requestsTo('GET', '/v1/tasks').at(-1)!.query).toMatchObject({
				limit: '1',
				offset: '0',
			});
		});
	});
});
