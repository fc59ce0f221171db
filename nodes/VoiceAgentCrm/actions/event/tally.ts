import type {
	IDataObject,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { errorJson } from '../../shared/operation';
import type { EventResult } from './rules';

const STATUSES = ['created', 'pending', 'unresolved', 'duplicate', 'rejected', 'invalid'] as const;
const STORED: readonly string[] = ['created', 'pending', 'unresolved'];

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
		if (this.keepRows) this.items[row] = { json: result, pairedItem: { item: row } };
	}

	failed(row: number, error: NodeApiError | NodeOperationError): void {
		this.failures++;
		if (this.keepRows) this.items[row] = { json: errorJson(error), pairedItem: { item: row } };
	}

	/** Events this run knows it stored. */
	stored(): number {
		return STORED.reduce((sum, status) => sum + this.counts[status], 0);
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
