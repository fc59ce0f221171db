import {
	insertCall,
	isFinishedPhase,
	planCalls,
	seededRandom,
	startCallLifecycle,
} from '../../simulator/index.cts';
import type { Simulator, CallPlan, CallResult, Call } from '../../simulator/index.cts';

/** Deterministic pseudo-random numbers (the simulator's mulberry32), so a failing run can be replayed. */
export const randomSource = seededRandom;

export function pick<T>(random: () => number, values: readonly T[]): T {
	return values[Math.floor(random() * values.length)];
}

const RESULTS: CallResult[] = [
	'answered',
	'answered',
	'answered',
	'voicemail',
	'no_answer',
	'busy',
	'failed',
];

/**
 * A call placed now (or scheduled `placeInMs` ahead) that lives its whole life cycle on the
 * simulator clock, with a random outcome: talks of up to 8 minutes, analysis after 30 s, 3 minutes,
 * or `lateAnalysisMs` for one call in ten.
 */
export function placeCall(
	sim: Simulator,
	random: () => number,
	options: { placeInMs?: number; lateAnalysisMs: number },
): { call: Call; plan: CallPlan } {
	const now = sim.clock.now();
	const plan: CallPlan = {
		result: pick(random, RESULTS),
		talkMs: 10_000 + Math.floor(random() * 470_000),
		analysisDelayMs: random() < 0.1 ? options.lateAnalysisMs : pick(random, [30_000, 180_000]),
	};
	const call = insertCall(sim, {
		phase: 'in_queue',
		created_at: sim.clock.iso(now),
		place_at: now + (options.placeInMs ?? 0),
		start_at: null,
		finished_at: null,
		duration: null,
		call_result: null,
		disconnection_reason: null,
		call_analysis: null,
		direction: random() < 0.3 ? 'inbound' : 'outbound',
	});
	planCalls(sim).next(plan);
	startCallLifecycle(sim, sim.org, call);
	return { call, plan };
}

export function finishedIds(sim: Simulator): Set<string> {
	return new Set(
		[...sim.org.calls.values()].filter((c) => isFinishedPhase(c.phase)).map((c) => c.id),
	);
}

/**
 * Run `action` just before the `nth` request to `path` from now is handled (before its faults are
 * taken), e.g. between the first and the second page of a poll: the requests are counted as they
 * arrive. Returns a function that disarms the hook and tells whether it ran.
 */
export function beforeNthRequest(
	sim: Simulator,
	method: string,
	path: string,
	nth: number,
	action: () => void,
): () => boolean {
	let seen = 0;
	let ran = false;
	const stop = sim.onRequest((request) => {
		if (request.method !== method || request.path !== path || ++seen < nth) return;
		stop();
		ran = true;
		action();
	});
	return () => {
		stop();
		return ran;
	};
}
