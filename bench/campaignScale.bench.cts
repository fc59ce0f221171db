import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine.cts';
import { installFakeTime, nextDueAfterQuiet, type FakeTime } from '../harness/fakeTime.cts';
import {
	insertCall,
	planCalls,
	startSimulator,
	type Call,
	type RecordedRequest,
	type Simulator,
} from '../simulator/index.cts';

/**
 * Call → Run Campaign at scale (issue #40), through n8n's engine against the simulator on fake
 * time, the worker held, with the call mix: 30 % of calls unanswered, 2 redials 60
 * minutes after, talks of 30 to 180 s (the simulator queues a call 2 s and rings it 5 s first).
 * People are London numbers, one zone; Calling Hours "Only My Window".
 * - `ml10`, `ml50`: 1,000 people, Max Live Calls 10 and 50, a window always open. Duration (first
 *   call's start to last call's end) against the bound: people × tries × call length ÷ Max Live
 *   Calls, tries and length read from the call log (a call lasts from its start, `place_at`, to
 *   its end, `finished_at`), and against the same calls on lanes that never wait
 *   (`lanesThatNeverWait`). The lane time is split into calls, idle with a call due (held by the
 *   campaign) and idle with nothing due (every one left waits for its redial).
 * - `ml50_5000`: 5,000 people at Max Live Calls 50, as many a lane as `ml10`.
 * - `ml10_people_in_8h`: a list longer than one day's calling, 09:00 to 17:00
 *   on Monday, halted at 17:00 with Cancel Campaign; the people whose calls were all over by then.
 * - `100k_history`: the ml50 campaign on an agent with 100,000 calls over the last 7 days (half of
 *   them another workflow's campaign calls), which the first look reads back.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const REDIAL_AFTER_MS = 60 * MINUTE;
const MAX_TRIES = 3;
const ALWAYS_OPEN = { callDays: [1, 2, 3, 4, 5, 6, 7], callFrom: '00:00', callUntil: '24:00' };
const MONDAY_8H = { callDays: [1], callFrom: '09:00', callUntil: '17:00' };
// a Monday; London is on UTC in November
const MONDAY = '2026-11-30';

interface Scenario {
	people: number;
	maxLive: number;
	hours: typeof ALWAYS_OPEN;
	startAt: string;
	/** Calls of the agent already in the remembered period. */
	history?: number;
	/** When Cancel Campaign halts the campaign: the end of the day's window. */
	haltAt?: number;
}

interface Outcome {
	people: IDataObject[];
	/** The campaign's calls that rang (canceled ones and the seeded history left out). */
	calls: Call[];
	requests: RecordedRequest[];
	startedAt: number;
	statuses: string[];
	/** The simulator's listing budget: listing requests a minute. */
	listingLimit: number;
}

/** Person n: a London number (its zone read from +44). */
function londoner(n: number): IDataObject {
	return { to: `+4420794${String(100_000 + n).slice(1)}`, name: `P${n}` };
}

function campaignParameters(sim: Simulator, scenario: Scenario): INodeParameters {
	return {
		resource: 'call',
		operation: 'runCampaign',
		agentId: { __rl: true, mode: 'id', value: agentOf(sim) },
		fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
		toNumber: '={{ $json.to }}',
		fullName: '={{ $json.name }}',
		maxLiveCalls: scenario.maxLive,
		callingHours: 'window',
		...scenario.hours,
		redialOn: ['no_answer'],
		redialAfterMinutes: REDIAL_AFTER_MS / MINUTE,
		maxTries: MAX_TRIES,
	};
}

const agentOf = (sim: Simulator) => [...sim.org.agents.values()][0].id;

/**
 * `count` finished calls of the agent spread over the last 7 days, oldest first; every other one
 * a campaign call of another workflow to someone else. No analysis, to keep the records small.
 */
function seedHistory(sim: Simulator, count: number): void {
	const now = Date.now();
	const spacing = Math.floor((7 * DAY - HOUR) / count);
	for (let n = 0; n < count; n++) {
		const at = new Date(now - 7 * DAY + HOUR + n * spacing).toISOString();
		const to = `+1212555${String(10_000 + (n % 9_000)).slice(1)}`;
		const metadata =
			n % 2
				? { n8n_workflow_id: 'wf-other', n8n_campaign: 'f0f0f0f0f0f0f0f0', n8n_person: to }
				: null;
		insertCall(sim, {
			agent_id: agentOf(sim),
			to,
			created_at: at,
			finished_at: at,
			metadata,
			call_analysis: null,
		});
	}
}

