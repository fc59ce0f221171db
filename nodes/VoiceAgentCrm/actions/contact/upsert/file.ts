import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemError, ItemResults } from '../../../shared/operation';
import { readDefaultCountry } from '../../../shared/validation';
import {
	FileReadError,
	readRecords,
	type FileEncoding,
	type FileFormat,
	type FileRecord,
} from '../../../shared/fileRows';
import { ContactDirectory, RequestCount } from '../../../shared/contactDirectory';
import { lookupsOf, type UpsertSettings } from '../upsert.operation';
import { DEFAULT_COLUMNS, type Columns } from './fields';
import { rowOf, type ContactRow, type RowRules } from './match';
import { RunKeys } from './repeats';
import { Upsert } from './run';
import { UpsertReport } from './summary';

/** The rows not accepted that the output lists; the summary counts them all. */
const NOT_ACCEPTED_SHOWN = 100;

/** A custom field read from a column: the column, the field's name and its type. */
interface CustomColumn {
	column: string;
	field: string;
	type: string;
}

/** The file's columns of each field, and of each custom field. */
interface FileColumns {
	fields: Columns;
	custom: CustomColumn[];
	/** Whether the user named the column (a name that matches no column is refused), by parameter. */
	named: Set<string>;
}

/**
 * Create or Update with its rows read from a file of each input item (CSV or NDJSON), with Event
 * → Send's reader, as a stream, twice: the first reading checks every row and gathers the rows of
 * each key (merged, or their repeats refused) before any request; the second carries them out in
 * order. The node holds one row a key and the organization's contacts it read: its memory grows
 * with the file's keys and the organization. Each input item gives one summary item.
 */
