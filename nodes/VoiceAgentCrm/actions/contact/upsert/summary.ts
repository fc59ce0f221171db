import type { IDataObject } from 'n8n-workflow';

import type { RequestCount } from '../../../shared/contactDirectory';
import type { RowResult } from './run';

/** A row refused (or unreadable), as the output lists it. */
interface NotAccepted {
	row: number;
	status: 'refused';
	reason: string;
}

/**
 * What a file's run did, in a size that does not grow with the file: counts per status, the first
 * rows not accepted, the requests by budget, how long it took and the budget that bounded it.
 */
export class UpsertReport {
	rowsRead = 0;
	private readonly counts: Record<string, number> = {};
	private readonly shown: NotAccepted[] = [];
	private notShown = 0;
	private readonly duplicates: IDataObject[] = [];
	private readonly startedAt = Date.now();

	constructor(private readonly shownMax: number) {}

	add(row: number, result: RowResult): void {
		this.counts[result.status] = (this.counts[result.status] ?? 0) + 1;
		if (result.status === 'refused')
			this.notAccepted({ row, status: 'refused', reason: result.reason ?? '' });
	}

	/** A row answered `refused` that the run carried out again at its end, with its new result. */
	revise(row: number, result: RowResult): void {
		this.counts.refused--;
		const at = this.shown.findIndex((entry) => entry.row === row);
		if (at >= 0) this.shown.splice(at, 1);
		else this.notShown--;
		this.add(row, result);
	}

	/** A contact this run created whose email another contact holds too (two runs at once). */
	duplicate(row: number, duplicate: IDataObject): void {
		if (this.duplicates.length < this.shownMax) this.duplicates.push({ row, ...duplicate });
	}

	private notAccepted(entry: NotAccepted): void {
		if (this.shown.length < this.shownMax) this.shown.push(entry);
		else this.notShown++;
	}

	output(
		lookup: IDataObject | undefined,
		count: RequestCount,
		validateOnly: boolean,
		header: IDataObject,
	): IDataObject {
		return {
			summary: {
				rows_read: this.rowsRead,
				...Object.fromEntries(
					(validateOnly ? DRY_STATUSES : STATUSES).map((status) => [
						status,
						this.counts[status] ?? 0,
					]),
				),
				...(validateOnly ? { validate_only: true } : {}),
				...(lookup ?? { lookup: 'none' }),
				requests: { listing: count.listing, organization: count.org },
				took_seconds: Math.round((Date.now() - this.startedAt) / 100) / 10,
				...budgetBound(count),
			},
			not_accepted: this.shown as unknown as IDataObject[],
			not_accepted_not_shown: this.notShown,
			...header,
			...(this.duplicates.length ? { duplicate_contacts: this.duplicates } : {}),
		};
	}
}

const STATUSES = ['created', 'updated', 'unchanged', 'merged', 'refused'];
const DRY_STATUSES = ['would_create', 'would_update', 'unchanged', 'merged', 'refused'];

/** The reference's fixed window: the headers announce a budget's size and its reset, not the window's length. */
const WINDOW_MINUTES = 1;

/**
 * The budget that bounds the run, from the sizes the service announced in its answers'
 * `X-RateLimit-Limit` headers (not assumed): the requests it drew divided by its size per window
 * is the least time the run can take, whatever the node does.
 */
export function budgetBound(count: RequestCount): IDataObject {
	const budgets = [
		{ name: 'organization', requests: count.org, size: count.announced.org },
		{ name: 'listing', requests: count.listing, size: count.announced.listing },
	].filter((budget) => budget.size && budget.requests);
	const announced = Object.fromEntries(budgets.map((budget) => [budget.name, budget.size!]));
	if (!budgets.length) return { budgets_announced: announced };
	const minutes = (budget: (typeof budgets)[number]) =>
		(budget.requests / budget.size!) * WINDOW_MINUTES;
	const bound = budgets.reduce((a, b) => (minutes(b) > minutes(a) ? b : a));
	const least = Math.round(minutes(bound) * 100) / 100;
	return {
		budgets_announced: announced,
		bounded_by: bound.name,
		budget_minutes: least,
		budget_note: `${bound.requests} requests on the ${bound.name} budget, which the service announced as ${bound.size} a minute (X-RateLimit-Limit${bound.name === 'listing' ? '-Heavy' : ''}): at least ${least} minutes at that budget`,
	};
}
