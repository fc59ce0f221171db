import type { Call } from '../simulator/index.cts';

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
