import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { errorJson, itemError } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import { eventOfItem } from './build';
import { derivedEventId, shouldDerive, type DeriveIds } from './eventId';
import { checkEvent, EVENT_LIMITS, type EventResult } from './rules';
import { sendFields } from './send.fields';

/** Where each row stands: answered (by the node or the service), failed, or waiting to be sent. */
type Outcome = { result: EventResult } | { error: NodeApiError | NodeOperationError };

interface Pending {
	row: number;
	event: IDataObject;
	anonymous: boolean;
}

interface Batch {
	rows: Pending[];
	anonymous: boolean;
}

type OutputMode = 'events' | 'eventsAndSummary' | 'summary';

export const send: Operation = {
	option: {
		name: 'Send',
		value: 'send',
		action: 'Send events',
		description: 'Record business events (purchases, forms, visits) on contacts, one event per input item',
	},
	endpoint: 'sendEvents',
	fields: sendFields,
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const options = this.getNodeParameter('options', 0, {}) as { deriveEventIds?: DeriveIds; output?: OutputMode };
		const outcomes: Array<Outcome | undefined> = new Array(items.length);
		const pending = prepareRows(this, items.length, options.deriveEventIds ?? 'whenTimed', outcomes);
		const requests = await sendBatches(this, packBatches(pending), outcomes);
		return outputItems(outcomes as Outcome[], options.output ?? 'events', requests);
	},
};

/**
 * Read and check every row before anything is sent: a row the node cannot read fails here (the
 * whole run, or only that row under Continue On Fail), and a row the service would refuse is
 * answered here without spending a request.
 */
function prepareRows(
	context: IExecuteFunctions,
	count: number,
	deriveIds: DeriveIds,
	outcomes: Array<Outcome | undefined>,
): Pending[] {
	const now = Date.now();
	const pending: Pending[] = [];
	for (let row = 0; row < count; row++) {
		let raw: IDataObject;
		try {
			raw = eventOfItem(context, row);
		} catch (error) {
			const nodeError = itemError(context, error, row);
			if (!context.continueOnFail()) throw nodeError;
			outcomes[row] = { error: nodeError };
			continue;
		}
		const verdict = checkEvent(raw, now);
		if (!verdict.send) {
			outcomes[row] = { result: verdict.result };
			continue;
		}
		const { event, anonymous } = verdict;
		if (shouldDerive(deriveIds, event)) event.event_id = derivedEventId(event, verdict.eventName);
		pending.push({ row, event, anonymous });
	}
	return pending;
}

/**
 * Up to 100 events per request, in input order. Anonymous events go in batches of their own: a
 * request that carries even one of them draws on the smaller anonymous budget as well, so mixing
 * them in would let that budget slow down every batch.
 */
export function packBatches(pending: Pending[]): Batch[] {
	const batches: Batch[] = [];
	const open: Partial<Record<'anonymous' | 'identified', Batch>> = {};
	for (const entry of pending) {
		const kind = entry.anonymous ? 'anonymous' : 'identified';
		let batch = open[kind];
		if (!batch || batch.rows.length === EVENT_LIMITS.eventsPerRequest) {
			batch = { rows: [], anonymous: entry.anonymous };
			open[kind] = batch;
			batches.push(batch);
		}
		batch.rows.push(entry);
	}
	return batches;
}

/** Send the batches one after the other, the transport pacing them; returns the requests made. */
async function sendBatches(context: IExecuteFunctions, batches: Batch[], outcomes: Array<Outcome | undefined>): Promise<number> {
	let requests = 0;
	for (const [position, batch] of batches.entries()) {
		requests++;
		try {
			const answer = await apiRequest.call(context, 'sendEvents', {
				body: { events: batch.rows.map((entry) => entry.event) },
				// a batch is repeated after a 5xx or a dropped connection only if no event can be stored twice
				repeatSafe: batch.rows.every((entry) => typeof entry.event.event_id === 'string'),
				anonymous: batch.anonymous,
				itemIndex: batch.rows[0].row,
			});
			recordResults(context, batch, answer.payload, outcomes);
		} catch (error) {
			const nodeError = itemError(context, error, batch.rows[0].row);
			const stopsRun = isAccountError(nodeError);
			const failed = stopsRun ? batches.slice(position).flatMap((b) => b.rows) : batch.rows;
			if (!context.continueOnFail()) throw withProgress(nodeError, batch, outcomes);
			for (const entry of failed) outcomes[entry.row] = { error: nodeError };
			if (stopsRun) break;
		}
	}
	return requests;
}

