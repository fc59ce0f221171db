import { runNode } from '../../harness/engine.cts';
import type { Simulator } from '../../simulator/index.cts';

/** Call → Get with Download Recording into `audio`, through the engine against `sim`. */
export const getCallWithRecording = (
	sim: Simulator,
	callId: string,
	extra: Record<string, unknown> = {},
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
	});
