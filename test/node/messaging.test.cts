import { randomUUID } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator } from '../../simulator/index.cts';
import type { Channel, Contact, Thread, Simulator } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Channel, Thread and Message operations through the engine', () => {
	let sim: Simulator;
	let waba: Channel;
	let maria: Contact;
	let mariaThread: Thread;
	const run = (parameters: INodeParameters) =>
		runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters });

	beforeEach(async () => {
		sim = await startSimulator();
		waba = [...sim.org.channels.values()].find((c) => c.type === 'WABA')!;
		maria = [...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!;
		mariaThread = [...sim.org.threads.values()].find((t) => t.contact_id === maria.id)!;
	});
	afterEach(() => sim.stop());

	describe('Channel → Get Many', () => {
		function addChannels(count: number): void {
			for (let i = 0; i < count; i++) {
				const id = `chn_${randomUUID()}`;
				const created_at = new Date(Date.UTC(2030, 0, 1 + i)).toISOString();
				sim.org.channels.set(id, {
					id,
					name: `Support ${i}`,
					type: 'WABA',
					status: 'active',
					answer_method: 'auto',
					organization_id: sim.org.id,
					created_at,
				});
			}
		}

		it('returns every channel of the {data, count} answer, newest first, one item per channel', async () => {
			addChannels(3);
			const { items, error } = await run({
				resource: 'channel',
				operation: 'getAll',
				returnAll: true,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.name)).toEqual([
				'Support 2',
				'Support 1',
				'Support 0',
				'Instagram DMs',
				'WhatsApp Sales',
			]);
			expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
			expect(sim.requestsTo('GET', '/v1/channels')[0].query).toMatchObject({
				sort: 'desc',
				offset: '0',
			});
		});

		it('sends the filters and the sort, and stops at the limit', async () => {
			addChannels(4);
			const { items, error } = await run({
				resource: 'channel',
				operation: 'getAll',
				limit: 2,
				sort: 'asc',
				filters: { type: 'WABA', status: 'active', answerMethod: 'auto', name: 'support' },
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.name)).toEqual(['Support 0', 'Support 1']);
			const sent = sim.requestsTo('GET', '/v1/channels');
			expect(sent).toHaveLength(1);
			expect(sent[0].query).toEqual({
				sort: 'asc',
				type: 'WABA',
				status: 'active',
				answer_method: 'auto',
				name: 'support',
				limit: '2',
				offset: '0',
			});
		});
	});

	describe('Thread → Update', () => {
		it('closes a thread and assigns it to a user; the simulator holds both', async () => {
			const user = sim.org.members[1];
			const { items, error } = await run({
				resource: 'thread',
				operation: 'update',
				threadId: byId(mariaThread.id),
				status: 'closed',
				assignment: 'assign',
				assignee: user.id,
				assigneeType: 'user',
			});
			expect(error).toBeUndefined();
			expect(sim.org.threads.get(mariaThread.id)).toMatchObject({
				status: 'closed',
				assignee: user.id,
				assignee_type: 'user',
			});
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				id: mariaThread.id,
				status: 'closed',
				assignee: user.id,
				assignee_type: 'user',
			});
			expect(sim.requestsTo('PUT', `/v1/thread/${mariaThread.id}`)[0].body).toEqual({
				status: 'closed',
				assignee: user.id,
				assignee_type: 'user',
			});
		});

		it('assigns to an AI agent, then Unassign sends assignee null and leaves the status alone', async () => {
			const agent = [...sim.org.agents.values()][0];
			const assigned = await run({
				resource: 'thread',
				operation: 'update',
				threadId: byId(mariaThread.id),
				status: 'unchanged',
				assignment: 'assign',
				assignee: agent.id,
				assigneeType: 'agent',
			});
			expect(assigned.error).toBeUndefined();
			expect(sim.org.threads.get(mariaThread.id)).toMatchObject({
				status: 'open',
				assignee: agent.id,
				assignee_type: 'agent',
			});

			const unassigned = await run({
				resource: 'thread',
				operation: 'update',
				threadId: byId(mariaThread.id),
				status: 'unchanged',
				assignment: 'unassign',
			});
			expect(unassigned.error).toBeUndefined();
			expect(sim.org.threads.get(mariaThread.id)).toMatchObject({
				status: 'open',
				assignee: null,
				assignee_type: null,
			});
			const bodies = sim.requestsTo('PUT', `/v1/thread/${mariaThread.id}`).map((r) => r.body);
			expect(bodies).toEqual([{ assignee: agent.id, assignee_type: 'agent' }, { assignee: null }]);
		});

		it('reopens a closed thread', async () => {
			const johnThread = [...sim.org.threads.values()].find((t) => t.status === 'closed')!;
			const { error } = await run({
				resource: 'thread',
				operation: 'update',
				threadId: byId(johnThread.id),
				status: 'open',
			});
			expect(error).toBeUndefined();
			expect(sim.org.threads.get(johnThread.id)?.status).toBe('open');
		});

		it('fails the item with a 404 the user can act on for an unknown thread', async () => {
			const { error } = await run({
				resource: 'thread',
				operation: 'update',
				threadId: byId('thr-missing'),
				status: 'open',
			});
			expect(error?.message).toMatch(/Not found in this organization/);
		});
	});

	describe('Thread → Get Many (inferred)', () => {
		it('filters by status and channel, newest update first', async () => {
			const { items, error } = await run({
				resource: 'thread',
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'open', channelId: byId(waba.id) },
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.id)).toEqual([mariaThread.id]);
			expect(sim.requestsTo('GET', '/v1/threads')[0].query).toMatchObject({
				status: 'open',
				channel_id: waba.id,
			});
		});

		it('returns every thread up to the limit', async () => {
			const all = await run({ resource: 'thread', operation: 'getAll', returnAll: true });
			expect(all.items).toHaveLength(sim.org.threads.size);
			const one = await run({ resource: 'thread', operation: 'getAll', limit: 1 });
			expect(one.items).toHaveLength(1);
			expect(one.items[0].json.id).toBe(mariaThread.id);
			expect(sim.requestsTo('GET', '/v1/threads').at(-1)?.query).toMatchObject({
				limit: '1',
				offset: '0',
			});
		});
	});

	describe('Message → Get', () => {
		it('returns the stored message', async () => {
			const stored = [...sim.org.messages.values()].find((m) => m.thread_id === mariaThread.id)!;
			const { items, error } = await run({
				resource: 'message',
				operation: 'get',
				messageId: stored.id,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([stored]);
		});

		it('fails with a 404 for a message of another organization', async () => {
			const foreign = [...sim.otherOrg.messages.values()][0];
			const { error } = await run({ resource: 'message', operation: 'get', messageId: foreign.id });
			expect(error?.message).toMatch(/Not found in this organization/);
			expect(JSON.stringify(error)).not.toContain(sim.apiKey);
		});
	});
});
