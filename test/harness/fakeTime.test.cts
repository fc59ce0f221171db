import { sleep } from 'n8n-workflow';

import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';

/**
 * The fake-time drive itself (harness/fakeTime.cts): with `nextDueAt`, each step jumps to the
 * first of the outside work due, the next pending timer, or `stepMs`; so it must see the timers
 * the node sets (n8n-workflow's `sleep`), wherever @sinonjs/fake-timers keeps them.
 */

const HOUR = 3_600_000;

describe('the fake-time drive', () => {
	let time: FakeTime;
	beforeEach(() => {
		time = installFakeTime();
	});
	afterEach(() => time.uninstall());

	it("jumps to the node's pending timer, not past it, when nothing else is due", async () => {
		const startedAt = time.now();
		const woke = await time.runUntilSettled(
			sleep(3 * HOUR).then(() => Date.now()),
			{ stepMs: 24 * HOUR, nextDueAt: () => undefined },
		);
		expect(time.elapsed()).toBe(3 * HOUR);
		expect(woke - startedAt).toBe(3 * HOUR);
	});

	it('after a timer fired, moves in steps of 1 s before it jumps again, so that work it started is not jumped over', async () => {
		const marks: number[] = [];
		const work = (async () => {
			await sleep(HOUR);
			marks.push(time.elapsed());
			// a request's timeout, set by what the ended sleep started
			await sleep(30_000);
			marks.push(time.elapsed());
		})();
		await time.runUntilSettled(work, { stepMs: 24 * HOUR, nextDueAt: () => undefined });
		expect(marks).toEqual([HOUR, HOUR + 30_000]);
		expect(time.elapsed()).toBe(HOUR + 30_000);
	});
});
