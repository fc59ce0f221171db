/**
 * Fault injection for tests: the next N requests that match get a canned failure instead of
 * (or, with `delayMs` alone, before) the normal answer.
 */
export interface FaultMatch {
	method?: string;
	/** Path without query; a string matches exactly, a RegExp is tested. */
	path?: string | RegExp;
}

export interface Fault {
	status?: number;
	/** JSON body; ignored when `rawBody` is set. */
	body?: unknown;
	/** Sent as is, e.g. an HTML error page or malformed JSON. */
	rawBody?: string;
	contentType?: string;
	headers?: Record<string, string>;
	/** Shortcut for a `Retry-After` header, in seconds. */
	retryAfter?: number;
	/** Wait this long (real time) before answering. Alone, the normal answer follows. */
	delayMs?: number;
	/** Answer once this settles (a test acts while the request waits). Alone, the normal answer follows. */
	until?: Promise<unknown>;
	/** Destroy the socket without any answer. */
	drop?: boolean;
	/** Send the status line, the headers and half the body, then destroy the socket: a body cut mid-way. */
	cutBody?: boolean;
	/** Append the request's own API key to the body's `message`, as a service that echoes it would. */
	quoteKey?: boolean;
	/** When true the request is still handled (its effects happen) before the fault answers. */
	afterHandling?: boolean;
}

export interface FaultRule extends FaultMatch {
	fault: Fault;
	/** How many matching requests it applies to; default 1. */
	times?: number;
	/** How many matching requests it lets through untouched first (the fault hits the next ones); default 0. */
	skip?: number;
}

export class FaultInjector {
	private rules: Array<FaultRule & { left: number; toSkip: number }> = [];

	inject(rule: FaultRule): void {
		this.rules.push({ ...rule, left: rule.times ?? 1, toSkip: rule.skip ?? 0 });
	}

	clear(): void {
		this.rules = [];
	}

	/** The fault for this request, consuming one use of the first matching rule. */
	take(method: string, path: string): Fault | undefined {
		const rule = this.rules.find(
			(r) =>
				r.left > 0 &&
				(!r.method || r.method.toUpperCase() === method) &&
				(!r.path || (typeof r.path === 'string' ? r.path === path : r.path.test(path))),
		);
		if (!rule) return undefined;
		if (rule.toSkip > 0) {
			rule.toSkip--;
			return undefined;
		}
		rule.left--;
		this.rules = this.rules.filter((r) => r.left > 0);
		return rule.fault;
	}
}
