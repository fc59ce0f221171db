import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';

/**
 * One event of the polling trigger: its entry in the Event list, its fields, and how it polls.
 * A new event is one file that exports a `PollEvent` and one line in `./index.ts`.
 */
export interface PollEvent<
	Settings = unknown,
	Cursor extends { scope: string } = { scope: string },
> {
	option: INodePropertyOptions & { name: string; value: string; description: string };
	/** The event's own fields; the registry shows them only when the event is chosen. */
	fields: INodeProperties[];
	/** Where its cursor is kept in the node's static data. */
	stateKey: string;
	settings(context: IPollFunctions): Settings;
	/** What the cursor follows (the filters that change which records are read); another scope takes a new baseline. */
	scope(settings: Settings): string;
	/** Activation: where the records stand; emits nothing. */
	baseline(context: IPollFunctions, settings: Settings, now: number): Promise<Cursor>;
	/** One poll: what happened since the last one; moves the cursor it is given. */
	poll(
		context: IPollFunctions,
		cursor: Cursor,
		settings: Settings,
		now: number,
	): Promise<INodeExecutionData[]>;
	/** Manual mode ("Fetch Test Event"): the newest matching record, at once. */
	sample(context: IPollFunctions, settings: Settings): Promise<INodeExecutionData | undefined>;
}

/** Records as items. */
export function jsonItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((json) => ({ json }));
}
