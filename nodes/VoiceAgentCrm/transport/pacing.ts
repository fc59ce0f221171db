import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_NAME } from './credential';
import type { Budget } from './endpoints';

/**
 * The rate budgets a request can draw on. `ip` and the listing twin come with their own headers;
 * `eventsAnonymous` is drawn only by event batches that carry anonymous events.
 */
export type BudgetKey = Budget | 'ip' | 'eventsAnonymous';

/** Header suffix → the budget it reports. The unsuffixed headers report the endpoint's own budget. */
const SUFFIXES: Array<[string, BudgetKey | null]> = [
	['', null],
	['-heavy', 'listing'],
	['-ip', 'ip'],
	['-anonymous', 'eventsAnonymous'],
];

export const BUDGET_LABELS: Record<BudgetKey, string> = {
	org: 'organization budget (120 requests per minute)',
	listing: 'listing budget (20 contact or call listings per minute)',
	ip: 'IP address budget (600 requests per minute)',
	events: 'events budget',
	eventsAnonymous: 'anonymous events budget',
};

/**
 * Pacing state per budget. The rate headers report the organization's budget, which every
 * execution on every worker draws on. The executions of one n8n process that use the same
 * credential share one view of it (`paceByAccount`): they count the requests they have in flight,
 * so that together they never send more than `Remaining` allows, and, within the current window, how
 * much of the budget was drawn and how much of that was theirs: their share. When other processes
 * draw too and the window's pace would empty the budget before its reset, the process spreads its
 * share of what is left evenly up to the reset. A lone process keeps its full speed and waits only
 * when the budget is spent. The view is advisory: lost with a restart, rebuilt from the next answer.
 */
export interface BudgetPace {
	/** `Remaining` of the last answer. */
	remaining: number;
	/** When the budget's window resets. */
	resetAt: number;
	/** The next request drawing on the budget waits until then. */
	nextAt: number;
	/** Time between two requests while spreading; 0 when not spreading. */
	spacing: number;
	/** This window as this process saw it: `Remaining` before its first request, when that was, its own requests. */
	windowRemaining: number;
	windowSeenAt: number;
	own: number;
}

interface PaceState {
	paces: Map<BudgetKey, BudgetPace>;
	/**
	 * When the requests not answered yet were sent, per budget: counted from the first request, before
	 * any answer. A request that fails without an answer is forgotten after `IN_FLIGHT_FORGET_MS`.
	 */
	inFlight: Map<BudgetKey, number[]>;
	/**
	 * Own requests answered since the last answer that reported the budget: the IP budget is drawn
	 * by every request but reported on listing answers only, so the next report counts them as own.
	 */
	unreported: Map<BudgetKey, number>;
	/** Organization requests kept for cancels (`keepForCancels`). */
	keptForCancels: number;
}

/** Longer than a request may take (the transport's timeout is 30 s). */
const IN_FLIGHT_FORGET_MS = 60_000;

/**
 * Whether a time recorded at `at` still tells of the clock at `now`: not when the clock was set back
 * since (an NTP step, a machine resumed), which would hold requests for as long as it went back.
 */
const recordedBefore = (at: number, now: number) => at <= now;

function inFlightOf(state: PaceState, budget: BudgetKey, now: number): number[] {
	const sent = (state.inFlight.get(budget) ?? []).filter(
		(at) => recordedBefore(at, now) && now - at < IN_FLIGHT_FORGET_MS,
	);
	state.inFlight.set(budget, sent);
	return sent;
}

const newState = (): PaceState => ({
	paces: new Map(),
	inFlight: new Map(),
	unreported: new Map(),
	keptForCancels: 0,
});

/** At most this many organization requests are kept for cancels: half the budget the reference states. */
const KEPT_FOR_CANCELS_AT_MOST = 60;

/**
 * Keep (`change` > 0) or give back (< 0) organization requests for cancels: one for each scheduled
 * call placed as a claim that the process may still have to cancel before it rings. Requests
 * that are not urgent leave them to the cancels (`turnOf`), so that a budget spent by the
 * process's own looks and placements never holds a cancel past the call's start.
 */