/** Cancel Campaign, by the key the campaign's calls carry, once the fake clock reaches `at`. */
function haltWhenDue(sim: Simulator, time: FakeTime, at: number | undefined) {
	let halting: Promise<unknown> | undefined;
	return {
		check() {
			if (at === undefined || halting || time.now() < at) return;
			const campaign = [...sim.org.calls.values()].find((call) => call.metadata?.n8n_campaign);
			halting = runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: {
					resource: 'call',
					operation: 'cancelCampaign',
					agentId: { __rl: true, mode: 'id', value: agentOf(sim) },
					campaign: String(campaign?.metadata?.n8n_campaign),
				},
				executionId: 'exec-halt',
			});
		},
		done: () => halting,
	};
}

async function runScenario(scenario: Scenario): Promise<Outcome> {
	const time = installFakeTime();
	time.clock.setSystemTime(Date.parse(scenario.startAt));
	const sim = await startSimulator();
	try {
		planCalls(sim).byShare({ shares: { no_answer: 0.3 }, talkMs: [30_000, 180_000], seed: 32 });
		if (scenario.history) seedHistory(sim, scenario.history);
		const seeded = new Set(sim.org.calls.keys());
		const people = Array.from({ length: scenario.people }, (_, n) => londoner(n));
		const halt = haltWhenDue(sim, time, scenario.haltAt);
		const drive = <T,>(work: Promise<T>) =>
			time.runUntilSettled(work, {
				onStep: () => {
					halt.check();
					return sim.clock.runDue();
				},
				nextDueAt: nextDueAfterQuiet(sim),
				stepMs: MINUTE,
				maxMs: 14 * DAY,
			});
		const startedAt = time.now();
		const { items, error } = await drive(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: campaignParameters(sim, scenario),
				items: people,
			}),
		);
		if (error) throw new Error(`the campaign failed: ${error.message}`);
		const halting = halt.done();
		if (halting) await drive(halting);
		const calls = [...sim.org.calls.values()].filter(
			(call) => !seeded.has(call.id) && call.phase !== 'canceled',
		);
		const statuses = items.map((item) => String(item.json.campaign_status));
		const listingLimit = sim.limits.listing;
		return { people, calls, requests: [...sim.requests], startedAt, statuses, listingLimit };
	} finally {
		await sim.stop();
		time.uninstall();
	}
}

const endOf = (call: Call) => Date.parse(call.finished_at!);
const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** Each person's calls, in order of their tries. */
function byPerson(calls: Call[]): Map<string, Call[]> {
	const people = new Map<string, Call[]>();
	for (const call of [...calls].sort((a, b) => a.place_at - b.place_at))
		people.set(call.to, [...(people.get(call.to) ?? []), call]);
	return people;
}

/** When each call was due: the run's start for a first call, a redial 60 minutes after the try before. */
function dueTimes(calls: Call[], startedAt: number): Map<Call, number> {
	const due = new Map<Call, number>();
	for (const tries of byPerson(calls).values())
		tries.forEach((call, at) =>
			due.set(call, at ? endOf(tries[at - 1]) + REDIAL_AFTER_MS : startedAt),
		);
	return due;
}

/**
 * Lane time from the first start to the last end, in hours: in calls, idle while a call was due
 * (the campaign's own hold: the look that sees an end, the claim lead before a start), and idle
 * with nothing due (what is left waits for its redial).
 */
function laneTime(calls: Call[], due: Map<Call, number>, maxLive: number) {
	const edges = calls.flatMap((call) => [
		{ at: call.place_at, busy: 1, due: -1 },
		{ at: endOf(call), busy: -1, due: 0 },
		{ at: due.get(call)!, busy: 0, due: 1 },
	]);
	edges.sort((a, b) => a.at - b.at);
	const first = Math.min(...calls.map((call) => call.place_at));
	const share = { calls: 0, held: 0, waiting: 0 };
	let [busy, waitingCalls, since] = [0, 0, first];
	for (const edge of edges) {
		const span = Math.max(0, edge.at - Math.max(since, first));
		const idle = maxLive - busy;
		share.calls += busy * span;
		share.held += Math.min(idle, waitingCalls) * span;
		share.waiting += (idle - Math.min(idle, waitingCalls)) * span;
		[busy, waitingCalls, since] = [busy + edge.busy, waitingCalls + edge.due, edge.at];
	}
	return share;
}

/**
 * The gap in a lane from a call's end to the next call's start, when that call was due by the
 * end, in seconds: until the campaign placed it (a look saw the end), and from then to its start
 * (the claim lead).
 */
