import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemError } from '../../shared/operation';
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

/** A row's answer from the service (or the node's, under Validate Only), or why it has none. */
export type RowOutcome =
	| { row: number; result: EventResult }
	| { row: number; error: NodeApiError | NodeOperationError };

/**
 * What sending one batch came to, for the run to fold into its output items or its file's
 * summary. `failure` is set when the request itself failed: the caller stops the run on it, or
 * under Continue On Fail keeps the rows, each failed with it.
 */
export interface BatchOutcome {
	batch: Batch;
	/** Requests sent for it, repeats and waited-out 429s included. */
	requests: number;
	/** The budgets' sizes the answer's rate headers announced, for a summary that states them. */
	announced?: ApiAnswer['announced'];
	rows: RowOutcome[];
	failure?: NodeApiError | NodeOperationError;
}

/** Where the answers of the rows go: the item path's output items, or a file's summary. */
export interface RowRecord {
	answered(row: number, result: EventResult): void;
	failed(row: number, error: NodeApiError | NodeOperationError): void;
}

/** Each row of a batch's outcome written down where the run keeps its answers. */
export function recordRows(record: RowRecord, outcome: BatchOutcome): void {
	for (const entry of outcome.rows) {
		if ('result' in entry) record.answered(entry.row, entry.result);
		else record.failed(entry.row, entry.error);
	}
}

export interface BatchSenderOptions {
	/** What to call a row in messages: "item" on the item path, "row" for a file. */
	rowWord: 'item' | 'row';
	/** The input item every row belongs to (a file's); without it, each row is the input item of its own index. */
	itemIndex?: number;
	/** A run that writes its own note of a Stop (a file's, with its row to start from): the transport writes none. */
	callerNotesStop?: boolean;
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
 * Up to 100 events per request, in order, each batch sent when it is full and its outcome
 * returned as it comes back; its events are let go then. Anonymous events go in batches of their
 * own: a request that carries even one of them draws on the smaller anonymous budget as well, so
 * mixing them in would let that budget slow down every batch.
 */
export class BatchSender {
	private readonly open: Partial<Record<'anonymous' | 'identified', Batch>> = {};
	/** A refused key or a disabled add-on: no later batch can succeed, so none is sent. */
	private stoppedBy?: NodeApiError | NodeOperationError;
	private current?: InHand;
	private readonly validateOnly: boolean;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly options: BatchSenderOptions,
	) {
		this.validateOnly = isValidateOnly(context);
	}

	/** Holds the row; when that fills its batch, sends it and returns what came of it. */
	async add(entry: Pending): Promise<BatchOutcome | undefined> {
		const kind = entry.anonymous ? 'anonymous' : 'identified';
		const batch = (this.open[kind] ??= { rows: [], anonymous: entry.anonymous });
		batch.rows.push(entry);
		if (batch.rows.length < EVENT_LIMITS.eventsPerRequest) return undefined;
		delete this.open[kind];
		return await this.send(batch);
	}

	/**
	 * The batches not full at the end, the one holding the earliest row first, each sent only when
	 * the caller has taken the outcome of the one before (which may stop the run).
	 */
	async *flush(): AsyncGenerator<BatchOutcome> {
		const rest = Object.values(this.open).sort((a, b) => a.rows[0].row - b.rows[0].row);
		for (const batch of rest) {
			delete this.open[batch.anonymous ? 'anonymous' : 'identified'];
			yield await this.send(batch);
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

	private itemIndexOf(row: number): number {
		return this.options.itemIndex ?? row;
	}

	private async send(batch: Batch): Promise<BatchOutcome> {
		const { context } = this;
		if (this.validateOnly) {
			const rows = batch.rows.map((entry) => ({
				row: entry.row,
				result: validResult(entry.event),
			}));
			return { batch, requests: 0, rows };
		}
		const failedWith = (error: NodeApiError | NodeOperationError) =>
			batch.rows.map((entry) => ({ row: entry.row, error }));
		if (this.stoppedBy) return { batch, requests: 0, rows: failedWith(this.stoppedBy) };
		const itemIndex = this.itemIndexOf(batch.rows[0].row);
		let requests = 0;
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
					requests++;
				},
				onRefused: (earlierMayHave) => (current.mayBeStored = earlierMayHave),
				callerNotesStop: this.options.callerNotesStop === true,
			});
			return { batch, requests, announced: answer.announced, rows: this.rowsOf(batch, answer) };
		} catch (error) {
			const failure = itemError(context, error, itemIndex);
			if (isAccountError(failure)) this.stoppedBy = failure;
			return { batch, requests, rows: failedWith(failure), failure };
		} finally {
			this.current = undefined;
		}
	}

	/** Each result back on its row, by its index in the batch. */
	private rowsOf(batch: Batch, answer: ApiAnswer): RowOutcome[] {
		const results = ((answer.payload as IDataObject | undefined)?.results ?? []) as IDataObject[];
		const byIndex = new Map<number, IDataObject>();
		for (const [position, result] of (Array.isArray(results) ? results : []).entries()) {
			byIndex.set(typeof result?.index === 'number' ? result.index : position, result);
		}
		return batch.rows.map((entry, position) => {
			const answered = byIndex.get(position);
			if (answered && typeof answered.status === 'string') {
				const result = withoutIndex(answered);
				if (answer.repeatedAfterUncertainAttempt && result.status === 'duplicate') {
					result.stored_by = STORED_BY_THIS_RUN_OR_EARLIER;
					result.note = REPEAT_NOTE;
				}
				return { row: entry.row, result: result as EventResult };
			}
			const row = `${this.options.rowWord} ${entry.row}`;
			return {
				row: entry.row,
				error: new NodeOperationError(
					this.context.getNode(),
					`The service answered the batch without a result for this event (${row}); it may or may not have been stored`,
					{
						itemIndex: this.itemIndexOf(entry.row),
						description: 'Run it again with an Event ID to be sure it is stored exactly once.',
					},
				),
			};
		});
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