export async function upsertFiles(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	settings: UpsertSettings,
): Promise<INodeExecutionData[]> {
	const columns = fileColumns(context);
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
	columns: FileColumns,
): Promise<IDataObject> {
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const format = context.getNodeParameter('fileFormat', itemIndex, 'csv') as FileFormat;
	const delimiter = context.getNodeParameter('csvDelimiter', itemIndex, ',') as string;
	const binary = context.helpers.assertBinaryData(itemIndex, field);
	const readFile = async () =>
		binary.id
			? await context.helpers.getBinaryStream(binary.id)
			: [await context.helpers.getBinaryDataBuffer(itemIndex, field)];
	// read once per file: every row's phone is read with it
	const country = readDefaultCountry(context.getNodeParameter('defaultCountry', itemIndex, ''));
	if ('problem' in country)
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${country.problem}`, {
			itemIndex,
			description: 'Nothing was sent for this file.',
		});
	const rules = { ...settings.rules, defaultCountry: country.country };
	const options = context.getNodeParameter('options', 0, {}) as { encoding?: FileEncoding };
	const header: HeaderNote = {};
	const records = async () =>
		readRecords(await readFile(), {
			format,
			delimiter,
			encoding: options.encoding ?? 'auto',
			onHeader: (names) =>
				Object.assign(header, checkHeader(context, itemIndex, names, settings, columns)),
		});
	const report = new UpsertReport(NOT_ACCEPTED_SHOWN);
	const count = new RequestCount();
	const keys = new RunKeys(settings.key, settings.repeats, (row) => `row ${row}`);
	let directory: ContactDirectory | undefined;
	try {
		// first reading: every row checked and its key's rows gathered, before any request
		for await (const record of await records()) {
			const read = readRow(record, columns, rules);
			if ('row' in read) keys.add(record.row, read.row);
		}
		directory = await ContactDirectory.open(
			context,
			count,
			itemIndex,
			lookupsOf(settings, keys.size),
		);
		const upsert = new Upsert(context, directory, count, settings);
		for await (const record of await records()) {
			report.rowsRead++;
			const read = readRow(record, columns, rules);
			if (!('row' in read)) {
				report.add(record.row, { status: 'refused', reason: read.reason });
				continue;
			}
			const plan = keys.plan(record.row, read.row);
			try {
				const result =
					'answer' in plan ? plan.answer : await upsert.row(plan.row, itemIndex, record.row);
				keys.settle(record.row, result);
				report.add(record.row, result);
			} catch (error) {
				throw stoppedAt(context, itemIndex, record.row, error);
			}
		}
		for (const retried of await upsert.retryBlocked()) {
			const { position } = retried;
			if ('error' in retried) throw stoppedAt(context, itemIndex, position, retried.error);
			report.revise(position, { ...retried.result, ...keys.settle(position, retried.result) });
			for (const later of keys.answersAfter(position)) report.revise(later.position, later.answer);
		}
		if (!settings.validateOnly)
			for (const { position, duplicate } of await upsert.duplicatesCreated())
				report.duplicate(position, duplicate);
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
		...report.output(directory?.describe(), count, settings.validateOnly, header),
	};
}

/** What the summary says of the header: the columns no field reads, and the columns without a name. */
interface HeaderNote extends IDataObject {
	columns_not_read?: string[];
	unnamed_columns?: number;
}

/** Column Names and Custom Field Columns, read once. */
function fileColumns(context: IExecuteFunctions): FileColumns {
	const renamed = context.getNodeParameter('columnNames', 0, {}) as Partial<Columns>;
	const fields: Columns = { ...DEFAULT_COLUMNS };
	const named = new Set<string>();
	for (const key of Object.keys(fields) as Array<keyof Columns>) {
		const name = String(renamed[key] ?? '').trim();
		if (!name) continue;
		fields[key] = name;
		named.add(key);
	}
	const mapped = context.getNodeParameter('customColumns', 0, {}) as {
		entries?: Array<Partial<CustomColumn>>;
	};
	const custom = (mapped.entries ?? []).map((entry) => ({
		column: String(entry.column ?? '').trim(),
		field: String(entry.field ?? '').trim() || String(entry.column ?? '').trim(),
		type: String(entry.type ?? '').trim() || 'text',
	}));
	return { fields, custom, named };
}

/**
 * A header the run cannot use stops the file before any request: no column to match on, or a
 * column the user named that the file does not have. Otherwise, what the summary says of it.
 */
function checkHeader(
	context: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	settings: UpsertSettings,
	columns: FileColumns,
): HeaderNote {
	const { fields, custom, named } = columns;
	const keyColumn = settings.key === 'phone' ? fields.phoneNumber : fields.email;
	const refuse = (message: string, advice: string) =>
		new NodeOperationError(context.getNode(), message, {
			itemIndex,
			description: `Its columns: ${names.join(', ')}. ${advice} Nothing was sent.`,
		});
	if (!names.includes(keyColumn))
		throw refuse(
			`The file has no column "${keyColumn}" to match on`,
			`Name the column that holds the ${settings.key === 'phone' ? 'phone number' : 'email'} under Column Names, or choose another Match On.`,
		);
	const missing = [
		...[...named].map((key) => fields[key as keyof Columns]),
		...custom.map((entry) => entry.column),
	].filter((column) => !names.includes(column));
	if (missing.length)
		throw refuse(
			`The file has no column ${missing.map((column) => `"${column}"`).join(', ')}`,
			'Correct the name under Column Names or Custom Field Columns (the header is compared exactly, spaces around it aside).',
		);
	const read = new Set([...Object.values(fields), ...custom.map((entry) => entry.column)]);
	const notRead = names.filter((name) => name !== '' && !read.has(name));
	const unnamed = names.filter((name) => name === '').length;
	return {
		...(notRead.length ? { columns_not_read: notRead } : {}),
		...(unnamed ? { unnamed_columns: unnamed } : {}),
	};
}

/** A record's row, or why it is refused. */
function readRow(
	record: FileRecord,
	columns: FileColumns,
	rules: RowRules,
): { row: ContactRow } | { reason: string } {
	if (record.error !== undefined) return { reason: record.error };
	return rowOf(valuesOf(record.fields ?? {}, columns), rules);
}

/** A row's values by parameter name, from the columns the user named. */
function valuesOf(fields: Record<string, unknown>, columns: FileColumns): IDataObject {
	const values: IDataObject = {};
	for (const [parameter, column] of Object.entries(columns.fields))
		values[parameter] = fields[column] as IDataObject[string];
	if (columns.custom.length)
		values.additionalData = columns.custom.map(({ column, field, type }) => ({
			type,
			field,
			value: fields[column] as IDataObject[string],
		}));
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
