import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { continueOrThrow, errorJson } from '../../../shared/operation';
import { defaultCountryOf } from '../../../shared/validation';
import {
	FileReadError,
	readRecords,
	type FileEncoding,
	type FileFormat,
} from '../../../shared/fileRows';
import { cancelSignalOf, noteStop } from '../../../transport/request';
import {
	BatchSender,
	recordRows,
	type Batch,
	type BatchOutcome,
	type RowsInBalance,
} from '../batches';
import {
	automaticColumns,
	eventFromRow,
	readFieldNames,
	type Columns,
	type OtherFields,
} from '../build';
import { derivedEventId } from '../eventId';
import { checkEvent, type Verdict } from '../rules';
import { notSentHint } from '../tally';
import { checkHeader } from './header';
import { Occurrences } from './occurrences';
import { FileReport, namingFileOption } from './report';

interface FileOptions {
	startAtRow?: number;
	notAcceptedShown?: number;
	resultFile?: boolean;
	deriveEventIds?: 'always' | 'never';
	encoding?: FileEncoding;
	otherFields?: OtherFields;
}

/** Where the rows of a file are read from and how they become events, fixed for the execution. */
interface FileSetup {
	columns: Columns;
	/** Every column name the mapping reads; the others are not sent, or sent as params. */
	read: Set<string>;
	zone: string;
	options: FileOptions;
}

/**
 * Event → Send with its rows read from a file of each input item (CSV or NDJSON), as a stream:
 * the node holds the batches being filled, never the file or one item per row. Each input item
 * gives one output item: the file's summary and the rows not accepted.
 */
export async function sendFromFiles(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const columns = automaticColumns(context);
	const setup: FileSetup = {
		columns,
		read: readFieldNames(columns),
		zone: context.getTimezone(),
		options: context.getNodeParameter('fileOptions', 0, {}) as FileOptions,
	};
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			output.push(await sendFile(context, itemIndex, setup));
		} catch (error) {
			const nodeError = continueOrThrow(context, error, itemIndex);
			output.push({ json: errorJson(nodeError), pairedItem: { item: itemIndex } });
		}
	}
	return output;
}

async function sendFile(
	context: IExecuteFunctions,
	itemIndex: number,
	{ columns, read, zone, options }: FileSetup,
): Promise<INodeExecutionData> {
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const format = context.getNodeParameter('fileFormat', itemIndex, 'csv') as FileFormat;
	const delimiter = context.getNodeParameter('csvDelimiter', itemIndex, ',') as string;
	const binary = context.helpers.assertBinaryData(itemIndex, field);
	const startAt = Math.max(1, Math.floor(options.startAtRow ?? 1));
	const report = new FileReport(options.notAcceptedShown ?? 100, options.resultFile === true);
	const deriveIds = options.deriveEventIds !== 'never';
	const others = options.otherFields ?? 'ignore';
	const sender = new BatchSender(context, { rowWord: 'row', itemIndex, callerNotesStop: true });
	let lastRow = startAt - 1;
	/**
	 * A row that failed, the failed batch's first, one that may be stored or is not sent yet, or
	 * else the next row to read.
	 */
	const firstNotKnownStored = (failed?: Batch) =>
		Math.min(
			failed?.rows[0].row ?? Infinity,
			report.firstFailedRow ?? Infinity,
			sender.inBalance().firstRow ?? Infinity,
			lastRow + 1,
		);
	// a node error is the run's own (a failed request, a stop, a header refused); a file that cannot
	// be read on, or a stream broken off, ends the run at the row after the last one read
	const readFailure = (error: unknown) => {
		if (error instanceof NodeApiError || error instanceof NodeOperationError)
			return withFileOptionNamed(error);
		const row = firstNotKnownStored();
		const progress =
			report.requests === 0 ? 'Nothing was sent.' : stoppedAt(row, deriveIds, report);
		if (error instanceof FileReadError)
			return new NodeOperationError(context.getNode(), error.message, {
				itemIndex,
				description: `${error.description} ${progress}`,
			});
		return new NodeOperationError(
			context.getNode(),
			`The file could not be read after row ${lastRow}: ${(error as Error).message}`,
			{ itemIndex, description: progress },
		);
	};
	const signal = cancelSignalOf(context);
	// the point of a Stop is taken and written down as n8n aborts the execution: n8n saves the
	// execution as it is then, and drops what the node reports afterwards
	let atStop: StopPoint | undefined;
	const stopPointNow = (): StopPoint => ({ ...sender.inBalance(), row: firstNotKnownStored() });
	const onStop = () => {
		atStop = stopPointNow();
		noteStop(context, stopNote(itemIndex, atStop, report, deriveIds));
	};
	signal?.addEventListener('abort', onStop, { once: true });
	const stopped = () => {
		const { row } = (atStop ??= stopPointNow());
		return new NodeOperationError(context.getNode(), `Stopped at row ${row} of the file`, {
			itemIndex,
			description: stoppedAt(row, deriveIds, report),
		});
	};
	// a failed request stops the run at the first row not known to be stored, unless Continue On Fail
	const fold = (outcome: BatchOutcome | undefined) => {
		if (!outcome) return;
		report.requests += outcome.requests;
		if (outcome.announced) report.announced(outcome.announced);
		if (outcome.failure) {
			// the execution was stopped while the batch was on its way (n8n aborts the request)
			if (signal?.aborted) throw stopped();
			const row = firstNotKnownStored(outcome.batch);
			continueOrThrow(context, outcome.failure, itemIndex, () => stoppedAt(row, deriveIds, report));
		}
		recordRows(report, outcome);
	};
	let notSent: string[] = [];
	const onHeader = (names: string[]) => {
		checkHeader(context, itemIndex, names, columns, delimiter);
		if (others === 'ignore') notSent = names.filter((name) => name !== '' && !read.has(name));
	};
	const occurrences = new Occurrences();
	const now = Date.now();
	const phoneCountry = { country: defaultCountryOf(context, itemIndex) };
	try {
		const pieces = binary.id
			? await context.helpers.getBinaryStream(binary.id)
			: [await context.helpers.getBinaryDataBuffer(itemIndex, field)];
		const records = readRecords(pieces, {
			format,
			delimiter,
			encoding: options.encoding ?? 'auto',
			onHeader,
		});
		for await (const record of records) {
			// rows before Start at Row are read all the same: identical rows count their occurrences from row 1
			const skipped = record.row < startAt;
			if (!skipped) {
				if (signal?.aborted) throw stopped();
				lastRow = record.row;
				report.rowsRead++;
			}
			if (record.error !== undefined) {
				if (!skipped) report.unreadable(record.row, record.error);
				continue;
			}
			const verdict = checkEvent(
				eventFromRow(record.fields as IDataObject, columns, zone, others, read),
				now,
				phoneCountry,
			);
			if (!verdict.send) {
				if (!skipped) report.answered(record.row, verdict.result);
				continue;
			}
			const { event } = verdict;
			// a skipped row's ID is needed only to count identical rows without a time
			const needsId = !skipped || verdict.occurredAtUtc === undefined;
			if (deriveIds && event.event_id === undefined && needsId)
				event.event_id = fileRowEventId(verdict, occurrences);
			if (!skipped)
				fold(await sender.add({ row: record.row, event, anonymous: verdict.anonymous }));
		}
		for await (const outcome of sender.flush()) fold(outcome);
	} catch (error) {
		throw readFailure(error);
	} finally {
		signal?.removeEventListener('abort', onStop);
	}
	const hint = report.hint() ?? notSentHint(notSent, 'Columns');
	if (hint) context.addExecutionHints(hint);
	return await fileOutput(context, itemIndex, binary.fileName, startAt, report, notSent);
}