export async function keepForCancels(context: object, change: number): Promise<void> {
	const state = await sharedStateOf(context);
	state.keptForCancels = Math.max(0, state.keptForCancels + change);
}

const paceByAccount = new Map<string, PaceState>();
const stateByContext = new WeakMap<object, PaceState>();

interface CredentialContext {
	getCredentials(type: string): Promise<IDataObject>;
}

/**
 * The account a context's requests draw on: the API key (hashed: the key itself is kept nowhere
 * else) at its API address, whichever credential holds it, since the budgets are the key's
 * organization's; undefined for a bare context.
 */
async function accountOf(context: object): Promise<string | undefined> {
	const functions = context as Partial<CredentialContext>;
	if (typeof functions.getCredentials !== 'function') return undefined;
	const credentials = await functions.getCredentials(CREDENTIAL_NAME);
	const key = createHash('sha256').update(String(credentials.apiKey)).digest('hex');
	return `${key} ${String(credentials.baseUrl)}`;
}

async function sharedStateOf(context: object): Promise<PaceState> {
	const known = stateByContext.get(context);
	if (known) return known;
	const account = await accountOf(context);

	const state = (account && paceByAccount.get(account)) || newState();
	if (account) paceByAccount.set(account, state);
	stateByContext.set(context, state);
	return state;
}

function stateOf(context: object): PaceState {
	let state = stateByContext.get(context);
	if (!state) {
		state = newState();
		stateByContext.set(context, state);
	}
	return state;
}

