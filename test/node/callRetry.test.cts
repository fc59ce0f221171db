import type { INodeParameters } from 'n8n-workflow';

import { retryNode, runNode, type NodeRun, type RunNodeOptions } from '../../harness/engine.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { insertCall, planCalls, startSimulator, type Simulator } from '../../simulator/index.cts';
import { firstAgent, phoneCall, TO_EACH_ITEM } from '../helpers/placement.cts';

/**
 * The never-twice memory (docs/decisions.md, "The call's trace and the never-twice memory"): a
 * run that may repeat an earlier one (a user's Retry, the node's Retry On Fail) finds the calls
 * already placed in the call list and never places a second one for the same item.
 */

const PLACEMENTS = '/v1/calls/single-phone-call';
const LISTS = '/v1/calls';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Retrying a placement never places a second call for the same item', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const people = [
		{ to: '+14155550101', name: 'Ann' },
		{ to: '+14155550102', name: 'Bob' },
		{ to: '+14155550103', name: 'Cy' },
	];
	const placement = (extra: INodeParameters = {}): INodeParameters =>
		phoneCall(sim, { ...TO_EACH_ITEM, waitFor: 'none', ...extra });
	const run = (
		parameters: INodeParameters,
		extra: Partial<RunNodeOptions> = {},
	): Promise<NodeRun> =>
		time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters,
				items: people,
				...extra,
			}),
			{ onStep: () => sim.clock.runDue() },
		);
	/** The answer to the nth placement (0-based) is lost after the call was stored. */
	const loseAnswerOf = (nth: number) =>
		sim.faults.inject({
			method: 'POST',
			path: PLACEMENTS,
			skip: nth,
			fault: { drop: true, afterHandling: true },
		});
	const placements = () => sim.requestsTo('POST', PLACEMENTS).length;
	const listings = () => sim.requestsTo('GET', LISTS).length;
	/** Calls stored per number called: each person must have exactly one. */
	const callsPerPerson = () =>
		people.map(({ to }) => [...sim.org.calls.values()].filter((call) => call.to === to).length);
	const callIdsOf = (items: NodeRun['items']) => items.map((item) => item.json.call_id);
	/** Calls per number called that were not canceled before they rang. */
	const ringingPerPerson = () =>
		people.map(
			({ to }) =>
				[...sim.org.calls.values()].filter((call) => call.to === to && call.phase !== 'canceled')
					.length,
		);

	for (const continueOnFail of [false, true]) {
		it(`Don't Wait, Continue On Fail ${continueOnFail ? 'on' : 'off'}: a Retry after the second answer was lost places only what was never placed`, async () => {
			loseAnswerOf(1);
			const first = await run(placement(), { continueOnFail, executionId: 'exec-1' });
			if (continueOnFail) expect(first.items[1].json.error).toMatch(/may have been placed/);
			else expect(first.error?.message).toMatch(/may have been placed/);
			const placedFirst = placements();
			expect(placedFirst).toBe(continueOnFail ? 3 : 2);

			const retry = await run(placement(), {
				continueOnFail,
				mode: 'retry',
				executionId: 'exec-2',
			});
			expect(retry.error).toBeUndefined();
			expect(placements() - placedFirst).toBe(continueOnFail ? 0 : 1);
			expect(callsPerPerson()).toEqual([1, 1, 1]);
			// the look-up, and the read that settles the Retry's claim when it placed one
			expect(listings()).toBe(continueOnFail ? 1 : 2);
			const stored = (to: string) => [...sim.org.calls.values()].find((call) => call.to === to)!;
			expect(callIdsOf(retry.items)).toEqual(people.map(({ to }) => stored(to).id));
			for (const [itemIndex, item] of retry.items.entries()) {
				const placedNow = !continueOnFail && itemIndex === 2;
				expect(item.json).toEqual({
					call_id: stored(people[itemIndex].to).id,
					agent_id: firstAgent(sim).id,
					contact_id: null,
					created_at: stored(people[itemIndex].to).created_at,
					already_placed: !placedNow,
					placed_by_execution: placedNow ? 'exec-2' : 'exec-1',
				});
				expect(item.pairedItem).toEqual({ item: itemIndex });
			}
		});
	}

	describe("as n8n retries: on the failed execution's saved data, custom data included", () => {
		/** A Retry of `failed` under a new execution ID; `retry` drives it on fake time. */
		const retryOf = (failed: NodeRun, executionId: string) =>
			retryNode(failed, {
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: placement(),
				items: people,
				executionId,
			});
		const drive = <T,>(work: Promise<T>) =>
			time.runUntilSettled(work, { onStep: () => sim.clock.runDue() });
		const retry = (failed: NodeRun, executionId: string) => drive(retryOf(failed, executionId));
		/** The hour before: the same workflow placed the same calls, and they went through. */
		const anHourBefore = async () => {
			await run(placement(), { executionId: 'exec-1' });
			await time.advance(HOUR);
		};

		it("an hourly run's Retry places what its failed execution never placed, not taking the hour before's identical calls as its own", async () => {
			await anHourBefore();
			loseAnswerOf(1);
			const failed = await run(placement(), { executionId: 'exec-2' });
			expect(failed.error?.message).toMatch(/may have been placed/);

			const retried = await retry(failed, 'exec-3');
			expect(retried.error).toBeUndefined();
			// one call per person each hour: the third person's was never placed by exec-2
			expect(callsPerPerson()).toEqual([2, 2, 2]);
			expect(
				retried.items.map((item) => [item.json.already_placed, item.json.placed_by_execution]),
			).toEqual([
				[true, 'exec-2'],
				[true, 'exec-2'],
				[false, 'exec-3'],
			]);
		});

		it('two Retries of one failed execution pressed at once: each person is called once, and both go on with the same calls', async () => {
			loseAnswerOf(0);
			const failed = await run(placement(), { executionId: 'exec-1' });
			expect(failed.error?.message).toMatch(/may have been placed/);
			const [first, second] = await drive(
				Promise.all([retryOf(failed, 'exec-2'), retryOf(failed, 'exec-3')]),
			);
			expect([first.error, second.error]).toEqual([undefined, undefined]);
			expect(callIdsOf(first.items)).toEqual(callIdsOf(second.items));
			await time.advance(MINUTE, { onStep: () => sim.clock.runDue() });
			// the losing Retry's calls were canceled before they rang
			expect(ringingPerPerson()).toEqual([1, 1, 1]);
			// and a later Retry goes on with the calls kept, never with a canceled one
			const later = await retry(failed, 'exec-4');
			expect(callIdsOf(later.items)).toEqual(callIdsOf(first.items));
			expect(ringingPerPerson()).toEqual([1, 1, 1]);
		});

		it('two Retries pressed at once whose reads of the calls come after the calls were due (429, Retry-After 40 s): each cancels all its calls before they ring, and says so', async () => {
			loseAnswerOf(0);
			const failed = await run(placement(), { executionId: 'exec-1' });
			// the two Retries' look-ups go through; their reads after placing wait out a 429 past the
			// calls' start (20 s ahead)
			sim.faults.inject({
				method: 'GET',
				path: LISTS,
				skip: 2,
				times: 2,
				fault: { status: 429, retryAfter: 40 },
			});
			const retries = await drive(
				Promise.all([retryOf(failed, 'exec-2'), retryOf(failed, 'exec-3')]),
			);
			await time.advance(MINUTE, { onStep: () => sim.clock.runDue() });
			// the first person's call is exec-1's; the others' calls were all canceled, not rung twice
			expect(ringingPerPerson()).toEqual([1, 0, 0]);
			for (const { error } of retries) {
				expect(error?.message).toMatch(
					/^Item 1: call \S+ was canceled before it rang: whether another Retry placed this item's call could not be read$/,
				);
				expect(error?.description).toMatch(
					/could not be read by .*, 5 s before the first call was due/,
				);
			}
		});

		it('a Retry of a Retry finds the calls of both executions before it', async () => {
			await anHourBefore();
			loseAnswerOf(0);
			const failed = await run(placement(), { executionId: 'exec-2' });
			expect(failed.error?.message).toMatch(/may have been placed/);
			loseAnswerOf(0);
			const failedAgain = await retry(failed, 'exec-3');
			expect(failedAgain.error?.message).toMatch(/may have been placed/);

			const retried = await retry(failedAgain, 'exec-4');
			expect(retried.error).toBeUndefined();
			expect(callsPerPerson()).toEqual([2, 2, 2]);
			expect(retried.items.map((item) => item.json.placed_by_execution)).toEqual([
				'exec-2',
				'exec-3',
				'exec-4',
			]);
		});
	});

	it('a run that repeats nothing looks nothing up: a manual run of the same items places again and reads no list', async () => {
		await run(placement(), { executionId: 'exec-1' });
		await run(placement(), { executionId: 'exec-2' });
		expect(placements()).toBe(6);
		expect(listings()).toBe(0);
	});

	it('waiting until the call ends, Continue On Fail off: the Retry waits for the calls found and the one it placed, and answers their records', async () => {
		planCalls(sim)
			.next({ talkMs: 2 * MINUTE })
			.next({ talkMs: 3 * MINUTE })
			.next({ talkMs: 4 * MINUTE });
		loseAnswerOf(1);
		const waitParameters = placement({ waitFor: 'ended' });
		const first = await run(waitParameters, { executionId: 'exec-1' });
		expect(first.error?.message).toMatch(/may have been placed/);
		expect(placements()).toBe(2);

		const retry = await run(waitParameters, { mode: 'retry', executionId: 'exec-2' });
		expect(retry.error).toBeUndefined();
		expect(placements()).toBe(3);
		expect(callsPerPerson()).toEqual([1, 1, 1]);
		expect(retry.items.map((item) => item.json.call_status)).toEqual([
			'completed',
			'completed',
			'completed',
		]);
		expect(
			retry.items.map((item) => [item.json.already_placed, item.json.placed_by_execution]),
		).toEqual([
			[true, 'exec-1'],
			[true, 'exec-1'],
			[false, 'exec-2'],
		]);
	});

	it('freeing the worker: a Retry that finds calls waits for them by polling, since their events go to the old execution', async () => {
		planCalls(sim)
			.next({ talkMs: 2 * MINUTE })
			.next({ talkMs: 2 * MINUTE });
		loseAnswerOf(1);
		const parameters = placement({ waitFor: 'ended', waitOptions: { resumeByWebhook: true } });
		const first = await run(parameters, { executionId: 'exec-1' });
		expect(first.error?.message).toMatch(/may have been placed/);
		const oldResumeUrl = [...sim.org.calls.values()][0].webhook_url;
		expect(oldResumeUrl).toMatch(/\/webhook-waiting\/exec-1\b/);

		const retry = await run(parameters, { mode: 'retry', executionId: 'exec-2' });
		expect(retry.error).toBeUndefined();
		expect(retry.run.waitTill).toBeUndefined();
		expect(callsPerPerson()).toEqual([1, 1, 1]);
		expect(retry.items.map((item) => item.json.call_status)).toEqual([
			'completed',
			'completed',
			'completed',
		]);
		// the call this execution placed has no resume URL of an execution that does not wait
		const placedNow = [...sim.org.calls.values()].find((call) => call.to === people[2].to)!;
		expect(placedNow.webhook_url).toBeNull();
	});

	for (const continueOnFail of [false, true]) {
		it(`the node's own Retry On Fail, Continue On Fail ${continueOnFail ? 'on' : 'off'}: the next try finds this execution's calls and places none twice`, async () => {
			// n8n tries again when the node throws, or when its first output item is an error
			loseAnswerOf(continueOnFail ? 0 : 1);
			const { items, error } = await run(placement(), {
				continueOnFail,
				executionId: 'exec-5',
				retryOnFail: { maxTries: 2, waitBetweenTries: 0 },
			});
			expect(error).toBeUndefined();
			expect(placements()).toBe(3);
			expect(callsPerPerson()).toEqual([1, 1, 1]);
			expect(listings()).toBe(1);
			expect(items.map((item) => item.json.already_placed)).toEqual(
				continueOnFail ? [true, true, true] : [true, true, false],
			);
			expect(new Set(items.map((item) => item.json.placed_by_execution))).toEqual(
				new Set(['exec-5']),
			);
		});
	}

	it("a call older than 24 hours is never taken as the item's: the Retry places a new one; one of 23 hours is taken", async () => {
		const first = await run(placement(), { executionId: 'exec-1', items: [people[0]] });
		const original = sim.org.calls.get(first.items[0].json.call_id as string)!;
		const age = (hours: number) =>
			(original.created_at = new Date(time.now() - hours * HOUR).toISOString());

		age(23);
		const taken = await run(placement(), {
			mode: 'retry',
			executionId: 'exec-2',
			items: [people[0]],
		});
		expect(taken.items[0].json).toMatchObject({ call_id: original.id, already_placed: true });
		expect(placements()).toBe(1);

		age(25);
		const placedAgain = await run(placement(), {
			mode: 'retry',
			executionId: 'exec-3',
			items: [people[0]],
		});
		expect(placedAgain.items[0].json).toMatchObject({ already_placed: false });
		expect(placedAgain.items[0].json.call_id).not.toBe(original.id);
		expect(placements()).toBe(2);
	});

	it('past 10 pages of 1,000 calls in 24 hours the item fails before dialling, saying why', async () => {
		for (let n = 0; n < 10_001; n++)
			insertCall(sim, {
				agent_id: firstAgent(sim).id,
				created_at: new Date(time.now() - MINUTE).toISOString(),
			});
		const { items, error } = await run(placement(), {
			mode: 'retry',
			executionId: 'exec-2',
			items: [people[0]],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe(
			'Item 0: a call placed for this item by an earlier attempt could not be ruled out, so no call was placed',
		);
		expect(items[0].json.description).toMatch(/Placed by Execution/);
		expect(listings()).toBe(10);
		expect(placements()).toBe(0);
	});
});

