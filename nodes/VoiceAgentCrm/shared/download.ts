import { sleep } from 'n8n-workflow';

/**
 * Bounded reads of an answer's body, for the recording download and the credential test: a total
 * deadline (a server that sends a byte now and then is never silent long enough for the request
 * timeout, which only measures silence) and the release of a body left unread.
 */

/** The body of an answer as n8n's HTTP client gives it when asked for a stream (a Node Readable). */
export interface ByteStream extends AsyncIterable<Buffer> {
	map(
		fn: (chunk: Buffer) => Buffer,
		options: { signal: AbortSignal; concurrency?: number },
	): ByteStream;
	destroy(error?: Error): void;
	resume(): void;
	on(event: 'data' | 'error', listener: () => void): void;
}

/**
 * Close an answer left unread. n8n's client hands the body over behind a wrapper that lets go of
 * the connection only once reading has begun, so it is read until its first chunk, then dropped.
 */
export function discard(body: ByteStream): void {
	body.on('error', () => undefined);
	body.on('data', () => body.destroy());
	body.resume();
}

export interface Deadline {
	/** Aborts when the deadline passes. */
	signal: AbortSignal;
	expired(): boolean;
	/** The error the deadline's passing is reported with. */
	error(): Error;
	/** `work`, or the deadline's error once it passes first. */
	race<T>(work: Promise<T>): Promise<T>;
	/** Stop the timer (the work is done). */
	end(): void;
}

/** Why a download ended early when the execution was stopped. */
const STOPPED = 'the execution was stopped, so the download was stopped';

/**
 * A deadline `ms` from now, or sooner when `stop` aborts (the execution was stopped: n8n aborts
 * the requests that carry its own signal, not a download from another host). The timer is
 * n8n-workflow's `sleep`, cancelled by `end`, so no timer outlives the work it bounds.
 */
export function startDeadline(ms: number, error: () => Error, stop?: AbortSignal): Deadline {
	const timer = new AbortController();
	const expiry = new AbortController();
	void sleep(ms, timer.signal).then(
		() => expiry.abort(),
		() => undefined,
	);
	const onStop = () => expiry.abort();
	if (stop?.aborted) expiry.abort();
	stop?.addEventListener('abort', onStop, { once: true });
	return {
		signal: expiry.signal,
		expired: () => expiry.signal.aborted,
		error: () => (stop?.aborted ? new Error(STOPPED) : error()),
		async race<T>(work: Promise<T>): Promise<T> {
			if (expiry.signal.aborted) throw error();
			return await new Promise<T>((resolve, reject) => {
				const onExpiry = () => reject(error());
				expiry.signal.addEventListener('abort', onExpiry, { once: true });
				work
					.then(resolve, reject)
					.finally(() => expiry.signal.removeEventListener('abort', onExpiry));
			});
		},
		end: () => {
			timer.abort();
			stop?.removeEventListener('abort', onStop);
		},
	};
}

/**
 * An answer that may arrive after the deadline: dropped unread then, so its connection is freed.
 */
export function dropIfLate<T extends { body?: unknown }>(
	answer: Promise<T>,
	deadline: Deadline,
): void {
	answer.then(
		(late) => {
			if (deadline.expired()) discard(late.body as ByteStream);
		},
		() => undefined,
	);
}
