import type { INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun, type RunNodeOptions } from '../../harness/engine.cts';
import { installFakeTime, nextDueAfterQuiet } from '../../harness/fakeTime.cts';
import {
	planCalls,
	startSimulator,
	type CallPlan,
	type Simulator,
} from '../../simulator/index.cts';
import { credentialsOf } from './runs.cts';

const DAY = 24 * 3_600_000;

export interface WaitingRunOptions extends Omit<RunNodeOptions, 'credentials' | 'parameters'> {
	/** The outcome of each call the run places, in order (`planCalls`); later calls take the defaults. */
	calls?: CallPlan[];
	/** Where the fake clock starts, e.g. `'2026-11-26T10:00:00Z'` for a campaign's calling hours. */
	at?: string;
}

export interface WaitingRun extends NodeRun {
	/** The simulator the run talked to, stopped: its requests, calls and clock stay readable. */
	sim: Simulator;
	/** Fake time from the run's start to its end, in ms. */
	tookMs: number;
}

/**
 * An operation that waits (Place AI Call with Wait for Outcome, Run Campaign, a paced Event →
 * Send) run once through n8n's engine on fake time, in one call: the fake clock installed first,
 * a simulator started after it (so that its clock follows), the calls' outcomes planned, the run
 * driven until it ends (each step jumps to the simulator's next step or the node's next timer),
 * then both stopped. `parameters` receives the simulator, for its agents and numbers.
 */
export async function runWaiting(
	parameters: (sim: Simulator) => INodeParameters,
	{ calls = [], at, ...options }: WaitingRunOptions = {},
): Promise<WaitingRun> {
	const time = installFakeTime();
	if (at) time.clock.setSystemTime(Date.parse(at));
	const sim = await startSimulator();
	try {
		for (const plan of calls) planCalls(sim).next(plan);
		const startedAt = time.now();
		const run = await time.runUntilSettled(
			runNode({ credentials: credentialsOf(sim), parameters: parameters(sim), ...options }),
			{
				onStep: () => sim.clock.runDue(),
				nextDueAt: nextDueAfterQuiet(sim),
				stepMs: 60_000,
				maxMs: 7 * DAY,
			},
		);
		return { ...run, sim, tookMs: time.now() - startedAt };
	} finally {
		await sim.stop();
		time.uninstall();
	}
}
