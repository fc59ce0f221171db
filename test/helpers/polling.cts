import type { FakeTime } from '../../harness/fakeTime.cts';
import { pollingTrigger, type PollingTrigger } from '../../harness/poll.cts';
import type { Simulator } from '../../simulator/index.cts';

/**
 * The polling trigger on finished calls against `sim`, its time bounds on the simulator's clock;
 * `time`: each poll driven on that fake time (harness/poll.cts).
 */
export const finishedCallsPoll = (sim: Simulator, time?: FakeTime): PollingTrigger =>
	pollingTrigger({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: { event: 'callFinished' },
		clock: () => sim.clock.now(),
		time,
	});
