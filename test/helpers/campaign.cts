import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import type { Simulator } from '../../simulator/index.cts';
import { firstAgent, listed } from './placement.cts';

const DAY = 86_400_000;

/** Every day of the week, as Call On takes it (1 is Monday). */
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/**
 * Run Campaign by the organization's first agent from its US main line, each person from the item's
 * `to`, `name` and `zone` (empty: read from the number): Monday to Friday 09:00 to 17:00, 5 calls
 * live, no answer and busy redialled an hour later up to 3 tries; `extra` sets the rest.
 */
export const campaignParameters = (
	sim: Simulator,
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'call',
	operation: 'runCampaign',
	agentId: listed(firstAgent(sim).id),
	fromNumber: listed('+14155550100'),
	toNumber: '={{ $json.to }}',
	fullName: '={{ $json.name }}',
	personTimeZone: '={{ $json.zone ?? "" }}',
	maxLiveCalls: 5,
	callDays: [1, 2, 3, 4, 5],
	callFrom: '09:00',
	callUntil: '17:00',
	redialOn: ['no_answer', 'busy'],
	redialAfterMinutes: 60,
	maxTries: 3,
	...extra,
});

/**
 * A campaign on fake time: `drive` moves the fake clock and the simulator's together (to the
 * simulator's next step or the node's next timer, a minute at most) until the work settles;
 * `run` is Run Campaign (or any node of the package) through n8n's engine, driven so.
 */
export function onFakeTime(time: FakeTime, sim: Simulator) {
	const drive = <T,>(
		work: Promise<T>,
		{ maxMs = 4 * DAY, onStep }: { maxMs?: number; onStep?: () => void } = {},
	) =>
		time.runUntilSettled(work, {
			onStep: () => {
				sim.clock.runDue();
				onStep?.();
			},
			nextDueAt: nextDueAfterQuiet(sim),
			stepMs: 60_000,
			maxMs,
		});
	const start = (
		parameters: INodeParameters,
		items: IDataObject[],
		extra: Partial<RunNodeOptions> = {},
	) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items,
			...extra,
		});
	return { drive, start };
}