/** Seconds from a header value (fractions allowed); `undefined` when absent or not a number. */
export function secondsHeader(headers: IDataObject, name: string): number | undefined {
	const raw = headers[name.toLowerCase()];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * When a request may go: the budgets' paced turns, or their reset when what remains is in flight
 * already or kept for cancels. An urgent request takes no paced turn and may use what is kept:
 * it waits only for a spent budget.
 */
function turnOf(state: PaceState, budgets: BudgetKey[], now: number, urgent: boolean): number {
	let at = now;
	for (const budget of budgets) {
		const pace = state.paces.get(budget);
		if (!pace || now >= pace.resetAt || !recordedBefore(pace.windowSeenAt, now)) continue;
		const kept =
			budget === 'org' && !urgent ? Math.min(state.keptForCancels, KEPT_FOR_CANCELS_AT_MOST) : 0;
		const spent = pace.remaining - inFlightOf(state, budget, now).length - kept <= 0;
		at = Math.max(at, spent ? pace.resetAt : urgent ? now : pace.nextAt);
	}
	return at;
}

/**
 * Wait until every budget the request draws on allows it, then count the request in flight.
 * Rejects, counting nothing, when `stop` aborts first (the execution was stopped). `urgent`: a
 * request that undoes a write before it takes effect (a scheduled call's cancel before its start)
 * goes at once while the budget has any left, ahead of the spread.
 */
export async function waitForBudgets(
	context: object,
	budgets: BudgetKey[],
	stop?: AbortSignal,
	urgent = false,
): Promise<void> {
	const state = await sharedStateOf(context);
	for (
		let at = turnOf(state, budgets, Date.now(), urgent);
		at > Date.now();
		at = turnOf(state, budgets, Date.now(), urgent)
	) {
		await sleep(at - Date.now(), stop);
	}
	const now = Date.now();
	for (const budget of budgets) {
		inFlightOf(state, budget, now).push(now);
		const pace = state.paces.get(budget);
		// the next request of the process takes the following turn
		if (pace && now < pace.resetAt && pace.spacing > 0)
			pace.nextAt = Math.max(pace.nextAt, now) + pace.spacing;
	}
}

/** The pace of a budget after an answer that reports `remaining` and the window's reset. */
export function paceAfter(
	previous: BudgetPace | undefined,
	remaining: number,
	resetAt: number,
	now: number,
	ownDraws = 1,
): BudgetPace {
	const sameWindow =
		previous &&
		now < previous.resetAt &&
		recordedBefore(previous.windowSeenAt, now) &&
		remaining <= previous.windowRemaining;
	if (!sameWindow) {
		const window = { windowRemaining: remaining + 1, windowSeenAt: now, own: 1 };
		return { remaining, resetAt, ...window, ...spread(window, remaining, resetAt, now) };
	}
	// answers of concurrent requests may come back out of order: the lowest count is the latest
	const lowest = Math.min(remaining, previous.remaining);
	const window = {
		windowRemaining: previous.windowRemaining,
		windowSeenAt: previous.windowSeenAt,
		own: previous.own + ownDraws,
	};
	const pace = spread(window, lowest, previous.resetAt, now);
	// turns already handed out to waiting requests stand while spreading
	const nextAt = pace.spacing > 0 ? Math.max(pace.nextAt, previous.nextAt) : pace.nextAt;
	return { remaining: lowest, resetAt: previous.resetAt, ...window, ...pace, nextAt };
}

function spread(
	window: Pick<BudgetPace, 'windowRemaining' | 'windowSeenAt' | 'own'>,
	remaining: number,
	resetAt: number,
	now: number,
): Pick<BudgetPace, 'nextAt' | 'spacing'> {
	const still = { nextAt: 0, spacing: 0 };
	if (remaining === 0) return { nextAt: resetAt, spacing: 0 };
	const drawn = window.windowRemaining - remaining;
	const share = window.own / drawn;
	if (share >= 1) return still;
	const toReset = resetAt - now;
	const drawnBeforeReset = (drawn / Math.max(1, now - window.windowSeenAt)) * toReset;
	if (drawnBeforeReset <= remaining) return still;
	const ownLeft = remaining * share;
	// its last request of the window would race the others' for the final units: it waits for the new window
	if (ownLeft < 2) return { nextAt: resetAt, spacing: 0 };
	const spacing = toReset / ownLeft;
	return { nextAt: Math.min(resetAt, now + spacing), spacing };
}

/**
 * Read the rate headers of an answer to a request that drew on `drawn`: pace each budget they
 * report, and count the request as answered on every budget it drew on.
 */
export function observeRateHeaders(
	context: object,
	primary: Budget,
	headers: IDataObject,
	drawn: BudgetKey[] = [primary],
): void {
	const state = stateOf(context);
	const now = Date.now();
	const reported = new Set<BudgetKey>();
	for (const [suffix, budget] of SUFFIXES) {
		const remaining = secondsHeader(headers, `x-ratelimit-remaining${suffix}`);
		if (remaining === undefined) continue;
		const key = budget ?? primary;
		const resetAt = now + (secondsHeader(headers, `x-ratelimit-reset${suffix}`) ?? 1) * 1000;
		const ownDraws = 1 + (state.unreported.get(key) ?? 0);
		state.unreported.delete(key);
		reported.add(key);
		state.paces.set(key, paceAfter(state.paces.get(key), remaining, resetAt, now, ownDraws));
	}
	for (const key of new Set([...drawn, ...reported])) {
		inFlightOf(state, key, now).shift();
		if (!reported.has(key)) state.unreported.set(key, (state.unreported.get(key) ?? 0) + 1);
	}
}

/** The size of each budget an answer announces (`X-RateLimit-Limit` and its suffixed twins), per window. */
export function announcedLimits(
	primary: Budget,
	headers: IDataObject,
): Partial<Record<BudgetKey, number>> {
	const limits: Partial<Record<BudgetKey, number>> = {};
	for (const [suffix, budget] of SUFFIXES) {
		const limit = secondsHeader(headers, `x-ratelimit-limit${suffix}`);
		if (limit !== undefined) limits[budget ?? primary] = limit;
	}
	return limits;
}

/** The budget a 429 names in its headers (the one at 0), or the endpoint's own. */
export function exhaustedBudget(primary: Budget, headers: IDataObject): BudgetKey {
	for (const [suffix, budget] of SUFFIXES.slice(1)) {
		if (secondsHeader(headers, `x-ratelimit-remaining${suffix}`) === 0) return budget!;
	}
	return primary;
}

export function budgetsOf(primary: Budget, anonymous: boolean): BudgetKey[] {
	if (primary === 'events')
		return anonymous ? ['events', 'eventsAnonymous', 'ip'] : ['events', 'ip'];
	if (primary === 'listing') return ['org', 'listing', 'ip'];
	return ['org', 'ip'];
}
