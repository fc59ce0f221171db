import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointName } from '../transport/endpoints';
import { writesOf } from '../transport/request';
import { fieldsOfBothForms } from './toolMode';

/**
 * What an operation does with the API. The forms and the tests read it from the operation, so a
 * new operation is no entry in a list of theirs.
 * - `list`: reads the resource's own collection (value `getAll`, shown Get Many).
 * - `read`: any other read: one record, or a list that belongs to a record or a catalog.
 * - `write`: creates, changes or deletes a record, places or ends a call.
 * - `send`: hands something to people or systems outside: a WhatsApp message, events.
 */
export type OperationKind = 'list' | 'read' | 'write' | 'send';

/** A record an example needs; the tests fill in one of that kind from the organization they run against. */
export type Sample =
	| 'agent'
	| 'call'
	| 'channel'
	| 'contact'
	| 'memberEmail'
	| 'message'
	| 'newPhoneNumber'
	| 'phoneNumber'
	| 'phoneNumberId'
	| 'tag'
	| 'task'
	| 'template'
	| 'thread'
	| 'voice';

/** A sample record's ID (or value) in an example, as the tests fill it in. */
export const sample = (kind: Sample): string => `{sample:${kind}}`;

/** A sample record given to a resource locator by its ID. */
export const sampleById = (kind: Sample) => ({ __rl: true, mode: 'id', value: sample(kind) });

/** One operation of one resource: its entry in the operation list, its fields and its run. */
export interface Operation {
	option: INodePropertyOptions & { value: string; action: string };
	kind: OperationKind;
	/** The endpoint the operation sends its request to: the README table and the bad-input coverage are derived from it. */
	endpoint: EndpointName;
	/** The operation's own fields; the resource adds the displayOptions that select it. */
	fields: INodeProperties[];
	/**
	 * Parameters the operation runs with successfully (resource and operation aside): the base on
	 * which the bad-input test puts one bad value at a time. Records are `sample(kind)`.
	 */
	example: INodeParameters;
	/**
	 * In the tool form, the fields the model fills beyond the rule of `toolMode.ts` (required text,
	 * the record acted on): a field's name, or `collection.option` for an option of a collection.
	 * The ones not required are optional arguments: the model gives them when the conversation does.
	 */
	modelFills?: readonly string[];
	/**
	 * What an AI Agent is told the tool does, where the option's sentence cannot say it (n8n's lint
	 * fixes an upsert's sentence to its generic wording; a campaign says it is no tool).
	 */
	toolDescription?: string;
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

/** A resource's entry in the resource list and its default operation: `resource` of its `index.ts`. */
export interface ResourceEntry {
	option: INodePropertyOptions & { value: string };
	/**
	 * The operation the selector shows first, by one rule: the operation that creates something and
	 * can run first (Create, Place AI Call, Send, Send Template); a resource that creates nothing
	 * defaults to Get Many, or Get where it has no list.
	 */
	defaultOperation: string;
}

export interface Resource extends ResourceEntry {
	/** In the order of their names, case aside, as n8n's lists are. */
	operations: Operation[];
}

/** What a resource's `index.ts` exports: its entry, and each of its operations on one line. */
export type ResourceModule = { resource: ResourceEntry } & Record<
	string,
	ResourceEntry | Operation
>;

/** The resource of a folder's `index.ts`: every export but `resource` is one of its operations. */
export function resourceOf({ resource, ...operations }: ResourceModule): Resource {
	return {
		...resource,
		operations: (Object.values(operations) as Operation[]).sort((a, b) =>
			a.option.name.toLowerCase() < b.option.name.toLowerCase() ? -1 : 1,
		),
	};
}

/** The operation selector and every field of a resource, each shown only for its operation. */
export function resourceProperties(resource: Resource): INodeProperties[] {
	const { value } = resource.option;
	const { defaultOperation } = resource;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options: resource.operations.map((op) => op.option),
		default: defaultOperation,
	};
	const fields = resource.operations.flatMap((op) =>
		fieldsOfBothForms(op).map((field) => ({
			...field,
			displayOptions: {
				...field.displayOptions,
				show: { ...field.displayOptions?.show, resource: [value], operation: [op.option.value] },
			},
		})),
	);
	return [selector, ...fields];
}

/**
 * The canvas subtitle, in the words of the editor ("Call: Place AI Call"): an expression that looks
 * the chosen resource and operation up in a table of their display names.
 */
