import { sleep } from 'n8n-workflow';

/**
 * The longest delay a timer takes: Node runs a longer one after 1 ms (a redial days ahead would
 * make the campaign look at its calls in a loop).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Sleep `ms`, in timers under Node's limit; ends early when `signal` aborts. */
export async function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
	const until = Date.now() + ms;
	for (let left = ms; left > 0 && !signal?.aborted; left = until - Date.now())
		await sleep(Math.min(left, MAX_TIMER_MS), signal);
}
