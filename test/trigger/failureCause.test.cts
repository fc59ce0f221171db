import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import type { PollingTrigger } from '../../harness/poll.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { finishedCallsPoll } from '../helpers/polling.cts';
import { finishedCallsTrigger } from './instantHarness.cts';

/**
 * n8n's poll back-off (2.36+, with durable poll cursors) reads why a poll failed from the error's
 * `failure` (n8n-workflow's `Failure`, read by packages/cli's poll-backoff-policy): a rate limit
 * with the wait the service asked for is waited out at least that long; a refused key is a
 * credential problem, backed off the longest until the user fixes it. Both triggers' requests
 * declare them: the polling trigger's polls and the Instant Trigger's registration on agents.
 */
const CALLS = '/v1/calls';

/** `sim` as a credential with a key it refuses sees it. */
const withRefusedKey = (sim: Simulator): Simulator =>
	Object.create(sim, { apiKey: { value: 'vak_refused_key_000000000000' } }) as Simulator;

interface Declared {
	message?: string;
	httpCode?: string;
	failure?: { cause: string; retryAfterMs?: number };
}

describe("The triggers' errors declare the failure cause n8n's poll back-off reads", () => {
	let time: FakeTime;
	let sim: Simulator;
	let trigger: PollingTrigger;
	const poll = () =>
		time.runUntilSettled(trigger.poll()).then(
			() => undefined,
			(e: unknown) => e as Declared,
		);

	beforeEach(async () => {
		time = installFakeTime();
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		trigger = finishedCallsPoll(sim, time);
	});
	afterEach(async () => {
		await sim.stop();
		time.uninstall();
	});

	it('a rate limit that outlasts the waits: rate-limited, with the wait the service asked for', async () => {
		sim.faults.inject({
			method: 'GET',
			path: CALLS,
			times: Infinity,
			fault: { status: 429, retryAfter: 7, body: { message: 'Too many requests' } },
		});
		const error = await poll();
		expect(error?.httpCode).toBe('429');
		expect(error?.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 7_000 });
	});

	it('a 429 without a wait: rate-limited, no wait declared', async () => {
		sim.faults.inject({ method: 'GET', path: CALLS, times: Infinity, fault: { status: 429 } });
		expect((await poll())?.failure).toEqual({ cause: 'rate-limited' });
	});

	it('a refused key: credential-invalid', async () => {
		trigger = finishedCallsPoll(withRefusedKey(sim), time);
		const error = await poll();
		expect(error?.httpCode).toBe('401');
		expect(error?.failure).toEqual({ cause: 'credential-invalid' });
	});

	it('a failure a wait may mend (a 500) declares nothing: n8n reads its status itself', async () => {
		sim.faults.inject({ method: 'GET', path: CALLS, times: Infinity, fault: { status: 500 } });
		const error = await poll();
		expect(error?.httpCode).toBe('500');
		expect(error?.failure).toBeUndefined();
	});

	it("the Instant Trigger's registration on agents with a refused key: credential-invalid", async () => {
		const agent = [...sim.org.agents.values()][0];
		const error = await finishedCallsTrigger(withRefusedKey(sim), [agent.id])
			.n8nProcess()
			.activate()
			.then(
				() => undefined,
				(e: unknown) => e as Declared,
			);
		expect(error?.httpCode).toBe('401');
		expect(error?.failure).toEqual({ cause: 'credential-invalid' });
	});
});
