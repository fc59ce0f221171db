import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** One operation of one resource: its entry in the operation list, its fields and its run. */
export interface Operation {
	option: INodePropertyOptions & { value: string; action: string };
	/** The operation's own fields; the resource adds the displayOptions that select it. */
	fields: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export interface Resource {
	option: INodePropertyOptions & { value: string };
	/** The operation selector, shown for this resource; its options are the operations' own. */
	selector: INodeProperties;
	operations: Operation[];
}

/** The operation selector and every field of a resource, each shown only for its operation. */
export function resourceProperties(resource: Resource): INodeProperties[] {
	const { value } = resource.option;
	const selector: INodeProperties = {
		...resource.selector,
		displayOptions: { show: { resource: [value] } },
		options: resource.operations.map((op) => op.option),
	};
	const fields = resource.operations.flatMap((op) =>
		op.fields.map((field) => ({
			...field,
			displayOptions: {
				...field.displayOptions,
				show: { ...field.displayOptions?.show, resource: [value], operation: [op.option.value] },
			},
		})),
	);
	return [selector, ...fields];
}

/** The error as a node error that names its item, whatever threw it. */
export function itemError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** The JSON of an error item under Continue On Fail: what failed and why, never the request. */
export function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return json;
}

/** A result that carries files besides its JSON (a downloaded recording). */
export class ItemWithBinary {
	constructor(readonly item: INodeExecutionData) {}
}

export function toItems(result: IDataObject | IDataObject[] | ItemWithBinary, itemIndex: number): INodeExecutionData[] {
	if (result instanceof ItemWithBinary) return [{ ...result.item, pairedItem: { item: itemIndex } }];
	return (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/**
 * The execute of an operation that handles each input item on its own: one item failing
 * becomes an error item paired to its input under Continue On Fail, and the others go on.
 */
export function perItem(
	handler: (this: IExecuteFunctions, itemIndex: number, item: INodeExecutionData) => Promise<IDataObject | IDataObject[] | ItemWithBinary>,
): Operation['execute'] {
	return async function (this: IExecuteFunctions, items: INodeExecutionData[]) {
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				output.push(...toItems(await handler.call(this, itemIndex, items[itemIndex]), itemIndex));
			} catch (error) {
				const nodeError = itemError(this, error, itemIndex);
				if (!this.continueOnFail()) throw nodeError;
				output.push({ json: errorJson(nodeError), pairedItem: { item: itemIndex } });
			}
		}
		return output;
	};
}
