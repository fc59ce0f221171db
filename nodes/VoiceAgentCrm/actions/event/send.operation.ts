import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { continueOrThrow } from '../../shared/operation';
import { readDefaultCountry, type DefaultCountryReading } from '../../shared/validation';
import { BatchSender, recordRows, type Batch, type BatchOutcome, type Pending } from './batches';
import { eventReader, type EventReader } from './build';
import { derivedEventId, shouldDerive, type DeriveIds } from './eventId';
import { sendFromFiles } from './file/sendFile';
import { checkEvent } from './rules';
import { sendFields } from './send.fields';
import { EventTally, notSentHint } from './tally';

type OutputMode = 'events' | 'eventsAndSummary' | 'summary';

export const sendEvents: Operation = {
	option: {
		name: 'Send',
		value: 'send',
		action: 'Send events',
		description:
			'Record business events (purchases, forms, visits) on contacts, from input items or the rows of a CSV or NDJSON file',
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
	// what a conversation says of an event: what happened, and who (the rest sets the workflow up)
	modelFills: ['eventName', 'contactEmail', 'contactPhone', 'additionalFields.contactName'],
	async execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (this.getNodeParameter('eventInput', 0, 'fields') === 'file')
			return await sendFromFiles(this, items);
		const options = this.getNodeParameter('options', 0, {}) as {
			deriveEventIds?: DeriveIds;
			output?: OutputMode;
		};
		const mode = options.output ?? 'events';
		const tally = new EventTally(items.length, mode !== 'summary');
		const reader = eventReader(this, items);
		const prepare = rowPreparer(this, reader.read, options.deriveEventIds ?? 'whenTimed', tally);
		const sender = new BatchSender(this, { rowWord: 'item' });
		const fold = (outcome: BatchOutcome | undefined) => {
			if (!outcome) return;
			tally.requests += outcome.requests;
			if (outcome.failure)
				continueOrThrow(this, outcome.failure, outcome.batch.rows[0].row, () =>
					progressOf(outcome.batch, tally),
				);
			recordRows(tally, outcome);
		};
		if (reader.mayFail) {
			// a row the node cannot read stops the run before anything is sent
			const pending = items.map((_, row) => prepare(row));
			for (const [position, entry] of pending.entries()) {
				if (entry) fold(await sender.add(entry));
				pending[position] = undefined;
			}
		} else {
			// rows that cannot fail to be read are read as they are sent: only the batches being filled are held
			for (let row = 0; row < items.length; row++) {
				const entry = prepare(row);
				if (entry) fold(await sender.add(entry));
			}
		}
		for await (const outcome of sender.flush()) fold(outcome);
		const hint = tally.noneAcceptedHint() ?? notSentHint(reader.notSent?.() ?? [], 'Fields');
		if (hint) this.addExecutionHints(hint);
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
		const verdict = checkEvent(raw, now, defaultCountryOfRow(context, row));
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
 * The row's Default Country, read as the event's other fields are: a value that is no country of
 * the table is the row's problem (answered `invalid` when it has a phone to read), never the run's,
 * because rows read as they are sent must not stop the run half-way.
 */
function defaultCountryOfRow(context: IExecuteFunctions, row: number): DefaultCountryReading {
	try {
		return readDefaultCountry(context.getNodeParameter('defaultCountry', row, ''));
	} catch (error) {
		return { problem: `Default Country: ${(error as Error).message}` };
	}
}

/** The error that stops the run, saying what earlier requests stored and what was not sent. */
function progressOf(batch: Batch, tally: EventTally): string {
	const first = batch.rows[0].row;
	const last = batch.rows[batch.rows.length - 1].row;
	return `The failed request held items ${first} to ${last}. Earlier requests of this run stored ${tally.stored()} events; later items were not sent. Events with an Event ID are never stored twice when the workflow runs again.`;
}
