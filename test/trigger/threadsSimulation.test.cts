import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { Thread, Simulator } from '../../simulator/index.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { pollingTrigger, type PollingTrigger } from '../../harness/poll.cts';
import { beforeNthRequest, pick, randomSource } from './simulation.cts';

const MINUTE = 60_000;

interface Seen {
	status: string;
	assignee: string | null;
	assignee_type: string | null;
	updated_at: string;
}

const stateOf = (t: Seen): Seen => ({
	status: t.status,
	assignee: t.assignee,
	assignee_type: t.assignee_type,
	updated_at: t.updated_at,
});
const sameAssignment = (a: Seen, b: Seen) =>
	a.assignee === b.assignee && a.assignee_type === b.assignee_type;

/**
 * Acceptance (issue 7): thread status and assignee changes racing the polls (between the pages of
 * a poll too), updates sharing a millisecond, a poll failing on its second page, and restarts. For
 * every thread, the items emitted must chain: each one starts where the previous one ended, none
 * repeats, and the last one ends at the thread's final state.
 */
describe('Thread Changed with changes racing the polls', () => {
	let time: FakeTime;
	let sim: Simulator;
	// the transport's repeats after a failed page wait on fake time, not in real time
	withSimulatorOnFakeTime((t, s) => ([time, sim] = [t, s]), { once: true });

	it('emits every observed status and assignment change once, and every update once, each with before and after', async () => {
		const random = randomSource(11);
		const channels = [...sim.org.channels.keys()];
		const contacts = [...sim.org.contacts.keys()];
		const assignees: Array<[string, 'user' | 'agent']> = [
			...sim.org.members.map((m): [string, 'user'] => [m.id, 'user']),
			...[...sim.org.agents.keys()].map((id): [string, 'agent'] => [id, 'agent']),
		];
		const newThread = (updatedAt: number): Thread => {
			const thread: Thread = {
				id: `thr-${randomUUID()}`,
				channel_id: pick(random, channels),
				channel_type: 'WABA',
				contact_id: pick(random, contacts),
				organization_id: sim.org.id,
				status: random() < 0.5 ? 'open' : 'closed',
				assignee: null,
				assignee_type: null,
				updated_at: sim.clock.iso(updatedAt),
				window_open_until: 0,
			};
			sim.org.threads.set(thread.id, thread);
			return thread;
		};
		/** What PUT /v1/thread/{id} does to the store; the real route is used too, below. */
		const change = (thread: Thread, at = sim.clock.now()) => {
			const roll = random();
			if (roll < 0.4) thread.status = thread.status === 'open' ? 'closed' : 'open';
			else if (roll < 0.8) {
				const [assignee, type] = random() < 0.2 ? [null, null] : pick(random, assignees);
				Object.assign(thread, { assignee, assignee_type: type });
			}
			// else: a message or a no-op update, which moves updated_at only
			thread.updated_at = sim.clock.iso(at);
		};
		const threads = () => [...sim.org.threads.values()];

		for (let i = 0; i < 400; i++)
			newThread(sim.clock.now() - Math.floor(random() * 24 * 60 * MINUTE));
		const options = {
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			clock: () => sim.clock.now(),
			time,
		};
		const statusAndAssignment = pollingTrigger({
			...options,
			parameters: { event: 'threadChanged', threadEvents: ['status', 'assignment'] },
		});
		const anyUpdate = pollingTrigger({
			...options,
			parameters: { event: 'threadChanged', threadEvents: ['anyUpdate'] },
		});
		const triggers: Array<[PollingTrigger, IDataObject[]]> = [
			[statusAndAssignment, []],
			[anyUpdate, []],
		];
		for (const [trigger] of triggers) expect(await trigger.poll()).toBeNull();
		const initial = new Map(threads().map((t) => [t.id, stateOf(t)]));

		const pollAll = async () => {
			for (const [trigger, items] of triggers)
				for (const item of (await trigger.poll())?.[0] ?? []) items.push(item.json);
		};
		let raced = 0;
		let failed = false;
		for (let step = 1; step <= 40; step++) {
			await sim.clock.advance(MINUTE);
			for (let i = 0; i < 3; i++) newThread(sim.clock.now());
			for (let i = 0; i < 25; i++) change(pick(random, threads()));
			// five changes through the real route
			for (let i = 0; i < 5; i++) {
				const thread = pick(random, threads());
				const body =
					random() < 0.5
						? { status: thread.status === 'open' ? 'closed' : 'open' }
						: { assignee: null };
				const res = await fetch(`${sim.baseUrl}/v1/thread/${thread.id}`, {
					method: 'PUT',
					headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				expect(res.status).toBe(200);
			}
			if (step % 5 === 0) {
				// updates sharing one millisecond; after the poll has seen them, one thread changes again within it
				const at = sim.clock.now();
				const sharing = threads().slice(0, 6);
				for (const thread of sharing) change(thread, at);
				await pollAll();
				sharing[0].status = sharing[0].status === 'open' ? 'closed' : 'open';
				sharing[0].updated_at = sim.clock.iso(at);
			}
			if (step % 6 === 0) {
				for (const [trigger] of triggers) trigger.restart();
			}
			if (step % 10 === 3) {
				// a burst spanning two pages, with changes landing between the first and the second page
				for (const thread of threads().slice(0, 300)) change(thread);
				for (const [trigger, items] of triggers) {
					const disarm = beforeNthRequest(sim, 'GET', '/v1/threads', 2, () => {
						for (let i = 0; i < 8; i++) change(pick(random, threads()));
					});
					for (const item of (await trigger.poll())?.[0] ?? []) items.push(item.json);
					if (disarm()) raced++;
				}
				continue;
			}
			if (step === 17) {
				for (const thread of threads().slice(0, 300)) change(thread);
				const disarm = beforeNthRequest(sim, 'GET', '/v1/threads', 2, () =>
					sim.faults.inject({
						method: 'GET',
						path: '/v1/threads',
						fault: { status: 503 },
						times: 3,
					}),
				);
				await expect(statusAndAssignment.poll()).rejects.toThrow();
				failed = disarm();
			}
			await pollAll();
		}
		await sim.clock.advance(MINUTE);
		await pollAll();
		await sim.clock.advance(MINUTE);
		await pollAll();

		expect(raced).toBe(triggers.length * 4);
		expect(failed).toBe(true);
		const [[, statusItems], [, updateItems]] = triggers;
		expect(statusItems.length).toBeGreaterThan(500);
		expect(updateItems.length).toBeGreaterThan(statusItems.length);

		// every broken link named, checked in one assertion (thousands of expect calls cost seconds)
		const broken: string[] = [];
		const check = (ok: boolean, thread: string, what: string) => {
			if (!ok) broken.push(`${thread}: ${what}`);
		};
		const changesOf = (items: IDataObject[]) => {
			const byThread = new Map<string, Array<{ before: Seen | null; after: Seen }>>();
			for (const item of items) {
				const chain = byThread.get(String(item.id)) ?? [];
				chain.push(item.change as { before: Seen | null; after: Seen });
				byThread.set(String(item.id), chain);
			}
			return byThread;
		};
		const statusChanges = changesOf(statusItems);
		const updateChanges = changesOf(updateItems);
		for (const thread of threads()) {
			const final = stateOf(thread);
			const start = initial.get(thread.id) ?? null;

			// status and assignment: a chain of real changes from the activation state to the final one
			let at = start;
			for (const link of statusChanges.get(thread.id) ?? []) {
				if (at === null) check(link.before === null, thread.id, 'a first change with a before');
				else {
					check(
						link.before !== null &&
							link.before.status === at.status &&
							sameAssignment(link.before, at),
						thread.id,
						`a change whose before is not the previous after (${JSON.stringify(link)})`,
					);
					check(
						link.after.status !== at.status || !sameAssignment(link.after, at),
						thread.id,
						`a change that changes nothing (${JSON.stringify(link)})`,
					);
				}
				at = link.after;
			}
			if (at === null) check(start === null, thread.id, 'no change although it changed');
			else
				check(
					at.status === final.status && sameAssignment(at, final),
					thread.id,
					`the last change does not end at the final state (${JSON.stringify(at)})`,
				);

			// any update: a chain of strictly later versions ending at the final updated_at
			let version = start;
			for (const link of updateChanges.get(thread.id) ?? []) {
				check(
					(link.before?.updated_at ?? null) === (version?.updated_at ?? null),
					thread.id,
					`an update whose before is not the previous version (${JSON.stringify(link)})`,
				);
				check(
					link.after.updated_at >= (version?.updated_at ?? ''),
					thread.id,
					`an update going back in time (${JSON.stringify(link)})`,
				);
				version = link.after;
			}
			check(
				version?.updated_at === final.updated_at,
				thread.id,
				'the last update is not the final version',
			);
		}
		expect(broken).toEqual([]);
	}, 60_000);
});
