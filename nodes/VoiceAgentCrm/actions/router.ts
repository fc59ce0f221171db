import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RESOURCES } from './resources';

/** Run the chosen operation over all input items; each operation handles its items' errors. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = RESOURCES.find((r) => r.option.value === resource)?.operations.find(
		(op) => op.option.value === operation,
	);
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	return [await chosen.execute.call(this, items)];
}