describe('a Retry in real time, as Node keeps timers', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	it('of calls scheduled 30 days ahead, past the longest timer Node keeps (24.8 days): each call kept as scheduled', async () => {
		// the failed run placed Ann, lost the answer for Bob and never placed Cy: the Retry claims Cy's
		const people = [
			{ to: '+14155550101', name: 'Ann' },
			{ to: '+14155550102', name: 'Bob' },
			{ to: '+14155550103', name: 'Cy' },
		];
		const inThirtyDays = new Date(Date.now() + 30 * 24 * HOUR).toISOString().slice(0, 19);
		const options = {
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: phoneCall(sim, {
				...TO_EACH_ITEM,
				waitFor: 'none',
				additionalFields: { schedule: { at: { dateTime: inThirtyDays, timezone: 'UTC' } } },
			}),
			items: people,
		};
		sim.faults.inject({
			method: 'POST',
			path: PLACEMENTS,
			skip: 1,
			fault: { drop: true, afterHandling: true },
		});
		const failed = await runNode({ ...options, executionId: 'exec-1' });
		expect(failed.error?.message).toMatch(/may have been placed/);
		const retried = await retryNode(failed, { ...options, executionId: 'exec-2' });
		expect(retried.error).toBeUndefined();
		const calls = [...sim.org.calls.values()];
		expect(calls.map((call) => [call.to, call.phase])).toEqual([
			['+14155550101', 'scheduled'],
			['+14155550102', 'scheduled'],
			['+14155550103', 'scheduled'],
		]);
		expect(retried.items.map((item) => item.json.placed_by_execution)).toEqual([
			'exec-1',
			'exec-1',
			'exec-2',
		]);
	});
});
