import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { startFileHost, type FileHost } from '../../harness/fileHost.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/**
 * Call → Get with Download Recording into `audio`, through the engine against `sim`; `extra`
 * adds parameters, `run` options of the run (Continue On Fail).
 */
export const getCallWithRecording = (
	sim: Simulator,
	callId: string,
	extra: Record<string, unknown> = {},
	run: Partial<RunNodeOptions> = {},
) =>
	runNode({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: {
			resource: 'call',
			operation: 'get',
			callId,
			downloadRecording: true,
			recordingBinaryProperty: 'audio',
			...extra,
		},
		...run,
	});

/**
 * Registers, for the enclosing describe, a simulator and a file host (a server of recordings, or
 * of any answer a test writes) started before each test and stopped after it; `use` receives them.
 */
export function withSimulatorAndFileHost(use: (sim: Simulator, host: FileHost) => void): void {
	let sim: Simulator;
	let host: FileHost;
	beforeEach(async () => {
		sim = await startSimulator();
		host = await startFileHost();
		use(sim, host);
	});
	afterEach(async () => {
		await host.stop();
		await sim.stop();
	});
}
