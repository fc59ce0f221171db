import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemError, ItemResults } from '../../../shared/operation';
import {
	FileReadError,
	readRecords,
	type FileEncoding,
	type FileFormat,
	type FileRecord,
} from '../../../shared/fileRows';
import type { UpsertSettings } from '../upsert.operation';
import {
	ContactDirectory,
	PER_ROW_LOOKUPS_MAX,
	RequestCount,
} from '../../../shared/contactDirectory';
import { DEFAULT_COLUMNS, type Columns } from './fields';
import { rowOf } from './match';
import { Upsert } from './run';
import { UpsertReport } from './summary';

/** The rows not accepted that the output lists; the summary counts them all. */
const NOT_ACCEPTED_SHOWN = 100;

/**
 * Create or Update with its rows read from a file of each input item (CSV or NDJSON), with Event
 * → Send's reader, as a stream. The node holds the first rows until it knows whether the job is
 * small (per-row lookups), and otherwise the organization's contacts it read: its memory grows
 * with the organization, not with the file. Each input item gives one summary item.
 */
export async function upsertFiles(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	settings: UpsertSettings,
): Promise<INodeExecutionData[]> {
	const renamed = context.getNodeParameter('columnNames', 0, {}) as Partial<Columns>;
	const columns: Columns = { ...DEFAULT_COLUMNS };
	for (const key of Object.keys(columns) as Array<keyof Columns>) {
		const name = String(renamed[key] ?? '').trim();
		if (name) columns[key] = name;
	}
	const results = new ItemResults(context, items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			results.succeed(itemIndex, await upsertFile(context, itemIndex, settings, columns));
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	return results.items();
}

async function upsertFile(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: UpsertSettings,
	columns: Columns,
): Promise<IDataObject> {
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const format = context.getNodeParameter('fileFormat', itemIndex, 'csv') as FileFormat;
	const delimiter = context.getNodeParameter('csvDelimiter', itemIndex, ',') as string;
	const binary = context.helpers.assertBinaryData(itemIndex, field);
	const pieces = binary.id
		? await context.helpers.getBinaryStream(binary.id)
		: [await context.helpers.getBinaryDataBuffer(itemIndex, field)];
	const report = new UpsertReport(NOT_ACCEPTED_SHOWN);
	const count = new RequestCount();
	let upsert: Upsert | undefined;
	let directory: ContactDirectory | undefined;
	// the first rows wait until the job is known to be small (the file ended) or large
	const waiting: FileRecord[] = [];
	const handle = async (record: FileRecord) => {
		report.rowsRead++;
		if (record.error !== undefined) {
			report.add(record.row, { status: 'refused', reason: record.error });
			return;
		}
		const read = rowOf(valuesOf(record.fields ?? {}, columns));
		if (!('row' in read)) {
			report.add(record.row, { status: 'refused', reason: read.reason });
			return;
		}
		try {
			report.add(record.row, await upsert!.row(read.row, itemIndex));
		} catch (error) {
			throw stoppedAt(context, itemIndex, record.row, error);
		}
	};
	const start = async (rows: number) => {
		directory = await ContactDirectory.open(context, count, itemIndex, rows);
		upsert = new Upsert(context, directory, count, settings.key, settings.validateOnly);
		for (const record of waiting.splice(0)) await handle(record);
	};
	const options = context.getNodeParameter('options', 0, {}) as { encoding?: FileEncoding };
	const keyColumn = settings.key === 'phone' ? columns.phoneNumber : columns.email;
	const onHeader = (names: string[]) => {
		if (!names.includes(keyColumn))
			throw new NodeOperationError(
				context.getNode(),
				`The file has no column "${keyColumn}" to match on`,
				{
					itemIndex,
					description: `Its columns: ${names.join(', ')}. Name the column that holds the ${settings.key === 'phone' ? 'phone number' : 'email'} under Column Names, or choose another Match On. Nothing was sent.`,
				},
			);
	};
	try {
		const records = readRecords(pieces, {
			format,
			delimiter,
			encoding: options.encoding ?? 'auto',
			onHeader,
		});
		for await (const record of records) {
			if (upsert) {
				await handle(record);
				continue;
			}
			waiting.push(record);
			if (waiting.length > PER_ROW_LOOKUPS_MAX) await start(Infinity);
		}
		if (!upsert && waiting.length) await start(waiting.length);
	} catch (error) {
		if (!(error instanceof FileReadError)) throw itemError(context, error, itemIndex);
		throw new NodeOperationError(context.getNode(), error.message, {
			itemIndex,
			description: count.org
				? `${error.description} The rows before it were written; running the file again is safe: rows already written are answered "unchanged".`
				: error.description,
		});
	}
	return {
		...(binary.fileName ? { file_name: binary.fileName } : {}),
		...report.output(directory?.strategy, count, settings.validateOnly),
	};
}

/** A row's values by parameter name, from the columns the user named. */
function valuesOf(fields: Record<string, unknown>, columns: Columns): IDataObject {
	const values: IDataObject = {};
	for (const [parameter, column] of Object.entries(columns))
		values[parameter] = fields[column] as IDataObject[string];
	return values;
}

/**
 * A write or read that failed ends the file's run, naming the row. Running the file again is
 * safe: the rows already written are answered `unchanged`.
 */
function stoppedAt(context: IExecuteFunctions, itemIndex: number, row: number, error: unknown) {
	const cause =
		error instanceof NodeApiError || error instanceof NodeOperationError ? error : undefined;
	return new NodeOperationError(
		context.getNode(),
		`Stopped at row ${row} of the file: ${cause?.message ?? (error as Error).message}`,
		{
			itemIndex,
			description: `${cause?.description ? `${cause.description} ` : ''}The rows before it were written. Running the file again is safe: rows already written are answered "unchanged".`,
		},
	);
}
