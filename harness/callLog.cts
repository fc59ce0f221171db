import type { Call } from '../simulator/index.cts';

/**
 * The calls a person is owed by a campaign's rules, given the results their calls got (in order
 * of the tries): one more after each result in Redial On, up to Max Tries.
 */
export function callsByTheRules(calls: Call[], redialOn: string[], maxTries: number): number {
	let owed = 1;
	while (owed < maxTries && redialOn.includes(String(calls[owed - 1]?.call_result))) owed++;
	return owed;
}

/**
 * The most calls live at once in a simulator's call log: from entering the queue (`place_at`) to
 * hang-up, canceled calls left out. What Max Live Calls is measured by, in tests and benches.
 */
export function peakLive(calls: Call[]): number {
	const edges = calls
		.filter((call) => call.phase !== 'canceled')
		.flatMap((call) => [
			{ at: call.place_at, step: 1 },
			{ at: Date.parse(call.finished_at!), step: -1 },
		]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let live = 0;
	let peak = 0;
	for (const edge of edges) peak = Math.max(peak, (live += edge.step));
	return peak;
}
