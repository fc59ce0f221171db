import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { itemError } from '../../shared/operation';
import { apiRequest, type ApiAnswer } from '../../transport/request';
import { eventReader } from './build';
import { derivedEventId, shouldDerive, type DeriveIds } from './eventId';
import { checkEvent, EVENT_LIMITS, type EventResult } from './rules';
import { sendFields } from './send.fields';
import { EventTally } from './tally';

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
		description:
			'Record business events (purchases, forms, visits) on contacts. Each input item is one event; items are sent 100 per request and each output item holds its event\'s result: created, pending, unresolved, duplicate, rejected or invalid.',
	},
	fields: sendFields,
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const options = this.getNodeParameter('options', 0, {}) as { deriveEventIds?: DeriveIds; output?: OutputMode };
		const mode = options.output ?? 'events';
		const tally = new EventTally(items.length, mode !== 'summary');
		const batches = packBatches(prepareRows(this, items, options.deriveEventIds ?? 'whenTimed', tally));
		await sendBatches(this, batches, tally);
		return tally.output(mode);
	},
};

/**
 * Read and check every row before anything is sent: a row the node cannot read fails here (the
 * whole run, or only that row under Continue On Fail), and a row the service would refuse is
 * answered here without spending a request.
 */
function prepareRows(context: IExecuteFunctions, items: INodeExecutionData[], deriveIds: DeriveIds, tally: EventTally): Pending[] {
	const readEvent = eventReader(context, items);
	const now = Date.now();
	const pending: Pending[] = [];
	for (let row = 0; row < items.length; row++) {
		let raw: IDataObject;
		try {
			raw = readEvent(row);
		} catch (error) {
			const nodeError = itemError(context, error, row);
			if (!context.continueOnFail()) throw nodeError;
			tally.failed(row, nodeError);
			continue;
		}
		const verdict = checkEvent(raw, now);
		if (!verdict.send) {
			tally.answered(row, verdict.result);
			continue;
		}
		const { event, anonymous } = verdict;
		if (shouldDerive(deriveIds, event)) event.event_id = derivedEventId(event, verdict.eventName, verdict.occurredAtUtc);
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

/**
 * Send the batches one after the other, the transport pacing them. Each batch's results are
 * written as it returns, and its events are let go: only the batches not yet sent are held.
 */
async function sendBatches(context: IExecuteFunctions, batches: Batch[], tally: EventTally): Promise<void> {
	for (let batch = batches.shift(); batch; batch = batches.shift()) {
		tally.requests++;
		try {
			const answer = await apiRequest.call(context, 'sendEvents', {
				body: { events: batch.rows.map((entry) => entry.event) },
				// a batch is repeated after a 5xx or a dropped connection only if no event can be stored twice
				repeatSafe: batch.rows.every((entry) => typeof entry.event.event_id === 'string'),
				anonymous: batch.anonymous,
				itemIndex: batch.rows[0].row,
			});
			recordResults(context, batch, answer, tally);
		} catch (error) {
			const nodeError = itemError(context, error, batch.rows[0].row);
			if (!context.continueOnFail()) throw withProgress(nodeError, batch, tally);
			const stopsRun = isAccountError(nodeError);
			for (const entry of stopsRun ? [batch, ...batches].flatMap((b) => b.rows) : batch.rows) tally.failed(entry.row, nodeError);
			if (stopsRun) return;
		}
	}
}

/** A refused key (401) or the add-on not enabled (403): no other batch can succeed either. */
function isAccountError(error: NodeApiError | NodeOperationError): boolean {
	return error instanceof NodeApiError && (error.httpCode === '401' || error.httpCode === '403');
}

/**
 * What a `duplicate` means when the batch was repeated after an attempt that may have taken
 * effect: the first attempt of this run may have stored the event (its answer was lost), or an
 * earlier run did. One answer cannot tell which, so the row says exactly that.
 */
export const STORED_BY_THIS_RUN_OR_EARLIER = 'this_run_or_an_earlier_run';
const REPEAT_NOTE =
	'The batch was sent again because the first attempt got no usable answer (no answer, a timeout or a server error) and may have stored it. "duplicate" here means the event is stored once: by this run\'s first attempt or by an earlier run; the service\'s answer cannot tell which.';

/** Each result back on its row, by its index in the batch. */
function recordResults(context: IExecuteFunctions, batch: Batch, answer: ApiAnswer, tally: EventTally): void {
	const results = ((answer.payload as IDataObject | undefined)?.results ?? []) as IDataObject[];
	const byIndex = new Map<number, IDataObject>();
	for (const [position, result] of (Array.isArray(results) ? results : []).entries()) {
		byIndex.set(typeof result?.index === 'number' ? result.index : position, result);
	}
	for (const [position, entry] of batch.rows.entries()) {
		const result = byIndex.get(position);
		if (result && typeof result.status === 'string') {
			delete result.index;
			if (answer.repeatedAfterUncertainAttempt && result.status === 'duplicate') {
				result.stored_by = STORED_BY_THIS_RUN_OR_EARLIER;
				result.note = REPEAT_NOTE;
			}
			tally.answered(entry.row, result as EventResult);
		} else {
			tally.failed(
				entry.row,
				new NodeOperationError(
					context.getNode(),
					`The service answered the batch without a result for this event (item ${entry.row}); it may or may not have been stored`,
					{ itemIndex: entry.row, description: 'Run it again with an Event ID to be sure it is stored exactly once.' },
				),
			);
		}
	}
}

/** The error that stops the run, saying what earlier requests stored and what was not sent. */
function withProgress(error: NodeApiError | NodeOperationError, batch: Batch, tally: EventTally): NodeApiError | NodeOperationError {
	const first = batch.rows[0].row;
	const last = batch.rows[batch.rows.length - 1].row;
	const progress = `The failed request held items ${first} to ${last}. Earlier requests of this run stored ${tally.stored()} events; later items were not sent. Events with an Event ID are never stored twice when the workflow runs again.`;
	error.description = error.description ? `${error.description} ${progress}` : progress;
	return error;
}
