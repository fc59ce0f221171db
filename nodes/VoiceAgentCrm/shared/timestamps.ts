/** Milliseconds of an ISO timestamp; 0 when absent or unreadable, so such a record sorts as oldest. */
export function msOf(value: unknown): number {
	const ms = typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isFinite(ms) ? ms : 0;
}
