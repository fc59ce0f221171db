/**
 * The simulator's clock. It follows real time plus an offset that tests move forward, so that
 * the call life cycle, rate windows and retention limits can be crossed without sleeping.
 * Work scheduled on the clock (call state changes, webhooks) runs when the clock passes it:
 * on `advance`, lazily before every request is handled, and, once `runOnItsOwn` is called (the
 * standalone simulator, a cluster test), on time without any request.
 */
export interface ScheduledTask {
	at: number;
	seq: number;
	run: () => void | Promise<void>;
}

export class SimClock {
	private offsetMs = 0;
	private seq = 0;
	private tasks: ScheduledTask[] = [];
	private ticker?: NodeJS.Timeout;
	private running?: Promise<void>;

	constructor(private readonly realNow: () => number = Date.now) {}

	now(): number {
		return this.realNow() + this.offsetMs;
	}

	iso(at = this.now()): string {
		return new Date(at).toISOString();
	}

	/** Move time forward and run every task that falls due, in time order. */
	async advance(ms: number): Promise<void> {
		if (ms < 0) throw new Error('the clock only moves forward');
		this.offsetMs += ms;
		await this.runDue();
	}

	/** Move to an absolute time (never backwards). */
	async set(at: number): Promise<void> {
		await this.advance(Math.max(0, at - this.now()));
	}

	/** Tasks stay in time order, those at the same time in the order scheduled: inserted after every task due at or before `at`. */
	schedule(at: number, run: () => void | Promise<void>): void {
		let low = 0;
		let high = this.tasks.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.tasks[middle].at <= at) low = middle + 1;
			else high = middle;
		}
		this.tasks.splice(low, 0, { at, seq: this.seq++, run });
	}

	async runDue(): Promise<void> {
		const now = this.now();
		while (this.tasks.length && this.tasks[0].at <= now) {
			const task = this.tasks.shift()!;
			await task.run();
		}
	}

	/**
	 * Run due work every `tickMs` of real time, so that call life cycles and webhooks happen on
	 * time with no request arriving. One pass at a time, so tasks never run out of order; call
	 * webhooks are then sent in the background (`notify`), so no pass waits on a receiver. Tests keep
	 * the clock they move themselves.
	 */
	runOnItsOwn(tickMs = 100): void {
		if (this.ticker) return;
		this.ticker = setInterval(() => {
			if (this.running) return;
			this.running = this.runDue()
				.catch((error: unknown) =>
					console.error('simulator clock: a scheduled step failed:', error),
				)
				.finally(() => (this.running = undefined));
		}, tickMs);
		this.ticker.unref();
	}

	/** True between `runOnItsOwn` and `stopRunning`: nobody waits on the due work, so it may be sent off in the background. */
	get runsOnItsOwn(): boolean {
		return this.ticker !== undefined;
	}

	/** Stop running on its own; waits for a pass under way. */
	async stopRunning(): Promise<void> {
		clearInterval(this.ticker);
		this.ticker = undefined;
		await this.running;
	}

	pending(): number {
		return this.tasks.length;
	}

	/** When the next scheduled step is due, for a fake clock that jumps to it (harness/fakeTime.cts). */
	nextTaskAt(): number | undefined {
		return this.tasks[0]?.at;
	}
}