/** The error that ends the run, its advice naming the file's own options. */
function withFileOptionNamed<T extends NodeApiError | NodeOperationError>(error: T): T {
	error.message = namingFileOption(error.message);
	if (error.description) error.description = namingFileOption(error.description);
	return error;
}

/**
 * A row's event ID from its content alone, so that a row keeps its ID wherever a new export puts
 * it. A row that says when it happened gets the ID the item path would give it; identical rows
 * without a time are as many events as there are of them, so the n-th of them (n ≥ 2) adds `_n`:
 * a re-run or a re-sorted export gives the same IDs, and one more identical row one more ID.
 */
function fileRowEventId(verdict: Extract<Verdict, { send: true }>, seen: Occurrences): string {
	const id = derivedEventId(verdict.event, verdict.eventName, verdict.occurredAtUtc);
	if (verdict.occurredAtUtc !== undefined) return id;
	const occurrence = seen.next(id);
	return occurrence === 1 ? id : `${id}_${occurrence}`;
}

/** Where a Stop left the file: the row to start again at, and the rows whose outcome it left unknown. */
interface StopPoint extends RowsInBalance {
	row: number;
}

/**
 * The Stop's note in the execution's custom data (where the user finds it: n8n keeps no output
 * of a stopped node): the row to start again at and what became of the rows read.
 */
function stopNote(
	itemIndex: number,
	{ row, mayBeStored, notSent }: StopPoint,
	report: FileReport,
	deriveIds: boolean,
): string {
	const done = report.rowsRead - mayBeStored - notSent;
	const again = deriveIds ? '' : ' Without event IDs, a re-run stores those again.';
	return `Item ${itemIndex}'s file stopped at row ${row}: run again with Options → Start at Row set to ${row}. Of ${report.rowsRead} rows read: ${done} done (${report.stored()} stored, ${report.duplicates()} duplicate, ${report.notAcceptedCount()} not accepted), ${mayBeStored} sent with no answer (may be stored), ${notSent} not sent.${again}`;
}

/** What a run that stopped part-way did, and how to go on from where it stopped. */
function stoppedAt(row: number, deriveIds: boolean, report: FileReport): string {
	const safe = deriveIds
		? 'Rows from there on that this run already stored are answered "duplicate", not stored twice.'
		: 'Without event IDs (Derive Event IDs is Never), rows from there on that this run already stored would be stored again.';
	return `Row ${row} is the first row not known to be stored. This run stored ${report.stored()} events in ${report.requests} requests. To send the rest, run again with Options → Start at Row set to ${row}. ${safe}`;
}

async function fileOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	fileName: string | undefined,
	startAt: number,
	report: FileReport,
	notSent: string[],
): Promise<INodeExecutionData> {
	const notAccepted = report.notAcceptedShown();
	const json: IDataObject = {
		...(fileName ? { file_name: fileName } : {}),
		...(startAt > 1 ? { started_at_row: startAt } : {}),
		summary: report.summary(),
		not_accepted: notAccepted,
		not_accepted_not_shown: report.notAcceptedCount() - notAccepted.length,
		...(notSent.length ? { columns_not_sent: notSent } : {}),
	};
	const text = report.resultFile();
	if (text === undefined) return { json, pairedItem: { item: itemIndex } };
	const name = `${(fileName ?? 'events').replace(/\.[^.]*$/, '')}.not-accepted.csv`;
	return {
		json,
		binary: {
			data: await context.helpers.prepareBinaryData(Buffer.from(text, 'utf8'), name, 'text/csv'),
		},
		pairedItem: { item: itemIndex },
	};
}
