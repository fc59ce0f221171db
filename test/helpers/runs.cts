import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import type { Simulator } from '../../simulator/index.cts';

/** The credential's values that reach `sim`. */
export const credentialsOf = (sim: Simulator) => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });

/**
 * Runs the action node once against `sim`, expecting it to fail before sending anything: no
 * output and no request. Answers the error's message.
 */
export async function refusedBeforeAnyRequest(
	sim: Simulator,
	options: Omit<RunNodeOptions, 'credentials'>,
): Promise<string> {
	const before = sim.requests.length;
	const { error, items } = await runNode({ credentials: credentialsOf(sim), ...options });
	expect(items).toEqual([]);
	expect(sim.requests.slice(before)).toEqual([]);
	expect(error).toBeDefined();
	return error!.message;
}

/**
 * Runs the action node on `inputs` under Continue On Fail, expecting the run to end without error
 * and one output item per input, paired to it in order. Answers the output items.
 */
export async function runContinuingOnFail(
	sim: Simulator,
	parameters: INodeParameters,
	inputs: IDataObject[],
): Promise<INodeExecutionData[]> {
	const { items, error } = await runNode({
		credentials: credentialsOf(sim),
		parameters,
		items: inputs,
		continueOnFail: true,
	});
	expect(error).toBeUndefined();
	expect(items.map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
	return items;
}
