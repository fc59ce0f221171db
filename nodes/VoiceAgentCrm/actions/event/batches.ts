import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { continueOrThrow } from '../../shared/operation';
import { apiRequest, type ApiAnswer } from '../../transport/request';
import { EVENT_LIMITS, type EventResult } from './rules';
import { isValidateOnly, validResult } from './validateOnly';

/** One event ready to send, and the row (input item, or row of a file) it came from. */
export interface Pending {
	row: number;
	event: IDataObject;
	anonymous: boolean;
}

export interface Batch {
	rows: Pending[];
	anonymous: boolean;
}

/** Where the answers of the rows go: the item path's output items, or a file's summary. */
export interface RowSink {
	/** Requests sent, repeats and waited-out 429s included. */
	requests: number;
	answered(row: number, result: EventResult): void;
	failed(row: number, error: NodeApiError | NodeOperationError): void;
	/** The budgets' sizes an answer's rate headers announced, for a summary that states them. */
	announced?(limits: ApiAnswer['announced']): void;
}

export interface BatchSenderOptions {
	/** The input item a row belongs to, for its errors. */
	itemIndexOf(row: number): number;
	/** What the run did before `batch` failed, for the error that stops it. */
	progressOf(batch: Batch): string;
	/** What to call a row in messages: "item" on the item path, "row" for a file. */
	rowWord: 'item' | 'row';
	/**
	 * A run that writes its own note of a Stop (a file's): the error that ends it when the execution
	 * was stopped while a batch was on its way (n8n aborts the request); the transport writes no note.
	 */
	stopped?: () => NodeOperationError;
}

/** The batch in the transport's hands; `mayBeStored` once an attempt went out that was not refused. */
interface InHand {
	batch: Batch;
	mayBeStored: boolean;
}

/** The rows a Stop leaves in the balance: sent with no answer yet (or a lost one), or not sent. */
export interface RowsInBalance {
	/** The first of them, if any. */
	firstRow?: number;
	mayBeStored: number;
	notSent: number;
}

/**
 * Up to 100 events per request, in order, each batch sent when it is full and its results
 * written as it returns; its events are let go then. Anonymous events go in batches of their own:
 * a request that carries even one of them draws on the smaller anonymous budget as well, so mixing
 * them in would let that budget slow down every batch.
 */
export class BatchSender {
	private readonly open: Partial<Record<'anonymous' | 'identified', Batch>> = {};
	/** A refused key or a disabled add-on: no later batch can succeed, so none is sent. */
	private stoppedBy?: NodeApiError | NodeOperationError;
	private current?: InHand;
	private readonly validateOnly: boolean;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly sink: RowSink,
		private readonly options: BatchSenderOptions,
	) {
		this.validateOnly = isValidateOnly(context);
	}

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
		for (const batch of rest) {
			delete this.open[batch.anonymous ? 'anonymous' : 'identified'];
			await this.send(batch);
		}
	}

	/** The rows whose outcome is not known now: what a Stop at this moment leaves in the balance. */
	inBalance(): RowsInBalance {
		const { current } = this;
		const held = [...Object.values(this.open), ...(current ? [current.batch] : [])];
		const notSent = held.filter((batch) => batch !== current?.batch || !current.mayBeStored);
		const firstRows = held.map((batch) => batch.rows[0].row);
		return {
			...(firstRows.length ? { firstRow: Math.min(...firstRows) } : {}),
			mayBeStored: current?.mayBeStored ? current.batch.rows.length : 0,
			notSent: notSent.reduce((sum, batch) => sum + batch.rows.length, 0),
		};
	}

	private async send(batch: Batch): Promise<void> {
		const { context, sink } = this;
		if (this.validateOnly) {
			for (const entry of batch.rows) sink.answered(entry.row, validResult(entry.event));
			return;
		}
		if (this.stoppedBy) {
			for (const entry of batch.rows) sink.failed(entry.row, this.stoppedBy);
			return;
		}
		const itemIndex = this.options.itemIndexOf(batch.rows[0].row);
		const current: InHand = { batch, mayBeStored: false };
		this.current = current;
		try {
			const answer = await apiRequest.call(context, 'sendEvents', {
				body: { events: batch.rows.map((entry) => entry.event) },
				// a batch is repeated after a 5xx or a dropped connection only if no event can be stored twice
				repeatSafe: batch.rows.every((entry) => typeof entry.event.event_id === 'string'),
				anonymous: batch.anonymous,
				asBytes: true,
				itemIndex,
				onAttempt: () => {
					current.mayBeStored = true;
					sink.requests++;
				},
				onRefused: (earlierMayHave) => (current.mayBeStored = earlierMayHave),
				callerNotesStop: this.options.stopped !== undefined,
			});
			sink.announced?.(answer.announced);
			this.record(batch, answer);
		} catch (error) {
			if (this.options.stopped && context.getExecutionCancelSignal?.()?.aborted)
				throw this.options.stopped();
			const nodeError = continueOrThrow(context, error, itemIndex, () =>
				this.options.progressOf(batch),
			);
			for (const entry of batch.rows) sink.failed(entry.row, nodeError);
			if (isAccountError(nodeError)) this.stoppedBy = nodeError;
		} finally {
			this.current = undefined;
		}
	}

	/** Each result back on its row, by its index in the batch. */
	private record(batch: Batch, answer: ApiAnswer): void {
		const { sink } = this;
		const results = ((answer.payload as IDataObject | undefined)?.results ?? []) as IDataObject[];
		const byIndex = new Map<number, IDataObject>();
		for (const [position, result] of (Array.isArray(results) ? results : []).entries()) {
			byIndex.set(typeof result?.index === 'number' ? result.index : position, result);
		}
		for (const [position, entry] of batch.rows.entries()) {
			const answered = byIndex.get(position);
			if (answered && typeof answered.status === 'string') {
				const result = withoutIndex(answered);
				if (answer.repeatedAfterUncertainAttempt && result.status === 'duplicate') {
					result.stored_by = STORED_BY_THIS_RUN_OR_EARLIER;
					result.note = REPEAT_NOTE;
				}
				sink.answered(entry.row, result as EventResult);
			} else {
				const row = `${this.options.rowWord} ${entry.row}`;
				sink.failed(
					entry.row,
					new NodeOperationError(
						this.context.getNode(),
						`The service answered the batch without a result for this event (${row}); it may or may not have been stored`,
						{
							itemIndex: this.options.itemIndexOf(entry.row),
							description: 'Run it again with an Event ID to be sure it is stored exactly once.',
						},
					),
				);
			}
		}
	}
}

/**
 * The service's result without its `index` (the row says where it belongs), copied rather than
 * deleted from: `delete` turns each of a batch's 100 parsed results into a slow dictionary object,
 * a few hundred bytes each that the heap keeps until its next full collection (docs/performance.md).
 */
function withoutIndex(answered: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const key of Object.keys(answered)) if (key !== 'index') result[key] = answered[key];
	return result;
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
