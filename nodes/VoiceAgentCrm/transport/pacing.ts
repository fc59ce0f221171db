import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

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
 * Pacing state of one node execution, per budget. The rate headers report the organization's
 * budget, which every execution on every worker draws on. Each execution counts, within the current
 * window, how much of the budget was drawn and how much of that was its own: its share. When others
 * draw too and the pace of the window would empty the budget before its reset, the execution spreads
 * its share of what is left evenly up to the reset. A lone execution keeps its full speed and waits
 * only when a budget is at 0. Kept per execution context (not per process): nothing is shared between
 * executions or workers; the headers are what they have in common.
 */
export interface BudgetPace {
	/** `Remaining` of the last answer. */
	remaining: number;
	/** When the budget's window resets. */
	resetAt: number;
	/** The next request drawing on the budget waits until then. */
	nextAt: number;
	/** This window as this execution saw it: `Remaining` before its first request, when that was, its own requests. */
	windowRemaining: number;
	windowSeenAt: number;
	own: number;
}

const paceByContext = new WeakMap<object, Map<BudgetKey, BudgetPace>>();

function stateOf(context: object): Map<BudgetKey, BudgetPace> {
	let state = paceByContext.get(context);
	if (!state) {
		state = new Map();
		paceByContext.set(context, state);
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

/** Wait until every budget the request draws on allows it (reset if it ran out, or its paced turn). */
export async function waitForBudgets(context: object, budgets: BudgetKey[]): Promise<void> {
	const state = stateOf(context);
	const resumeAt = Math.max(0, ...budgets.map((b) => state.get(b)?.nextAt ?? 0));
	const wait = resumeAt - Date.now();
	if (wait > 0) await sleep(wait);
}

/** The pace of a budget after an answer that reports `remaining` and the window's reset. */
export function paceAfter(previous: BudgetPace | undefined, remaining: number, resetAt: number, now: number): BudgetPace {
	const sameWindow = previous && remaining < previous.remaining && now < previous.resetAt;
	const window = sameWindow
		? { windowRemaining: previous.windowRemaining, windowSeenAt: previous.windowSeenAt, own: previous.own + 1 }
		: { windowRemaining: remaining + 1, windowSeenAt: now, own: 1 };
	return { remaining, resetAt, nextAt: nextRequestAt(window, remaining, resetAt, now), ...window };
}

function nextRequestAt(window: Pick<BudgetPace, 'windowRemaining' | 'windowSeenAt' | 'own'>, remaining: number, resetAt: number, now: number): number {
	if (remaining === 0) return resetAt;
	const drawn = window.windowRemaining - remaining;
	const share = window.own / drawn;
	if (share >= 1) return 0;
	const toReset = resetAt - now;
	const drawnBeforeReset = (drawn / Math.max(1, now - window.windowSeenAt)) * toReset;
	if (drawnBeforeReset <= remaining) return 0;
	const ownLeft = remaining * share;
	// its last request of the window would race the others' for the final units: it waits for the new window
	if (ownLeft < 2) return resetAt;
	return Math.min(resetAt, now + toReset / ownLeft);
}

/** Read the rate headers of an answer and pace each budget they report. */
export function observeRateHeaders(context: object, primary: Budget, headers: IDataObject): void {
	const state = stateOf(context);
	const now = Date.now();
	for (const [suffix, budget] of SUFFIXES) {
		const remaining = secondsHeader(headers, `x-ratelimit-remaining${suffix}`);
		if (remaining === undefined) continue;
		const key = budget ?? primary;
		const resetAt = now + (secondsHeader(headers, `x-ratelimit-reset${suffix}`) ?? 1) * 1000;
		state.set(key, paceAfter(state.get(key), remaining, resetAt, now));
	}
}

/** The budget a 429 names in its headers (the one at 0), or the endpoint's own. */
export function exhaustedBudget(primary: Budget, headers: IDataObject): BudgetKey {
	for (const [suffix, budget] of SUFFIXES.slice(1)) {
		if (secondsHeader(headers, `x-ratelimit-remaining${suffix}`) === 0) return budget!;
	}
	return primary;
}

export function budgetsOf(primary: Budget, anonymous: boolean): BudgetKey[] {
	if (primary === 'events') return anonymous ? ['events', 'eventsAnonymous', 'ip'] : ['events', 'ip'];
	if (primary === 'listing') return ['org', 'listing', 'ip'];
	return ['org', 'ip'];
}
