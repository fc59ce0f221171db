import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { continueOrThrow } from '../../shared/operation';
import { apiRequest, type ApiAnswer } from '../../transport/request';
import { eventReader, type EventReader } from './build';
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

export const sendEvents: Operation = {
	option: {
		name: 'Send',
		value: 'send',
		action: 'Send events',
		description:
			'Record business events (purchases, forms, visits) on contacts, one event per input item',
	},
	kind: 'send',
	endpoint: 'sendEvents',
	example: {
		eventInput: 'fields',
		eventName: 'Trial Started',
		contactEmail: 'ana@example.com',
		paramsInput: 'json',
		additionalFields: {},
		options: {},
	},
	fields: sendFields,
	async execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		const options = this.getNodeParameter('options', 0, {}) as {
			deriveEventIds?: DeriveIds;
			output?: OutputMode;
		};
		const mode = options.output ?? 'events';
		const tally = new EventTally(items.length, mode !== 'summary');
		const reader = eventReader(this, items);
		const prepare = rowPreparer(this, reader.read, options.deriveEventIds ?? 'whenTimed', tally);
		const sender = new BatchSender(this, tally);
		if (reader.mayFail) {
			// a row the node cannot read stops the run before anything is sent
			const pending = items.map((_, row) => prepare(row));
			for (const [position, entry] of pending.entries()) {
				if (entry) await sender.add(entry);
				pending[position] = undefined;
			}
		} else {
			// rows that cannot fail to be read are read as they are sent: only the batches being filled are held
			for (let row = 0; row < items.length; row++) {
				const entry = prepare(row);
				if (entry) await sender.add(entry);
			}
		}
		await sender.flush();
		return tally.output(mode);
	},
};

/**
 * Read and check one row: a row the node cannot read fails here (the whole run, or only that row
 * under Continue On Fail), and a row the service would refuse is answered here without spending a
 * request. What remains is the event to send.
 */
function rowPreparer(
	context: IExecuteFunctions,
	read: EventReader['read'],
	deriveIds: DeriveIds,
	tally: EventTally,
) {
	const now = Date.now();
	return (row: number): Pending | undefined => {
		let raw: IDataObject;
		try {
			raw = read(row);
		} catch (error) {
			tally.failed(row, continueOrThrow(context, error, row));
			return undefined;
		}
		const verdict = checkEvent(raw, now);
		if (!verdict.send) {
			tally.answered(row, verdict.result);
			return undefined;
		}
		const { event, anonymous } = verdict;
		if (shouldDerive(deriveIds, event))
			event.event_id = derivedEventId(event, verdict.eventName, verdict.occurredAtUtc);
		return { row, event, anonymous };
	};
}

/**
 * Up to 100 events per request, in input order, each batch sent when it is full and its results
 * written as it returns; its events are let go then. Anonymous events go in batches of their own:
 * a request that carries even one of them draws on the smaller anonymous budget as well, so mixing
 * them in would let that budget slow down every batch.
 */
class BatchSender {
	private readonly open: Partial<Record<'anonymous' | 'identified', Batch>> = {};
	/** A refused key or a disabled add-on: no later batch can succeed, so none is sent. */
	private stoppedBy?: NodeApiError | NodeOperationError;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly tally: EventTally,
	) {}

	async add(entry: Pending): Promise<void> {
		const kind = entry.anonymous ? 'anonymous' : 'identified';
		const batch = (this.open[kind] ??= { rows: [], anonymous: entry.anonymous });
		batch.rows.push(entry);
		if (batch.rows.length < EVENT_LIMITS.eventsPerRequest) return;
		delete this.open[kind];
		await this.send(batch);
	}

	/** The batches not full at the end, the one holding the earliest row first. */
	async flush(): Promise<void> {
		const rest = Object.values(this.open).sort((a, b) => a.rows[0].row - b.rows[0].row);
		for (const batch of rest) await this.send(batch);
	}

	private async send(batch: Batch): Promise<void> {
		const { context, tally } = this;
		if (this.stoppedBy) {
			for (const entry of batch.rows) tally.failed(entry.row, this.stoppedBy);
			return;
		}
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
			const nodeError = continueOrThrow(context, error, batch.rows[0].row, () =>
				progressOf(batch, tally),
			);
			for (const entry of batch.rows) tally.failed(entry.row, nodeError);
			if (isAccountError(nodeError)) this.stoppedBy = nodeError;
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
function recordResults(
	context: IExecuteFunctions,
	batch: Batch,
	answer: ApiAnswer,
	tally: EventTally,
): void {
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
					{
						itemIndex: entry.row,
						description: 'Run it again with an Event ID to be sure it is stored exactly once.',
					},
				),
			);
		}
	}
}

/** The error that stops the run, saying what earlier requests stored and what was not sent. */
function progressOf(batch: Batch, tally: EventTally): string {
	const first = batch.rows[0].row;
	const last = batch.rows[batch.rows.length - 1].row;
	return `The failed request held items ${first} to ${last}. Earlier requests of this run stored ${tally.stored()} events; later items were not sent. Events with an Event ID are never stored twice when the workflow runs again.`;
}