/** A refused key (401) or the add-on not enabled (403): no other batch can succeed either. */
function isAccountError(error: NodeApiError | NodeOperationError): boolean {
	return error instanceof NodeApiError && (error.httpCode === '401' || error.httpCode === '403');
}

/** Each result back on its row, by its index in the batch. */
function recordResults(context: IExecuteFunctions, batch: Batch, payload: unknown, outcomes: Array<Outcome | undefined>): void {
	const results = ((payload as IDataObject | undefined)?.results ?? []) as IDataObject[];
	const byIndex = new Map<number, IDataObject>();
	for (const [position, result] of (Array.isArray(results) ? results : []).entries()) {
		byIndex.set(typeof result?.index === 'number' ? result.index : position, result);
	}
	for (const [position, entry] of batch.rows.entries()) {
		const result = byIndex.get(position);
		if (result && typeof result.status === 'string') {
			const { index: _index, ...answer } = result;
			outcomes[entry.row] = { result: answer as EventResult };
		} else {
			outcomes[entry.row] = {
				error: new NodeOperationError(
					context.getNode(),
					`The service answered the batch without a result for this event (item ${entry.row}); it may or may not have been stored`,
					{ itemIndex: entry.row, description: 'Run it again with an Event ID to be sure it is stored exactly once.' },
				),
			};
		}
	}
}

const STORED = ['created', 'pending', 'unresolved'];

/** The error that stops the run, saying what earlier requests stored and what was not sent. */
function withProgress(
	error: NodeApiError | NodeOperationError,
	batch: Batch,
	outcomes: Array<Outcome | undefined>,
): NodeApiError | NodeOperationError {
	const stored = outcomes.filter((outcome) => outcome && 'result' in outcome && STORED.includes(outcome.result.status)).length;
	const first = batch.rows[0].row;
	const last = batch.rows[batch.rows.length - 1].row;
	const progress = `The failed request held items ${first} to ${last}. Earlier requests of this run stored ${stored} events; later items were not sent. Events with an Event ID are never stored twice when the workflow runs again.`;
	error.description = error.description ? `${error.description} ${progress}` : progress;
	return error;
}

const STATUSES = ['created', 'pending', 'unresolved', 'duplicate', 'rejected', 'invalid'] as const;

function summaryOf(outcomes: Outcome[], requests: number): IDataObject {
	const summary: IDataObject = { received: outcomes.length };
	for (const status of STATUSES) summary[status] = 0;
	let failed = 0;
	let contactsCreated = 0;
	for (const outcome of outcomes) {
		if ('error' in outcome) {
			failed++;
			continue;
		}
		summary[outcome.result.status] = ((summary[outcome.result.status] as number) ?? 0) + 1;
		if ((outcome.result.contact as IDataObject | undefined)?.created === true) contactsCreated++;
	}
	return { ...summary, failed, contacts_created: contactsCreated, requests };
}

function outputItems(outcomes: Outcome[], mode: OutputMode, requests: number): INodeExecutionData[] {
	const summary = (): INodeExecutionData => ({
		json: { summary: summaryOf(outcomes, requests) },
		pairedItem: outcomes.map((_, item) => ({ item })),
	});
	if (mode === 'summary') return [summary()];
	const rows = outcomes.map((outcome, item) => ({
		json: 'error' in outcome ? errorJson(outcome.error) : outcome.result,
		pairedItem: { item },
	}));
	return mode === 'eventsAndSummary' ? [...rows, summary()] : rows;
}
