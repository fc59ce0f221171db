import type {
	IDataObject,
	INodeExecutionData,
	NodeApiError,
	NodeExecutionHint,
	NodeOperationError,
} from 'n8n-workflow';

import { errorJson } from '../../shared/operation';
import type { EventResult } from './rules';

const STATUSES = ['created', 'pending', 'unresolved', 'duplicate', 'rejected', 'invalid'] as const;
const STORED: readonly string[] = ['created', 'pending', 'unresolved'];

/** Why a row was not accepted, in one line: the service's reason or the first of its errors. */
export function refusalReason(result: EventResult): string {
	const reason = result.errors?.[0] ?? result.reason ?? result.status;
	return typeof result.hint === 'string' ? `${reason}: ${result.hint}` : reason;
}

export interface Refusals {
	invalid: number;
	rejected: number;
	failed: number;
	/** The first row not accepted, named ("item 3", "row 12"), and why. */
	first?: { where: string; reason: string };
}

/**
 * A run where no row was accepted ends green in the editor all the same (each row's answer is
 * output data, not an error): this hint says so above the output.
 */
export function noneAcceptedHint(refusals: Refusals): NodeExecutionHint | undefined {
	const { invalid, rejected, failed, first } = refusals;
	if (!first) return undefined;
	const counts = [
		invalid && `${invalid} invalid`,
		rejected && `${rejected} rejected`,
		failed && `${failed} failed`,
	].filter(Boolean);
	return {
		message: `No event was accepted: ${counts.join(', ')}. First, ${first.where}: ${first.reason}`,
		type: 'warning',
		location: 'outputPane',
	};
}

/**
 * Map Automatically sends only the fields (a file's columns) it reads: the others are named above
 * the output, with the option that sends them.
 */
export function notSentHint(
	names: string[],
	what: 'Columns' | 'Fields',
): NodeExecutionHint | undefined {
	if (!names.length) return undefined;
	const shown = names.slice(0, 10).map((name) => `"${name}"`);
	const more = names.length > 10 ? ` and ${names.length - 10} more` : '';
	const option = what === 'Columns' ? 'Other Columns' : 'Other Fields';
	return {
		message: `${what} not sent: ${shown.join(', ')}${more}. To send them with each event, set Options → ${option} to "Send as Params".`,
		type: 'info',
		location: 'outputPane',
	};
}

/**
 * Each row's output item, written as its answer comes, and the counts of the summary kept as
 * they go (so that a summary needs no second pass, and "Summary Only" holds no rows at all).
 */
export class EventTally {
	requests = 0;
	private readonly items: INodeExecutionData[];
	private readonly counts: Record<string, number> = Object.fromEntries(
		STATUSES.map((status) => [status, 0]),
	);
	private failures = 0;
	private firstRefusal?: Refusals['first'];
	private contactsCreated = 0;
	/** `duplicate` answers on a repeat after a lost answer: stored by this run or an earlier one. */
	private storedThisRunOrEarlier = 0;

	constructor(
		private readonly received: number,
		private readonly keepRows: boolean,
	) {
		this.items = keepRows ? new Array<INodeExecutionData>(received) : [];
	}

	answered(row: number, result: EventResult): void {
		if (result.status === 'duplicate' && result.stored_by !== undefined)
			this.storedThisRunOrEarlier++;
		else this.counts[result.status] = (this.counts[result.status] ?? 0) + 1;
		if ((result.contact as IDataObject | undefined)?.created === true) this.contactsCreated++;
		if (result.status === 'invalid' || result.status === 'rejected')
			this.firstRefusal ??= { where: `item ${row}`, reason: refusalReason(result) };
		if (this.keepRows) this.items[row] = { json: result, pairedItem: { item: row } };
	}

	failed(row: number, error: NodeApiError | NodeOperationError): void {
		this.failures++;
		this.firstRefusal ??= { where: `item ${row}`, reason: error.message };
		if (this.keepRows) this.items[row] = { json: errorJson(error), pairedItem: { item: row } };
	}

	/** Events this run knows it stored. */
	stored(): number {
		return STORED.reduce((sum, status) => sum + this.counts[status], 0);
	}

	/** The editor's hint when no row was accepted; undefined when one was, or there were none. */
	noneAcceptedHint(): NodeExecutionHint | undefined {
		const { invalid, rejected } = this.counts;
		if (invalid + rejected + this.failures !== this.received) return undefined;
		return noneAcceptedHint({ invalid, rejected, failed: this.failures, first: this.firstRefusal });
	}

	output(mode: 'events' | 'eventsAndSummary' | 'summary'): INodeExecutionData[] {
		if (mode === 'events') return this.items;
		const summary: INodeExecutionData = {
			json: {
				summary: {
					received: this.received,
					...this.counts,
					stored_this_run_or_earlier: this.storedThisRunOrEarlier,
					failed: this.failures,
					contacts_created: this.contactsCreated,
					requests: this.requests,
				},
			},
			pairedItem: Array.from({ length: this.received }, (_, item) => ({ item })),
		};
		return mode === 'summary' ? [summary] : [...this.items, summary];
	}
}
