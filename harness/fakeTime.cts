import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

import { withGlobal, type Clock } from '@sinonjs/fake-timers';

/**
 * Fake time for runs that wait minutes (a node polling a call, 429 waits): `setTimeout`,
 * `setInterval` and `Date` are faked, so the node's `sleep` from n8n-workflow returns when the
 * test moves time, while `setImmediate`, `process.nextTick`, microtasks and I/O stay real, so
 * loopback HTTP to the simulator completes as usual. Node's own socket timeouts are not faked
 * either: they belong to node's internal timers, not to the global `setTimeout`.
 *
 * Built on @sinonjs/fake-timers, the clock behind jest's modern fake timers, rather than on
 * `jest.useFakeTimers`, so that the benches (plain ts-node, no jest) drive time the same way.
 *
 * Create the simulator AFTER installing: its clock captures `Date.now` when it is constructed,
 * and then follows the fake time. Its scheduled call steps run when a request reaches it or when
 * `onStep` calls `sim.clock.runDue()`.
 */

const realSetTimeout = globalThis.setTimeout;

/** Steps of 1 s after a timer fired before a drive jumps again (`nextDueAt`). */
const SETTLING_STEPS = 5;

export interface DriveOptions {
	/** Fake time moved per step; a request started inside a step is answered at its end or later. */
	stepMs?: number;
	/** Run after each step, e.g. `() => sim.clock.runDue()` so that webhooks fire without a request. */
	onStep?: () => unknown;
	/** Fake time after which the drive gives up (a run that never settles). Default 6 hours. */
	maxMs?: number;
	/**
	 * When work outside the faked timers is next due (the simulator's next step): given, each step
	 * jumps to the first of that, the next timer, or `stepMs`, so that hours of waiting cost a few
	 * steps. For runs whose waits are long and whose requests are answered at once.
	 */
	nextDueAt?: () => number | undefined;
}

export interface FakeTime {
	clock: Clock;
	now(): number;
	/** Move fake time, letting I/O run between steps. */
	advance(ms: number, options?: DriveOptions): Promise<void>;
	/** Move fake time step by step until the work settles; answers its result (or throws its error). */
	runUntilSettled<T>(work: Promise<T>, options?: DriveOptions): Promise<T>;
	/** Fake time that passed since install. */
	elapsed(): number;
	uninstall(): void;
}

/** HTTP requests started by anything in this process (the node, the simulator's webhooks) and not yet closed. */
const requestsOnTheirWay = new Set<ClientRequest>();
function countRequest({ request }: { request: ClientRequest }): void {
	requestsOnTheirWay.add(request);
	request.once('close', () => requestsOnTheirWay.delete(request));
}
const REQUEST_STARTS = 'http.client.request.start';

