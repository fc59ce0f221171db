import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { continueOrThrow, errorJson } from '../../../shared/operation';
import { BatchSender, type Batch } from '../batches';
import { automaticColumns, eventFromRow, type Columns } from '../build';
import { derivedEventId } from '../eventId';
import { checkEvent } from '../rules';
import { FileReport } from './report';
import { parserFor, recordsOf, type FileFormat } from './rows';

interface FileOptions {
	startAtRow?: number;
	notAcceptedShown?: number;
	resultFile?: boolean;
	deriveEventIds?: 'always' | 'never';
}

/** Where the rows of a file are read from and how they become events, fixed for the execution. */
interface FileSetup {
	columns: Columns;
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
	const setup: FileSetup = {
		columns: automaticColumns(context),
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
	{ columns, zone, options }: FileSetup,
): Promise<INodeExecutionData> {
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const format = context.getNodeParameter('fileFormat', itemIndex, 'csv') as FileFormat;
	const delimiter = context.getNodeParameter('csvDelimiter', itemIndex, ',') as string;
	const binary = context.helpers.assertBinaryData(itemIndex, field);
	const startAt = Math.max(1, Math.floor(options.startAtRow ?? 1));
	const report = new FileReport(options.notAcceptedShown ?? 100, options.resultFile === true);
	const deriveIds = options.deriveEventIds !== 'never';
	const sender: BatchSender = new BatchSender(context, report, {
		itemIndexOf: () => itemIndex,
		progressOf: (batch) => stoppedAt(firstNotStored(batch, sender), deriveIds, report),
		rowWord: 'row',
		stoppedAt: (row) => stopped(row),
	});
	let lastRow = startAt - 1;
	// a node error is the run's own (a failed request, a stop); anything else broke the file's stream
	// off, and the rows after the last one read were not sent
	const readFailure = (error: unknown) => {
		if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
		const row = Math.min(lastRow + 1, sender.firstUnsentRow() ?? lastRow + 1);
		return new NodeOperationError(
			context.getNode(),
			`The file could not be read after row ${lastRow}: ${(error as Error).message}`,
			{ itemIndex, description: stoppedAt(row, deriveIds, report) },
		);
	};
	const signal = context.getExecutionCancelSignal?.();
	const stopped = (row: number) =>
		new NodeOperationError(context.getNode(), `Stopped at row ${row} of the file`, {
			itemIndex,
			description: stoppedAt(row, deriveIds, report),
		});
	const now = Date.now();
	try {
		const pieces = binary.id
			? await context.helpers.getBinaryStream(binary.id)
			: [await context.helpers.getBinaryDataBuffer(itemIndex, field)];
		const parser = parserForField(context, itemIndex, format, delimiter);
		for await (const record of recordsOf(pieces, parser)) {
			if (record.row < startAt) continue;
			if (signal?.aborted)
				throw stopped(Math.min(record.row, sender.firstUnsentRow() ?? record.row));
			lastRow = record.row;
			report.rowsRead++;
			if (record.error !== undefined) {
				report.unreadable(record.row, record.error);
				continue;
			}
			const verdict = checkEvent(eventFromRow(record.fields as IDataObject, columns, zone), now);
			if (!verdict.send) {
				report.answered(record.row, verdict.result);
				continue;
			}
			const { event } = verdict;
			if (deriveIds && event.event_id === undefined)
				event.event_id = fileRowEventId(event, verdict, record.row);
			await sender.add({ row: record.row, event, anonymous: verdict.anonymous });
		}
		await sender.flush();
	} catch (error) {
		throw readFailure(error);
	}
	const hint = report.hint();
	if (hint) context.addExecutionHints(hint);
	return await fileOutput(context, itemIndex, binary.fileName, startAt, report);
}

function parserForField(
	context: IExecuteFunctions,
	itemIndex: number,
	format: FileFormat,
	delimiter: string,
) {
	try {
		return parserFor(format, delimiter);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), `Delimiter: ${(error as Error).message}`, {
			itemIndex,
		});
	}
}

/**
 * A row's event ID from its content and its place in the file. A row that says when it happened
 * gets the ID the item path would give it (its content alone: rows moved or inserted in a new
 * export keep their IDs); a row without a time adds its row number, so two identical rows of one
 * file stay two events while a re-run of the same file stores neither twice.
 */
function fileRowEventId(
	event: IDataObject,
	verdict: { eventName: string; occurredAtUtc?: string },
	row: number,
): string {
	const content = verdict.occurredAtUtc === undefined ? { ...event, file_row: row } : event;
	return derivedEventId(content, verdict.eventName, verdict.occurredAtUtc);
}

/** The first row of the file not known to be stored: the failed batch's, or an earlier one still waiting. */
function firstNotStored(batch: Batch, sender: BatchSender): number {
	return Math.min(batch.rows[0].row, sender.firstUnsentRow() ?? batch.rows[0].row);
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
): Promise<INodeExecutionData> {
	const notAccepted = report.notAcceptedShown();
	const json: IDataObject = {
		...(fileName ? { file_name: fileName } : {}),
		...(startAt > 1 ? { started_at_row: startAt } : {}),
		summary: report.summary(),
		not_accepted: notAccepted,
		not_accepted_not_shown: report.notAcceptedCount() - notAccepted.length,
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
