import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { installFakeTime, nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { filled, samplesOf, withNewPhone, type Samples } from '../helpers/samples.cts';

/**
 * Every operation's `example` runs through the engine against the simulator and its request reaches
 * its endpoint's route: an operation whose endpoint has no route in the simulator fails here even
 * without a test of its own (docs/architecture.md, "Where to add things").
 */
describe("Every operation's example, run against the simulator", () => {
	let time: FakeTime;
	let sim: Simulator;
	let samples: Samples;
	// a simulator of its own for each, so that one example's write (Delete) leaves the next its
	// records; on fake time, since an operation may wait (Run Campaign waits between its calls)
	beforeEach(async () => {
		time = installFakeTime();
		sim = await startSimulator();
		samples = await samplesOf(sim);
	});
	afterEach(async () => {
		await sim.stop();
		time.uninstall();
	});

	const operations = RESOURCES.flatMap((resource) =>
		resource.operations.map(
			(op) => [`${resource.option.value}.${op.option.value}`, resource, op] as const,
		),
	);

	it.each(operations)('%s', async (_name, resource, op) => {
		const before = sim.requests.length;
		const parameters = withNewPhone({
			resource: resource.option.value,
			operation: op.option.value,
			...(filled(op.example, samples) as INodeParameters),
		});
		const { items, error } = await time.runUntilSettled(
			runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters }),
			{ onStep: () => sim.clock.runDue(), nextDueAt: nextDueAfterQuiet(sim), stepMs: 60_000 },
		);
		const endpoint = ENDPOINTS[op.endpoint];
		// the simulator's answer to a request no route serves
		const unserved = `Cannot ${endpoint.method}`;
		const failures = [error, ...items.map((item) => item.json.error && item.json)].filter(Boolean);
		expect(JSON.stringify(failures)).not.toContain(unserved);
		// succeeded, or refused by the API for the state of its sample (Cancel: the sample call is over)
		expect(failures.map((failure) => String((failure as { httpCode?: string }).httpCode))).toEqual(
			failures.map(() => '409'),
		);
		const pattern = new RegExp(`^${endpoint.path.replace(/\{\w+\}/g, '[^/]+')}$`);
		const sent = sim.requests
			.slice(before)
			.filter((request) => request.method === endpoint.method && pattern.test(request.path));
		expect(sent.length).toBeGreaterThan(0);
	});
});