/** Turns given to a request on its way: loopback answers take a handful. */
const TURNS_FOR_AN_ANSWER = 50;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Event-loop turns until no HTTP request is on its way, then a few more for what its answer
 * starts (the node's next request). Loopback I/O completes within turns, so a step waits no real
 * time (a fixed real millisecond cost idle time at each of the suite's ~14,000 steps). A request
 * still on its way after that (a server that does not answer) gets one real millisecond, as
 * every step did before, and the drive moves on.
 */
async function letIoRun(): Promise<void> {
	let quietTurns = 0;
	for (let turns = 1; quietTurns < 3; turns++) {
		await turn();
		quietTurns = requestsOnTheirWay.size === 0 ? quietTurns + 1 : 0;
		if (turns === TURNS_FOR_AN_ANSWER && quietTurns === 0) {
			await new Promise((resolve) => realSetTimeout(resolve, 1));
			for (let more = 0; more < 3; more++) await turn();
			return;
		}
	}
}

export function installFakeTime(): FakeTime {
	const clock = withGlobal(globalThis).install({
		now: Date.now(),
		toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
		loopLimit: 100_000,
	});
	const startedAt = clock.now;
	requestsOnTheirWay.clear();
	subscribe(REQUEST_STARTS, countRequest as (message: unknown) => void);

	/** The pending timers by ID: fake-timers 15 keeps them in a `Map` (none until the first is set). */
	const timersNow = () =>
		(clock as unknown as { timers?: Map<number, { callAt: number }> }).timers ?? new Map();
	let lastTimerIds = new Set<number>();
	let settling = 0;
	/**
	 * The time to the first timer or outside work due, within `stepMs`; after a step in which a
	 * timer fired (a sleep ended: a request may be on its way), a few steps of 1 s first, so that
	 * no jump passes that request's timeout.
	 */
	function jumpOf(stepMs: number, nextDueAt: () => number | undefined): number {
		const timers = timersNow();
		const ids = new Set(timers.keys());
		if ([...lastTimerIds].some((id) => !ids.has(id))) settling = SETTLING_STEPS;
		lastTimerIds = ids;
		const limit = settling > 0 ? Math.min(stepMs, 1_000) : stepMs;
		if (settling > 0) settling--;
		const due = [
			clock.now + limit,
			nextDueAt() ?? Infinity,
			...[...timers.values()].map((timer) => timer.callAt),
		];
		return Math.max(0, Math.min(...due) - clock.now);
	}

	/** The last step's `onStep` while it has not settled: one at a time, never two at once. */
	let stepWork: Promise<unknown> | undefined;
	async function step(
		stepMs: number,
		onStep?: () => unknown,
		nextDueAt?: () => number | undefined,
	): Promise<void> {
		await letIoRun();
		await clock.tickAsync(nextDueAt ? jumpOf(stepMs, nextDueAt) : stepMs);
		if (!onStep) return;
		if (!stepWork) {
			const work = Promise.resolve(onStep()).finally(() => {
				if (stepWork === work) stepWork = undefined;
			});
			stepWork = work;
		}
		// `onStep` may wait on a receiver that waits on fake time itself (the simulator delivering a
		// call's event to a node that sleeps): after a few turns, time moves on while it waits
		await Promise.race([stepWork, letIoRun()]);
	}

	return {
		clock,
		now: () => clock.now,
		elapsed: () => clock.now - startedAt,
		async advance(ms, { stepMs = 1_000, onStep } = {}) {
			const until = clock.now + ms;
			while (clock.now < until) await step(Math.min(stepMs, until - clock.now), onStep);
			await letIoRun();
		},
		async runUntilSettled<T>(
			work: Promise<T>,
			{ stepMs = 1_000, onStep, maxMs = 6 * 3_600_000, nextDueAt }: DriveOptions = {},
		): Promise<T> {
			let settled = false;
			const outcome = work.then(
				(value) => {
					settled = true;
					return value;
				},
				(error: unknown) => {
					settled = true;
					throw error;
				},
			);
			// the rejection is handled when `outcome` is awaited below
			outcome.catch(() => undefined);
			const giveUpAt = clock.now + maxMs;
			while (!settled) {
				if (clock.now > giveUpAt)
					throw new Error(`the run did not settle within ${maxMs} ms of fake time`);
				await step(stepMs, onStep, nextDueAt);
				await letIoRun();
			}
			return await outcome;
		},
		uninstall: () => {
			unsubscribe(REQUEST_STARTS, countRequest as (message: unknown) => void);
			clock.uninstall();
		},
	};
}

/** `work` run on fake time from start to end: its repeats' backoffs and paced turns pass at once. */
export async function onFakeTime<T>(work: () => Promise<T>): Promise<T> {
	const time = installFakeTime();
	try {
		return await time.runUntilSettled(work());
	} finally {
		time.uninstall();
	}
}

/** What `nextDueAfterQuiet` reads of a simulator: its request log and its clock. */
interface Quietable {
	requests: ReadonlyArray<{ status: number }>;
	clock: { nextTaskAt(): number | undefined };
}

/**
 * A `nextDueAt` for drives with several runs at once: the simulator's next step, but only once
 * it has answered every request and none arrived since the last step; until then steps of 1 s,
 * so that a jump never passes a request still on its way (its timeout would fire).
 */
export function nextDueAfterQuiet(sim: Quietable): () => number | undefined {
	let seen = -1;
	let stable = 0;
	return () => {
		const count = sim.requests.length;
		stable = count === seen ? stable + 1 : 0;
		seen = count;
		const quiet = stable >= 2 && sim.requests.every((request) => request.status !== 0);
		return quiet ? sim.clock.nextTaskAt() : Date.now() + 1_000;
	};
}
