import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun, type RunNodeOptions } from '../../harness/engine.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { contactCall, firstAgent, johnAndMadrid, phoneCall } from '../helpers/placement.cts';
import type { Simulator } from '../../simulator/index.cts';
import { DEFAULT_TIMINGS, planCalls } from '../../simulator/index.cts';

/**
 * Place AI Call with "Wait for Outcome", polling: the engine runs the node against the simulator
 * while fake time moves (see harness/fakeTime.cts), so minutes of calls take a second.
 */

const PHONE_CALLS = '/v1/calls/single-phone-call';
const STATUS_READS = /^\/v1\/calls\/[^/]+\/status$/;
const RECORD_READS = /^\/v1\/calls\/[0-9a-f-]{36}$/;
const SECOND = 1_000;
const MINUTE = 60_000;

describe('Place AI Call and wait for its outcome (polling)', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const placeAndWait = (waitFor: string, extra: INodeParameters = {}): INodeParameters =>
		phoneCall(sim, { toNumber: '={{ $json.to ?? "+14155550199" }}', waitFor, ...extra });
	const run = (
		parameters: INodeParameters,
		extra: Partial<RunNodeOptions> = {},
		drive: Parameters<FakeTime['runUntilSettled']>[1] = {},
	): Promise<NodeRun> =>
		time.runUntilSettled(
			runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters, ...extra }),
			drive,
		);
	const statusReads = () => sim.requestsTo('GET', STATUS_READS);

	it('a call that ends after 3 minutes comes back with its analysis and transcript; status reads stay within duration / 5 s + 2', async () => {
		planCalls(sim).next({ talkMs: 3 * MINUTE });
		const startedAt = time.now();
		const { items, error } = await run(placeAndWait('analysis'));
		const waited = time.now() - startedAt;

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const record = items[0].json;
		expect(record).toMatchObject({
			call_status: 'completed',
			call_result: 'answered',
			call_analysis: { summary: expect.any(String), sentiment: expect.any(String) },
			call_record: expect.stringMatching(/^http.*\/recording$/),
			transcript_format: 'json',
		});
		expect((record.chat_history as unknown[]).length).toBeGreaterThan(0);
		// the call's own life: queue, ringing, 3 minutes of talk, then the analysis 30 s after hang-up
		const analysisAt =
			DEFAULT_TIMINGS.queueMs +
			DEFAULT_TIMINGS.ringMs +
			3 * MINUTE +
			DEFAULT_TIMINGS.analysisDelayMs;
		expect(waited).toBeGreaterThanOrEqual(analysisAt);
		expect(waited).toBeLessThan(analysisAt + 10 * SECOND);
		expect(statusReads().length).toBeLessThanOrEqual(Math.floor(waited / (5 * SECOND)) + 2);
		// status reads never closer than 5 s
		const gaps = statusReads()
			.slice(1)
			.map((r, i) => r.at - statusReads()[i].at);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5 * SECOND);
		// one record read once finished, then one every 5 s until the analysis arrived 27 s later
		expect(sim.requestsTo('GET', RECORD_READS).length).toBeLessThanOrEqual(8);
		expect(sim.requestsTo('GET', /^\/v1\/agents\//)).toHaveLength(1);
		expect(JSON.stringify(items)).not.toContain(sim.apiKey);
	});

	it('"until the call ends" returns the record as soon as the call is finished, with the transcript options of Get', async () => {
		planCalls(sim).next({ talkMs: 2 * MINUTE });
		const { items, error } = await run(
			placeAndWait('ended', { transcriptOptions: { includeTranscript: false } }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			call_status: 'completed',
			finished_at: expect.any(String),
		});
		expect(items[0].json.chat_history).toBeUndefined();
		expect(sim.requestsTo('GET', RECORD_READS)).toHaveLength(1);
		expect(sim.requestsTo('GET', RECORD_READS)[0].query).toEqual({ include_transcript: 'false' });
	});

	it('Place AI Call to Contact waits the same way', async () => {
		planCalls(sim).next({ talkMs: MINUTE });
		const { items, error } = await run(contactCall(sim, { waitFor: 'analysis' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			call_status: 'completed',
			contact: { id: johnAndMadrid(sim).contact.id },
			call_analysis: { summary: expect.any(String) },
		});
	});

	it('a call nobody answers comes back at once when finished, even waiting for the analysis (there is none)', async () => {
		planCalls(sim).next({ result: 'no_answer', ringMs: 30 * SECOND });
		const { items, error } = await run(placeAndWait('analysis'));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			call_status: 'no-answer',
			call_analysis: null,
			start_at: null,
		});
		expect(time.elapsed()).toBeLessThan(2 * MINUTE);
	});

	it('a 429 while polling slows the loop for a minute and loses nothing', async () => {
		planCalls(sim).next({ talkMs: 3 * MINUTE });
		let injectedAt: number | undefined;
		const { items, error } = await run(
			placeAndWait('analysis'),
			{},
			{
				onStep: () => {
					if (injectedAt === undefined && time.elapsed() >= MINUTE) {
						injectedAt = sim.clock.now();
						sim.faults.inject({
							method: 'GET',
							path: STATUS_READS,
							fault: { status: 429, retryAfter: 3 },
						});
					}
				},
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			call_status: 'completed',
			call_analysis: { summary: expect.any(String) },
		});
		const reads = statusReads();
		const limited = reads.findIndex((r) => r.status === 429);
		expect(limited).toBeGreaterThan(0);
		// the transport waited the Retry-After and read again: that read answered
		expect(reads[limited + 1].status).toBe(200);
		expect(reads[limited + 1].at - reads[limited].at).toBeGreaterThanOrEqual(3 * SECOND);
		// then the loop read every 10 s instead of 5 s for a minute (counted from the read that met the 429)
		const after = [
			reads[limited],
			...reads.slice(limited + 2).filter((r) => r.at < reads[limited].at + MINUTE),
		];
		const gaps = after.slice(1).map((r, i) => r.at - after[i].at);
		expect(gaps.length).toBeGreaterThan(3);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(10 * SECOND);
		// and back to 5 s afterwards
		const later = reads.filter((r) => r.at > reads[limited].at + MINUTE + 10 * SECOND);
		expect(later.slice(1).some((r, i) => r.at - later[i].at < 10 * SECOND)).toBe(true);
	});

	it('ten items place ten calls of different lengths, all placed before any is awaited; the wait is close to the longest call', async () => {
		const talks = [90, 30, 240, 60, 150, 45, 300, 120, 75, 200].map((s) => s * SECOND);
		for (const talkMs of talks) planCalls(sim).next({ talkMs });
		const items = talks.map((_, i) => ({ to: `+1415555${String(1000 + i)}` }));
		const startedAt = time.now();
		const result = await run(placeAndWait('ended'), { items });
		const waited = time.now() - startedAt;

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(10);
		expect(result.items.map((i) => i.pairedItem)).toEqual(talks.map((_, item) => ({ item })));
		const placements = sim.requestsTo('POST', PHONE_CALLS);
		expect(placements).toHaveLength(10);
		// every call placed before the first status read
		expect(Math.max(...placements.map((r) => r.at))).toBeLessThanOrEqual(statusReads()[0].at);
		result.items.forEach((item, i) => {
			expect(item.json).toMatchObject({ call_status: 'completed', to: items[i].to });
			expect(item.json.duration).toBe(talks[i] / SECOND);
		});
		// one agent read for the ten items (same agent)
		expect(sim.requestsTo('GET', /^\/v1\/agents\//)).toHaveLength(1);
		const longest =
			DEFAULT_TIMINGS.queueMs +
			DEFAULT_TIMINGS.ringMs +
			Math.max(...talks) +
			DEFAULT_TIMINGS.finishedDelayMs;
		const sum = talks.reduce((a, b) => a + b, 0);
		expect(waited).toBeGreaterThanOrEqual(longest);
		expect(waited).toBeLessThan(longest + 20 * SECOND);
		expect(waited).toBeLessThan(sum / 4);
		// within half the organization budget: no 429 at all
		expect(sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
	});

	it('a 500 on placement fails that item without a second placement; the other items are awaited', async () => {
		const callsBefore = sim.org.calls.size;
		sim.faults.inject({
			method: 'POST',
			path: PHONE_CALLS,
			fault: { status: 500, afterHandling: true },
		});
		const { items, error } = await run(placeAndWait('ended'), {
			items: [{ to: '+14155551001' }, { to: '+14155551002' }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			pairedItem: { item: 0 },
			json: { error: expect.stringMatching(/may have been placed.*HTTP 500/) },
		});
		expect(items[1]).toMatchObject({
			pairedItem: { item: 1 },
			json: { call_status: 'completed', to: '+14155551002' },
		});
		// one request per item, and the store holds exactly one call per number: none placed twice
		expect(sim.requestsTo('POST', PHONE_CALLS)).toHaveLength(2);
		const calls = [...sim.org.calls.values()].slice(callsBefore);
		expect(calls.map((c) => c.to).sort()).toEqual(['+14155551001', '+14155551002']);
		// the call whose answer was lost is not followed
		expect(statusReads().every((r) => r.path.includes(String(items[1].json.id)))).toBe(true);
	});

	it('a 500 on placement without Continue On Fail stops the run after one placement request', async () => {
		const callsBefore = sim.org.calls.size;
		sim.faults.inject({
			method: 'POST',
			path: PHONE_CALLS,
			fault: { status: 500, afterHandling: true },
		});
		const { error } = await run(placeAndWait('analysis'));
		expect(error?.message).toMatch(/may have been placed/);
		expect(sim.requestsTo('POST', PHONE_CALLS)).toHaveLength(1);
		expect(sim.org.calls.size).toBe(callsBefore + 1);
		expect(statusReads()).toHaveLength(0);
	});

	it('a timeout says the call is still live, names it and what to do, and leaves it running', async () => {
		planCalls(sim).next({ talkMs: 10 * MINUTE });
		const { items, error } = await run(
			placeAndWait('ended', { waitOptions: { maxWaitMinutes: 2 } }),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		const json = items[0].json as IDataObject;
		const callId = String(json.call_id);
		expect(json.error).toBe(
			`Call ${callId} is still live (in progress) after waiting 2 minutes. The node stopped waiting; the call goes on.`,
		);
		expect(json.description).toMatch(
			/Call → Get Status or Call → Get and this call ID.*Hang Up at Timeout/,
		);
		expect(json).toMatchObject({ call_status: 'in_progress', timed_out: true, hung_up: false });
		expect(time.elapsed()).toBeLessThan(2 * MINUTE + 10 * SECOND);
		expect(sim.org.calls.get(callId)!.phase).toBe('in_progress');
		expect(sim.requestsTo('POST', /\/stop$/)).toHaveLength(0);
	});

	it('without Continue On Fail the timeout fails the run with the same message', async () => {
		planCalls(sim).next({ talkMs: 10 * MINUTE });
		const { error } = await run(placeAndWait('ended', { waitOptions: { maxWaitMinutes: 1 } }));
		expect(error?.message).toMatch(
			/^Call [0-9a-f-]{36} is still live \(in progress\) after waiting 1 minute\. The node stopped waiting/,
		);
	});

	it('with Hang Up at Timeout the call is stopped at the timeout, and the answer says so', async () => {
		planCalls(sim).next({ talkMs: 10 * MINUTE });
		const { items } = await run(
			placeAndWait('analysis', { waitOptions: { maxWaitMinutes: 2, hangUpAtTimeout: true } }),
			{ continueOnFail: true },
		);
		const json = items[0].json as IDataObject;
		expect(json.error).toMatch(
			/is still live \(in progress\) after waiting 2 minutes, so it was hung up \(Hang Up at Timeout is on\)/,
		);
		expect(json).toMatchObject({ hung_up: true, timed_out: true });
		expect(sim.requestsTo('POST', /\/stop$/)).toHaveLength(1);
		expect(sim.org.calls.get(String(json.call_id))).toMatchObject({
			phase: 'ended',
			disconnection_reason: 'user_hangup',
		});
	});

	it("the default maximum wait is the agent's max_call_duration_ms plus 5 minutes", async () => {
		firstAgent(sim).max_call_duration_ms = 2 * MINUTE;
		planCalls(sim).next({ talkMs: 30 * MINUTE });
		const { items } = await run(placeAndWait('ended'), { continueOnFail: true });
		expect(items[0].json.error).toMatch(/still live \(in progress\) after waiting 7 minutes/);
	});

	it('bad wait options fail before any request, naming item, field and expectation', async () => {
		const before = sim.requests.length;
		const { items } = await run(
			placeAndWait('ended', { waitOptions: { maxWaitMinutes: '={{ $json.max }}' } }),
			{ items: [{ max: -3 }, { max: 'soon' }], continueOnFail: true },
		);
		expect(items.map((i) => i.json.error)).toEqual([
			expect.stringMatching(
				/^Item 0: Wait Options → Max Wait \(Minutes\): must be a number of minutes, 0 or more/,
			),
			expect.stringMatching(
				/^Item 1: Wait Options → Max Wait \(Minutes\): must be a number of minutes, 0 or more/,
			),
		]);
		expect(sim.requests.length).toBe(before);
	});
});