function laneGaps(calls: Call[], due: Map<Call, number>) {
	const lanes = new Map<string, Call[]>();
	for (const call of [...calls].sort((a, b) => a.place_at - b.place_at)) {
		const lane = String(call.metadata?.n8n_lane);
		lanes.set(lane, [...(lanes.get(lane) ?? []), call]);
	}
	const gaps = [...lanes.values()].flatMap((lane) =>
		lane
			.slice(1)
			.map((next, at) => ({ before: lane[at], next }))
			.filter(({ before, next }) => due.get(next)! <= endOf(before)),
	);
	const mean = (of: (gap: (typeof gaps)[number]) => number) =>
		round(gaps.reduce((sum, gap) => sum + of(gap), 0) / gaps.length / 1000, 1);
	return {
		total: mean(({ before, next }) => next.place_at - endOf(before)),
		look: mean(({ before, next }) => Date.parse(next.created_at) - endOf(before)),
		lead: mean(({ next }) => next.place_at - Date.parse(next.created_at)),
	};
}

/**
 * The same calls on lanes that never wait, in ms: each call placed the instant a lane frees and
 * starting then (no claim lead, no look), a redial due 60 minutes after the try before. The due
 * calls are taken in the campaign's order (list order among those due), or with every first try
 * before any redial (the order that ends soonest without knowing who will answer). The redials'
 * waits stay: a person unanswered at the last first tries needs two more hours whatever the lanes
 * do. What the campaign's duration is compared with, like for like.
 */
function lanesThatNeverWait(
	calls: Call[],
	people: IDataObject[],
	maxLive: number,
	order: 'campaign' | 'firstTriesFirst' = 'campaign',
): number {
	const listed = new Map(people.map((person, at) => [String(person.to), at]));
	const tries = [...byPerson(calls)].map(([to, ofPerson]) => ({
		at: listed.get(to)!,
		lengths: ofPerson.map((call) => endOf(call) - call.place_at),
		dueAt: 0,
		tried: 0,
	}));
	tries.sort((a, b) => a.at - b.at);
	const laneFreeAt: number[] = Array(maxLive).fill(0);
	let end = 0;
	while (tries.length) {
		const lane = laneFreeAt.indexOf(Math.min(...laneFreeAt));
		const now = Math.max(laneFreeAt[lane], Math.min(...tries.map((each) => each.dueAt)));
		const due = tries.filter((each) => each.dueAt <= now);
		const next = (order === 'firstTriesFirst' && due.find((each) => !each.tried)) || due[0];
		next.tried++;
		const callEnd = now + next.lengths.shift()!;
		laneFreeAt[lane] = callEnd;
		end = Math.max(end, callEnd);
		next.dueAt = callEnd + REDIAL_AFTER_MS;
		if (!next.lengths.length) tries.splice(tries.indexOf(next), 1);
	}
	return end;
}

const listingsOf = (requests: RecordedRequest[]) =>
	requests.filter((request) => request.method === 'GET' && request.path === '/v1/calls');

/**
 * The most listing requests in any minute: at the listing budget, the budget paces the campaign
 * (its looks wait their turn); below it, the lanes do.
 */
function listingPeak(listings: RecordedRequest[]): number {
	const times = listings.map((request) => request.at);
	let peak = 0;
	for (let first = 0, last = 0; last < times.length; last++) {
		while (times[last] - times[first] >= MINUTE) first++;
		peak = Math.max(peak, last - first + 1);
	}
	return peak;
}

/** Duration against the bound, and where the lane time went. */
function laneFigures(name: string, outcome: Outcome, maxLive: number): Record<string, number> {
	const { calls, people, requests } = outcome;
	const listings = listingsOf(requests);
	const called = outcome.statuses.filter((status) => status === 'called').length;
	if (called !== people.length) throw new Error(`${name}: ${called} of ${people.length} called`);
	const lengths = calls.map((call) => endOf(call) - call.place_at);
	const averageCall = lengths.reduce((sum, ms) => sum + ms, 0) / calls.length;
	const tries = calls.length / people.length;
	const bound = (people.length * tries * averageCall) / maxLive;
	const duration = Math.max(...calls.map(endOf)) - Math.min(...calls.map((call) => call.place_at));
	const due = dueTimes(calls, outcome.startedAt);
	const lanes = laneTime(calls, due, maxLive);
	const laneTotal = lanes.calls + lanes.held + lanes.waiting;
	const gaps = laneGaps(calls, due);
	const neverWaiting = lanesThatNeverWait(calls, people, maxLive);
	const firstTriesFirst = lanesThatNeverWait(calls, people, maxLive, 'firstTriesFirst');
	const key = `campaign_scale_${name}`;
	return {
		[`${key}_people`]: people.length,
		[`${key}_calls`]: calls.length,
		[`${key}_average_tries`]: round(tries),
		[`${key}_average_call_seconds`]: round(averageCall / 1000, 1),
		[`${key}_hours`]: round(duration / HOUR),
		[`${key}_bound_hours`]: round(bound / HOUR),
		[`${key}_ratio_to_bound`]: round(duration / bound),
		[`${key}_lanes_never_waiting_hours`]: round(neverWaiting / HOUR),
		[`${key}_ratio_to_lanes_never_waiting`]: round(duration / neverWaiting),
		[`${key}_lanes_never_waiting_first_tries_first_hours`]: round(firstTriesFirst / HOUR),
		[`${key}_lane_share_calls`]: round(lanes.calls / laneTotal),
		[`${key}_lane_share_idle_call_due`]: round(lanes.held / laneTotal),
		[`${key}_lane_share_idle_nothing_due`]: round(lanes.waiting / laneTotal),
		[`${key}_lane_gap_seconds`]: gaps.total,
		[`${key}_lane_gap_until_placed_seconds`]: gaps.look,
		[`${key}_lane_gap_claim_lead_seconds`]: gaps.lead,
		[`${key}_listing_requests_per_person`]: round(listings.length / people.length),
		[`${key}_listing_requests_per_minute`]: round(listings.length / (duration / MINUTE), 1),
		[`${key}_listing_budget_share_at_peak_minute`]: round(
			listingPeak(listings) / outcome.listingLimit,
		),
		[`${key}_requests_per_person`]: round(requests.length / people.length),
	};
}