export function operationSubtitle(resources: Resource[]): string {
	const names = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((op) => [
				`${resource.option.value}.${op.option.value}`,
				`${resource.option.name}: ${op.option.name}`,
			]),
		),
	);
	return `={{ (${JSON.stringify(names)})[$parameter["resource"] + "." + $parameter["operation"]] }}`;
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

export function toItems(
	result: IDataObject | IDataObject[] | ItemWithBinary,
	itemIndex: number,
): INodeExecutionData[] {
	if (result instanceof ItemWithBinary)
		return [{ ...result.item, pairedItem: { item: itemIndex } }];
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

/**
 * The one Continue On Fail collector: the output of a run, one slot per input item, filled as
 * items fail or succeed. A failure stops the run unless Continue On Fail is on, in which case it
 * becomes the item's error item. A run that stops part-way says in its error which writes already
 * went through (item → record ID) and which items were not sent, so that re-running the workflow
 * does not repeat them unknowingly.
 */
export class ItemResults {
	private readonly slots: Array<INodeExecutionData[] | undefined>;

	constructor(
		private readonly context: IExecuteFunctions,
		count: number,
	) {
		this.slots = new Array(count);
	}

	/** Whether the item already has its output (it failed or finished). */
	has(itemIndex: number): boolean {
		return this.slots[itemIndex] !== undefined;
	}

	fail(itemIndex: number, error: unknown, details: IDataObject = {}): void {
		const nodeError = continueOrThrow(this.context, error, itemIndex, () =>
			this.progress(itemIndex),
		);
		this.slots[itemIndex] = [
			{ json: { ...errorJson(nodeError), ...details }, pairedItem: { item: itemIndex } },
		];
	}

	succeed(itemIndex: number, result: IDataObject | IDataObject[] | ItemWithBinary): void {
		this.slots[itemIndex] = toItems(result, itemIndex);
	}

	items(): INodeExecutionData[] {
		return this.slots.flatMap((slot) => slot ?? []);
	}

	/** The output so far by input item, for operations that answer one item per input (and fill in the rest later). */
	byItem(): Array<INodeExecutionData | undefined> {
		return Array.from(this.slots, (slot) => slot?.[0]);
	}

	/** What the run did before it stopped at `failedIndex`; empty for a run that writes nothing. */
	private progress(failedIndex: number): string {
		const { written, attempted } = writesOf(this.context);
		if (!attempted.size) return '';
		const done = [...written.entries()]
			.sort(([a], [b]) => a - b)
			.map(([itemIndex, records]) => `item ${itemIndex} → ${records.join(', ')}`);
		const notSent = Array.from(this.slots, (_, itemIndex) => itemIndex).filter(
			(itemIndex) => itemIndex !== failedIndex && !attempted.has(itemIndex) && !this.has(itemIndex),
		);
		return [
			done.length
				? `Already done by this run: ${done.join('; ')}.`
				: 'Nothing else of this run went through.',
			notSent.length ? `Not sent: item${notSent.length > 1 ? 's' : ''} ${notSent.join(', ')}.` : '',
		]
			.filter(Boolean)
			.join(' ');
	}
}

/**
 * The one Continue On Fail rule of every operation: the failure as a node error naming its item.
 * With Continue On Fail off it is thrown, its description extended by what this run already did
 * (`progress`); with it on it is returned, for the item's error output.
 */
export function continueOrThrow(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	progress: () => string = () => '',
): NodeApiError | NodeOperationError {
	const nodeError = itemError(context, error, itemIndex);
	if (context.continueOnFail()) return nodeError;
	const done = progress();
	if (done) nodeError.description = [nodeError.description, done].filter(Boolean).join(' ');
	throw nodeError;
}

/**
 * The execute of an operation that handles each input item on its own: one item failing
 * becomes an error item paired to its input under Continue On Fail, and the others go on.
 */
export function perItem(
	handler: (
		this: IExecuteFunctions,
		itemIndex: number,
		item: INodeExecutionData,
	) => Promise<IDataObject | IDataObject[] | ItemWithBinary>,
): Operation['execute'] {
	return async function (this: IExecuteFunctions, items: INodeExecutionData[]) {
		const results = new ItemResults(this, items.length);
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				results.succeed(itemIndex, await handler.call(this, itemIndex, items[itemIndex]));
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
		return results.items();
	};
}
