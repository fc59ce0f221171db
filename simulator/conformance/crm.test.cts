import { randomUUID } from 'node:crypto';

import { startSimulator, type Simulator } from '../index.cts';
import { tagContact } from '../routes/crm.cts';
import type { Contact, Task } from '../types.cts';
import { api } from '../client.cts';

const badRequest = { statusCode: 400, message: expect.any(String) };
const notFound = { statusCode: 404, message: expect.any(String) };

describe('Tags, comments and tasks', () => {
	let sim: Simulator;
	let contact: Contact;
	beforeEach(async () => {
		sim = await startSimulator();
		contact = [...sim.org.contacts.values()][0];
	});
	afterEach(() => sim.stop());

	describe('Tags', () => {
		it("GET /v1/tags (inferred) lists the organization's tags in {statusCode, data}", async () => {
			const res = await api(sim, 'GET', '/v1/tags');
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				statusCode: 200,
				data: [{ id: expect.stringMatching(/^tag-/), name: 'vip', color: '#ff9900', label: 'VIP' }],
			});
		});

		it('POST /v1/tags (inferred) creates a tag: 201 {statusCode, data: Tag}', async () => {
			const res = await api(sim, 'POST', '/v1/tags', {
				body: { name: 'lead', color: '#00AA33', label: 'Lead' },
			});
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				statusCode: 201,
				data: { id: expect.any(String), name: 'lead', color: '#00AA33', label: 'Lead' },
			});
			const unlabeled = await api(sim, 'POST', '/v1/tags', {
				body: { name: 'cold', color: '#abc' },
			});
			expect(unlabeled.body.data).toEqual({ id: expect.any(String), name: 'cold', color: '#abc' });
		});

		it.each([
			['a color that is not hex', { name: 'x', color: 'red' }, /color/],
			['a missing name', { color: '#ffffff' }, /name/],
			['a missing color', { name: 'x' }, /color/],
			['an unknown field', { name: 'x', color: '#ffffff', colour: '#fff' }, /colour/],
		])('POST /v1/tags answers 400 for %s', async (_case, body, message) => {
			const res = await api(sim, 'POST', '/v1/tags', { body });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(message);
		});

		it('DELETE /v1/tags/{tagId} answers bare true and removes the tag from every contact', async () => {
			const vip = [...sim.org.tags.values()][0];
			const [first, second] = [...sim.org.contacts.values()];
			tagContact(sim.org, first.id, vip.id);
			tagContact(sim.org, second.id, vip.id);
			const res = await api(sim, 'DELETE', `/v1/tags/${vip.id}`);
			expect(res.status).toBe(200);
			expect(res.body).toBe(true);
			for (const tagged of [first, second]) {
				expect((await api(sim, 'GET', `/v1/contacts/${tagged.id}/tags`)).body.data).toEqual([]);
			}
			expect((await api(sim, 'GET', '/v1/tags')).body.data).toEqual([]);
		});

		it("DELETE /v1/tags/{tagId} answers 404 for an unknown tag and for another organization's", async () => {
			expect((await api(sim, 'DELETE', `/v1/tags/tag-${randomUUID()}`)).body).toEqual(notFound);
			const foreign = [...sim.otherOrg.tags.values()][0];
			expect((await api(sim, 'DELETE', `/v1/tags/${foreign.id}`)).status).toBe(404);
			expect(sim.otherOrg.tags.has(foreign.id)).toBe(true);
		});
	});

	describe('POST /v1/comments', () => {
		const comment = (body: Record<string, unknown>) =>
			api(sim, 'POST', '/v1/comments', {
				body: { content: 'Called back', contact_id: contact.id, ...body },
			});

		it('a USER comment names a member by email: 201 with the member object as created_by', async () => {
			const res = await comment({ created_by_type: 'USER', created_by: 'bruno@example.test' });
			expect(res.status).toBe(201);
			const bruno = sim.org.members.find((m) => m.email === 'bruno@example.test')!;
			expect(res.body).toEqual({
				statusCode: 201,
				data: {
					id: expect.any(String),
					content: 'Called back',
					created_by: bruno,
					created_at: expect.any(String),
				},
			});
		});

		it.each(['SYSTEM', 'AI', 'AUTOMATIZATION'])(
			'a %s comment has the type string as created_by',
			async (type) => {
				const res = await comment({ created_by_type: type });
				expect(res.status).toBe(201);
				expect(res.body.data.created_by).toBe(type);
			},
		);

		it.each([
			['USER without created_by', { created_by_type: 'USER' }, /created_by/],
			[
				"USER with an email that is not a member's",
				{ created_by_type: 'USER', created_by: 'stranger@example.test' },
				/member/,
			],
			[
				'SYSTEM with created_by',
				{ created_by_type: 'SYSTEM', created_by: 'owner@example.test' },
				/created_by/,
			],
			[
				'AI with created_by',
				{ created_by_type: 'AI', created_by: 'owner@example.test' },
				/created_by/,
			],
			[
				'a type in the wrong case',
				{ created_by_type: 'user', created_by: 'owner@example.test' },
				/created_by_type/,
			],
			['a missing type', {}, /created_by_type/],
			['empty content', { created_by_type: 'SYSTEM', content: '' }, /content/],
			['blank content', { created_by_type: 'SYSTEM', content: '   ' }, /content/],
			[
				'a contact_id that is not a UUID',
				{ created_by_type: 'SYSTEM', contact_id: 'abc' },
				/contact_id/,
			],
			['a missing contact_id', { created_by_type: 'SYSTEM', contact_id: undefined }, /contact_id/],
		])('answers 400 for %s', async (_case, body, message) => {
			const res = await comment(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(message);
		});

		it('answers 404 for a contact of another organization (or none)', async () => {
			const foreign = [...sim.otherOrg.contacts.values()][0];
			expect((await comment({ created_by_type: 'SYSTEM', contact_id: foreign.id })).body).toEqual(
				notFound,
			);
			expect((await comment({ created_by_type: 'SYSTEM', contact_id: randomUUID() })).status).toBe(
				404,
			);
		});

		it('a member of another organization cannot author a USER comment', async () => {
			sim.otherOrg.members.push({
				id: randomUUID(),
				email: 'outsider@example.test',
				name: 'Outsider',
			});
			expect(
				(await comment({ created_by_type: 'USER', created_by: 'outsider@example.test' })).status,
			).toBe(400);
		});
	});

	describe('Tasks', () => {
		const createTask = (body: Record<string, unknown>) =>
			api(sim, 'POST', '/v1/tasks', { body: { brief: 'Send the quote', ...body } });

		it('POST /v1/tasks (inferred) creates a task: 201, member emails stored as ids', async () => {
			const res = await createTask({
				type: 'AI',
				details: 'Quote for 3 seats',
				status: 'in_progress',
				priority: 'high',
				assigned_to: ['owner@example.test', 'BRUNO@example.test'],
				additional_data: { deal: 42 },
			});
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				statusCode: 201,
				data: {
					id: expect.stringMatching(/^[0-9a-f-]{36}$/),
					type: 'AI',
					brief: 'Send the quote',
					details: 'Quote for 3 seats',
					status: 'in_progress',
					priority: 'high',
					assigned_to: sim.org.members.map((m) => m.id),
					created_by: null,
					additional_data: { deal: 42 },
					created_at: expect.any(String),
					updated_at: expect.any(String),
				},
			});
		});

		it('POST /v1/tasks defaults to a custom, to-do, medium task with nobody assigned', async () => {
			const res = await createTask({});
			expect(res.body.data).toMatchObject({
				type: 'custom',
				status: 'todo',
				priority: 'medium',
				details: '',
				assigned_to: [],
				additional_data: {},
			});
		});

		it.each([
			['a type outside the enum', { type: 'manual' }, /type/],
			['a status outside the enum', { status: 'open' }, /status/],
			['a priority outside the enum', { priority: 'urgent' }, /priority/],
			[
				'an assignee who is not a member',
				{ assigned_to: ['stranger@example.test'] },
				/assigned_to\[0\]/,
			],
			['assigned_to that is not an array', { assigned_to: 'owner@example.test' }, /assigned_to/],
			['additional_data that is not an object', { additional_data: [1] }, /additional_data/],
			['a missing brief', { brief: undefined }, /brief/],
		])('POST /v1/tasks answers 400 for %s', async (_case, body, message) => {
			const res = await createTask(body);
			expect(res.status).toBe(400);
			expect(res.body).toEqual(badRequest);
			expect(res.body.message).toMatch(message);
		});

		it('GET /v1/tasks/{id} answers {statusCode, data: Task}; 404 for unknown and foreign tasks', async () => {
			const created = (await createTask({})).body.data as Task;
			expect((await api(sim, 'GET', `/v1/tasks/${created.id}`)).body).toEqual({
				statusCode: 200,
				data: created,
			});
			expect((await api(sim, 'GET', `/v1/tasks/${randomUUID()}`)).body).toEqual(notFound);
			const foreign = (
				await api(sim, 'POST', '/v1/tasks', { body: { brief: 'theirs' }, key: sim.otherOrg.apiKey })
			).body.data;
			expect((await api(sim, 'GET', `/v1/tasks/${foreign.id}`)).status).toBe(404);
		});

		it('GET /v1/tasks (inferred) lists newest first, filters by status, pages with limit and offset', async () => {
			for (const [brief, status] of [
				['a', 'todo'],
				['b', 'done'],
				['c', 'todo'],
			])
				await createTask({ brief, status });
			const all = await api(sim, 'GET', '/v1/tasks');
			expect(all.status).toBe(200);
			expect(all.body.statusCode).toBe(200);
			expect(all.body.data.map((t: Task) => t.brief)).toEqual(['c', 'b', 'a']);
			const todo = await api(sim, 'GET', '/v1/tasks', { query: { status: 'todo' } });
			expect(todo.body.data.map((t: Task) => t.brief)).toEqual(['c', 'a']);
			const second = await api(sim, 'GET', '/v1/tasks', { query: { limit: 1, offset: 1 } });
			expect(second.body.data.map((t: Task) => t.brief)).toEqual(['b']);
		});

		it('GET /v1/tasks answers 400 for an unknown status or a limit above 1000', async () => {
			expect((await api(sim, 'GET', '/v1/tasks', { query: { status: 'open' } })).body).toEqual(
				badRequest,
			);
			expect((await api(sim, 'GET', '/v1/tasks', { query: { limit: 1001 } })).status).toBe(400);
		});
	});
});