/** Whether a person's calls are over: answered, or unanswered at the last try. */
function isDone(tries: Call[]): boolean {
	const last = tries.at(-1);
	return !!last?.finished_at && (last.call_result !== 'no_answer' || tries.length >= MAX_TRIES);
}

/** The people whose calls were all over by the end of the window. */
function peopleDoneBy(outcome: Outcome, windowEnd: number): number {
	const ended = outcome.calls.filter((call) => call.finished_at && endOf(call) <= windowEnd);
	const done = [...byPerson(ended).values()].filter(isDone).length;
	if (done >= outcome.people.length) throw new Error('the list was done within the window: longer');
	return done;
}

/** The first look over 100,000 calls: its listing requests and the wait before the first call. */
function historyFigures(outcome: Outcome): Record<string, number> {
	const first = outcome.calls.reduce((a, b) => (a.place_at <= b.place_at ? a : b));
	const placedAt = Date.parse(first.created_at);
	const before = listingsOf(outcome.requests).filter((request) => request.at <= placedAt);
	const finished = outcome.statuses.every((status) => status === 'called');
	return {
		campaign_scale_100k_history_listing_before_first_call: before.length,
		campaign_scale_100k_history_minutes_before_first_call: round(
			(first.place_at - outcome.startedAt) / MINUTE,
			1,
		),
		campaign_scale_100k_history_finished: finished ? 1 : 0,
		campaign_scale_100k_history_requests_per_person: round(
			outcome.requests.length / outcome.people.length,
		),
	};
}

/** A list longer than a day's calling at `maxLive`, halted when the window closes. */
async function peopleIn8h(maxLive: number, people: number): Promise<number> {
	const windowEnd = Date.parse(`${MONDAY}T17:00:00Z`);
	const outcome = await runScenario({
		people,
		maxLive,
		hours: MONDAY_8H,
		startAt: `${MONDAY}T09:00:00Z`,
		haltAt: windowEnd,
	});
	return peopleDoneBy(outcome, windowEnd);
}

/**
 * `CAMPAIGN_SCALE=ml10,ml50` runs only those parts (`ml10`, `ml50`, `ml50_5000`,
 * `ml10_people_in_8h`, `100k_history`).
 */
const parts = process.env.CAMPAIGN_SCALE?.split(',');
const part = async (name: string, figures: () => Promise<Record<string, number>>) =>
	!parts || parts.includes(name) ? await figures() : {};

export async function run(): Promise<Record<string, number>> {
	const lanes = (maxLive: number, history?: number, people = 1_000) =>
		runScenario({
			people,
			maxLive,
			hours: ALWAYS_OPEN,
			startAt: `${MONDAY}T00:00:00Z`,
			history,
		});
	return {
		...(await part('ml10', async () => laneFigures('ml10', await lanes(10), 10))),
		...(await part('ml50', async () => laneFigures('ml50', await lanes(50), 50))),
		// as many people a lane as at Max Live Calls 10: the lanes, not the redials' waits, set the pace
		...(await part('ml50_5000', async () =>
			laneFigures('ml50_5000', await lanes(50, undefined, 5_000), 50),
		)),
		// longer than 8 hours of lanes can take: 10 lanes × 8 h ÷ (79 s a call + 13 s between) ÷ 1.43 calls ≈ 2,200;
		// at 50 lanes, 5,000 people finish in about 5.3 h (ml50_5000); a list longer than the window
		// (12,000) did not end within 49 minutes of real time
		...(await part('ml10_people_in_8h', async () => ({
			campaign_scale_ml10_people_in_8h: await peopleIn8h(10, 2_500),
		}))),
		// at Max Live Calls 50: the history weighs on every listing request, and this run needs the fewest
		...(await part('100k_history', async () => historyFigures(await lanes(50, 100_000)))),
	};
}
