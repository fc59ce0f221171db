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
 * Pacing state of one node execution: when a budget's remaining count reaches 0, the next request
 * that draws on it waits for the reset instead of colliding with a 429. Kept per execution
 * context (not per process), so that nothing is shared between executions or workers.
 */
const resumeAtByContext = new WeakMap<object, Map<BudgetKey, number>>();

function stateOf(context: object): Map<BudgetKey, number> {
	let state = resumeAtByContext.get(context);
	if (!state) {
		state = new Map();
		resumeAtByContext.set(context, state);
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

/** Wait until every budget the request draws on has been reset, if any ran out. */
export async function waitForBudgets(context: object, budgets: BudgetKey[]): Promise<void> {
	const state = stateOf(context);
	const resumeAt = Math.max(0, ...budgets.map((b) => state.get(b) ?? 0));
	const wait = resumeAt - Date.now();
	if (wait > 0) await sleep(wait);
}

/** Read the rate headers of an answer and remember the budgets that reached 0. */
export function observeRateHeaders(context: object, primary: Budget, headers: IDataObject): void {
	const state = stateOf(context);
	for (const [suffix, budget] of SUFFIXES) {
		const remaining = secondsHeader(headers, `x-ratelimit-remaining${suffix}`);
		if (remaining !== 0) continue;
		const reset = secondsHeader(headers, `x-ratelimit-reset${suffix}`) ?? 1;
		state.set(budget ?? primary, Date.now() + reset * 1000);
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
