import type { INodeParameters } from 'n8n-workflow';

import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { DEFAULT_TIMINGS, planCalls } from '../../simulator/index.cts';
import { phoneCall } from '../helpers/placement.cts';

/**
 * "Free the Worker While Waiting": the execution waits (n8n's `putExecutionToWait`), the calls'
 * own webhooks reach the node's `webhook()` through n8n's waiting-webhook steps, and the execution
 * resumes with the full records only once the status endpoint shows every call finished. See
 * harness/waitingExecution.cts for what of n8n's resume is reproduced with n8n-core.
 */

const SECOND = 1_000;
const MINUTE = 60_000;
const STATUS_READS = /^\/v1\/calls\/[^/]+\/status$/;

describe('Place AI Call and wait, freeing the worker (resume by the call webhooks)', () => {
	let sim: Simulator;
	let execution: WaitingExecution | undefined;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(async () => {
		await execution?.stop();
		execution = undefined;
		await sim.stop();
	});

	const parameters = (waitFor: string, extra: INodeParameters = {}): INodeParameters =>
		phoneCall(sim, {
			toNumber: '={{ $json.to }}',
			waitFor,
			waitOptions: { resumeByWebhook: true },
			...extra,
		});
	const waiting = (
		waitFor: string,
		items = [{ to: '+14155550199' }],
		extra: INodeParameters = {},
	) =>
		(execution = new WaitingExecution({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: parameters(waitFor, extra),
			items,
		}));
	/** Move the simulator clock a second at a time, so that each call step (and its webhook) runs on its own. */
	const advance = async (ms: number) => {
		for (let moved = 0; moved < ms; moved += SECOND) await sim.clock.advance(SECOND);
	};
	const events = () =>
		execution!.webhookCalls.map(
			(call) => `${String(call.payload.event)}:${call.resumed ? 'resumed' : 'waiting'}`,
		);

	it('the execution waits; "call started" does not resume it; "call ended" does, with the full record as the node\'s output', async () => {
		planCalls(sim).next({ talkMs: 2 * MINUTE });
		const run = await waiting('ended').start();

		expect(run.status).toBe('waiting');
		expect(run.finished).toBeFalsy();
		const [shown] = WaitingExecution.nodeItems(run);
		const callId = String(shown.call_id);
		expect(shown).toMatchObject({
			wait_status: 'waiting',
			message: expect.stringContaining(`Waiting for call ${callId}`),
		});
		// the call's own webhook URL is the execution's resume URL (n8n-core signs it with a resume token)
		expect(sim.org.calls.get(callId)!.webhook_url).toBe(
			`${execution!.resumeUrl}?signature=${run.data.resumeToken}`,
		);
		// the maximum wait: the agent's 10 minutes plus the 5-minute margin
		const waitTill = new Date(run.waitTill!).getTime();
		expect(waitTill - sim.clock.now()).toBeGreaterThan(15 * MINUTE - 5 * SECOND);
		expect(waitTill - sim.clock.now()).toBeLessThanOrEqual(15 * MINUTE);

		await advance(DEFAULT_TIMINGS.queueMs + DEFAULT_TIMINGS.ringMs + SECOND);
		expect(events()).toEqual(['call_started:waiting']);
		expect(execution!.saved).toBeDefined();
		// "call started" is never a call's last event: it costs no request
		expect(sim.requestsTo('GET', STATUS_READS)).toHaveLength(0);

		await advance(2 * MINUTE + DEFAULT_TIMINGS.finishedDelayMs);
		expect(events()).toEqual(['call_started:waiting', 'call_ended:resumed']);
		const resumed = execution!.resumedRun!;
		expect(resumed.finished).toBe(true);
		expect(resumed.status).toBe('success');
		// the node shows one run: the waiting one was replaced by the resumed one
		expect(resumed.data.resultData.runData['Voice Agent CRM']).toHaveLength(1);
		const output = resumed.data.resultData.runData['Voice Agent CRM'][0].data!.main[0]!;
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			id: callId,
			call_status: 'completed',
			call_result: 'answered',
			finished_at: expect.any(String),
			duration: 120,
		});
		expect(JSON.stringify(resumed.data)).not.toContain(sim.apiKey);
	});

	it('waiting for the analysis of two calls: it resumes only on the last transcript, with both records in item order', async () => {
		planCalls(sim)
			.next({ talkMs: 3 * MINUTE })
			.next({ talkMs: MINUTE });
		await waiting('analysis', [{ to: '+14155551001' }, { to: '+14155551002' }]).start();

		await advance(5 * MINUTE);
		// the second call ends first; nothing resumes before the first call's analysis
		expect(events().filter((e) => e.endsWith(':resumed'))).toEqual(['transcript_ready:resumed']);
		expect(events().at(-1)).toBe('transcript_ready:resumed');
		expect(
			events()
				.slice(0, -1)
				.every((e) => e.endsWith(':waiting')),
		).toBe(true);
		const output =
			execution!.resumedRun!.data.resultData.runData['Voice Agent CRM'][0].data!.main[0]!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output.map((item) => item.json.to)).toEqual(['+14155551001', '+14155551002']);
		for (const item of output)
			expect(item.json).toMatchObject({
				call_analysis: { summary: expect.any(String) },
				chat_history: expect.any(Array),
			});
	});

	it('a "call started" handled late, when the call has already ended, does not resume: the end event still to come does', async () => {
		planCalls(sim).next({ talkMs: 5 * MINUTE });
		const run = await waiting('ended').start();
		const callId = String(WaitingExecution.nodeItems(run)[0].call_id);
		// the call as a busy webhook process would find it when it gets to the start event
		Object.assign(sim.org.calls.get(callId)!, { phase: 'ended', finished: true });
		const post = (event: string) =>
			fetch(execution!.resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ event, call_id: callId, finished: event !== 'call_started' }),
			});
		expect((await post('call_started')).status).toBe(200);
		expect(execution!.resumedRun).toBeUndefined();
		expect((await post('call_ended')).status).toBe(200);
		expect(execution!.resumedRun?.status).toBe('success');
	});

	it('a forged "call ended" for a live call does not resume the execution: the status endpoint decides', async () => {
		planCalls(sim).next({ talkMs: 5 * MINUTE });
		const run = await waiting('ended').start();
		const callId = String(WaitingExecution.nodeItems(run)[0].call_id);
		await advance(30 * SECOND);
		const answer = await fetch(execution!.resumeUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				event: 'call_ended',
				call_id: callId,
				call_status: 'ended',
				finished: true,
			}),
		});
		expect(answer.status).toBe(200);
		expect(execution!.saved).toBeDefined();
		expect(execution!.resumedRun).toBeUndefined();
	});

	it('at the maximum wait the execution resumes with a clear timeout answer per call', async () => {
		planCalls(sim).next({ talkMs: 20 * MINUTE });
		const run = await waiting('ended', [{ to: '+14155550199' }], {
			waitOptions: { resumeByWebhook: true, maxWaitMinutes: 3 },
		}).start();
		const callId = String(WaitingExecution.nodeItems(run)[0].call_id);
		await advance(3 * MINUTE);
		expect(execution!.resumedRun).toBeUndefined();

		const resumed = await execution!.resumeAtTimeout();
		expect(resumed.finished).toBe(true);
		const [answer] = WaitingExecution.nodeItems(resumed);
		expect(answer).toMatchObject({ call_id: callId, wait_status: 'timed_out' });
		expect(answer.message).toBe(
			`Stopped waiting for call ${callId} after 3 minutes: the service did not report it finished. It may still be live. Get its outcome with Call → Get Status or Call → Get and this call ID.`,
		);
	});

	it("a Webhook URL of the user's own is refused before any request: the call has one, and this mode uses it", async () => {
		const before = sim.requests.length;
		const run = await waiting('ended', [{ to: '+14155550199' }], {
			additionalFields: { webhookUrl: 'https://hooks.example.test/x' },
		}).start();
		expect(run.data.resultData.error?.message).toBe(
			'Item 0: Additional Fields → Webhook URL must be empty when Wait Options → Free the Worker While Waiting is on',
		);
		expect(sim.requests.length).toBe(before);
	});
});
