import type {
	IDataObject,
	NodeApiError,
	NodeExecutionHint,
	NodeOperationError,
} from 'n8n-workflow';

import type { RowRecord } from '../batches';
import type { EventResult } from '../rules';
import { noneAcceptedHint, refusalReason } from '../tally';

const STORED = ['created', 'pending', 'unresolved'] as const;

/** A row the service or the node did not accept, as the output and the result file list it. */
interface NotAccepted {
	row: number;
	status: 'invalid' | 'rejected' | 'failed';
	reason: string;
	event_id?: string;
}

/**
 * What one file's run did, in a size that does not grow with the file: counts per status, and
 * the rows not accepted (the first `shown` of them in the output; all of them, as CSV lines, only
 * when a result file was asked for).
 */
export class FileReport implements RowRecord {
	requests = 0;
	rowsRead = 0;
	private readonly counts: Record<string, number> = {
		created: 0,
		pending: 0,
		unresolved: 0,
		duplicate: 0,
		stored_this_run_or_earlier: 0,
		rejected: 0,
		invalid: 0,
		failed: 0,
	};
	private contactsCreated = 0;
	/** The first row whose request failed: not known to be stored. */
	firstFailedRow?: number;
	private readonly shownRows: NotAccepted[] = [];
	private first?: NotAccepted;
	private readonly resultLines?: string[];

	private readonly startedAt = Date.now();
	/** The events budget's size per window, as the service's `X-RateLimit-Limit` announced it. */
	private eventsBudget?: number;

	constructor(
		private readonly shown: number,
		withResultFile: boolean,
	) {
		if (withResultFile) this.resultLines = ['row,status,reason,event_id'];
	}

	answered(row: number, result: EventResult): void {
		const status =
			result.status === 'duplicate' && result.stored_by !== undefined
				? 'stored_this_run_or_earlier'
				: result.status;
		this.counts[status] = (this.counts[status] ?? 0) + 1;
		if ((result.contact as IDataObject | undefined)?.created === true) this.contactsCreated++;
		if (result.status === 'invalid' || result.status === 'rejected') {
			this.notAccepted({
				row,
				status: result.status,
				reason: result.errors?.join('; ') ?? refusalReason(result),
				...(result.event_id ? { event_id: result.event_id } : {}),
			});
		}
	}

	failed(row: number, error: NodeApiError | NodeOperationError): void {
		this.counts.failed++;
		this.firstFailedRow = Math.min(row, this.firstFailedRow ?? row);
		this.notAccepted({ row, status: 'failed', reason: namingFileOption(error.message) });
	}

	/** A row of the file that could not be read at all (a CSV row with too many fields, a line that is no JSON). */
	unreadable(row: number, reason: string): void {
		this.counts.invalid++;
		this.notAccepted({ row, status: 'invalid', reason });
	}

	stored(): number {
		return STORED.reduce((sum, status) => sum + this.counts[status], 0);
	}

	/** Rows the service answered as stored before (by an earlier run, or by this run's lost attempt). */
	duplicates(): number {
		return this.counts.duplicate + this.counts.stored_this_run_or_earlier;
	}

	notAcceptedCount(): number {
		return this.counts.invalid + this.counts.rejected + this.counts.failed;
	}

	/** The editor's hint when rows were read and none was accepted. */
	hint(): NodeExecutionHint | undefined {
		if (this.rowsRead === 0 || this.notAcceptedCount() !== this.rowsRead) return undefined;
		const { first } = this;
		return noneAcceptedHint({
			invalid: this.counts.invalid,
			rejected: this.counts.rejected,
			failed: this.counts.failed,
			first: first && { where: `row ${first.row}`, reason: first.reason },
		});
	}

	announced(limits: Partial<Record<string, number>>): void {
		this.eventsBudget = limits.events ?? this.eventsBudget;
	}

	summary(): IDataObject {
		return {
			rows_read: this.rowsRead,
			...this.counts,
			contacts_created: this.contactsCreated,
			requests: this.requests,
			took_seconds: Math.round((Date.now() - this.startedAt) / 100) / 10,
			...this.budgetBound(),
		};
	}

	/**
	 * The budget that bounds a file's run: the events endpoint's own, at the size the service
	 * announced (the reference does not give it). Its requests ÷ that size per 60-second window is
	 * the least time the run takes, whatever the node does.
	 */
	private budgetBound(): IDataObject {
		if (!this.eventsBudget) return {};
		const minutes = Math.round((this.requests / this.eventsBudget) * 100) / 100;
		return {
			budgets_announced: { events: this.eventsBudget },
			bounded_by: 'events',
			budget_minutes: minutes,
			budget_note: `${this.requests} requests on the events budget, which the service announced as ${this.eventsBudget} a minute (X-RateLimit-Limit): at least ${minutes} minutes at that budget`,
		};
	}

	notAcceptedShown(): IDataObject[] {
		return this.shownRows as unknown as IDataObject[];
	}

	/** The result file's text: every row not accepted, as CSV. */
	resultFile(): string | undefined {
		return this.resultLines && `${this.resultLines.join('\r\n')}\r\n`;
	}

	private notAccepted(entry: NotAccepted): void {
		this.first ??= entry;
		if (this.shownRows.length < this.shown) this.shownRows.push(entry);
		this.resultLines?.push(
			[entry.row, entry.status, entry.reason, entry.event_id ?? ''].map(csvField).join(','),
		);
	}
}

/**
 * One cell of the result file. Text that a spreadsheet would run as a formula (it starts with =,
 * +, -, @, a tab or CR: OWASP's CSV injection) gets a leading ' so that it is shown as text: the
 * reasons and event IDs repeat what the file held.
 */
/**
 * The transport's advice after a batch that could not be repeated names the item path's option,
 * Derive Missing Event IDs; a file's own is Options → Derive Event IDs.
 */
export function namingFileOption(text: string): string {
	return text.replace(
		/Options → Derive Missing Event IDs(: "[^"]*" or "[^"]*")?/g,
		'Options → Derive Event IDs: "From Each Row"',
	);
}

function csvField(value: string | number): string {
	if (typeof value === 'number') return String(value);
	const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
