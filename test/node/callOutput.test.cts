import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { planCalls } from '../../simulator/index.cts';
import { contactCall, phoneCall } from '../helpers/placement.cts';

/**
 * One output contract for the Place operations: `call_id` names the call in every output, whatever
 * Wait for Outcome is, so that a downstream `{{ $json.call_id }}` survives a change of the wait.
 */

const MINUTE = 60_000;
const SECOND = 1_000;

type Place = (sim: Simulator) => INodeParameters;
const PLACE_OPERATIONS: Array<[string, Place]> = [
	['Place AI Call', (sim) => phoneCall(sim)],
	['Place AI Call to Contact', (sim) => contactCall(sim)],
];

/** The placed call's ID as the simulator stored it: the one call of the run. */
function onlyCallId(sim: Simulator): string {
	const ids = [...sim.org.calls.keys()];
	expect(ids).toHaveLength(1);
	return ids[0];
}

describe.each(PLACE_OPERATIONS)(
	'%s: call_id in every output, whatever the wait',
	(_name, place) => {
		describe('holding the worker', () => {
			let time: FakeTime;
			let sim: Simulator;
			withSimulatorOnFakeTime((t, s) => {
				time = t;
				sim = s;
			});

			it.each(['none', 'ended', 'analysis'])('Wait for Outcome = %s', async (waitFor) => {
				planCalls(sim).next({ talkMs: MINUTE });
				const run = runNode({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					parameters: { ...place(sim), waitFor },
				});
				const { items, error } = await time.runUntilSettled(run);
				expect(error).toBeUndefined();
				expect(items).toHaveLength(1);
				expect(items[0].json.call_id).toBe(onlyCallId(sim));
				// the waited record keeps its own fields next to it
				if (waitFor !== 'none')
					expect(items[0].json).toMatchObject({
						id: items[0].json.call_id,
						call_status: 'completed',
					});
			});
		});

		describe('freeing the worker (resume by the call webhooks)', () => {
			let sim: Simulator;
			let execution: WaitingExecution | undefined;
			beforeEach(async () => {
				// budgets are not what these tests are about: the node's pacing would wait in real time
				sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
			});
			afterEach(async () => {
				await execution?.stop();
				await sim.stop();
			});

			it.each(['ended', 'analysis'])(
				'Wait for Outcome = %s: the waiting item and the resumed record',
				async (waitFor) => {
					planCalls(sim).next({ talkMs: MINUTE });
					execution = new WaitingExecution({
						credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
						parameters: { ...place(sim), waitFor, waitOptions: { resumeByWebhook: true } },
						items: [{}],
					});
					const run = await execution.start();
					const [waiting] = WaitingExecution.nodeItems(run);
					expect(waiting.call_id).toBe(onlyCallId(sim));
					for (let moved = 0; moved < 5 * MINUTE && !execution.resumedRun; moved += SECOND)
						await sim.clock.advance(SECOND);
					const output =
						execution.resumedRun!.data.resultData.runData['Voice Agent CRM'][0].data!.main[0]!;
					expect((output[0].json as IDataObject).call_id).toBe(waiting.call_id);
				},
			);
		});
	},
);
