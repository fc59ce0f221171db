import { runNode } from '../../harness/engine.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import { campaignParameters, EVERY_DAY } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { insertCall, planCalls, type Simulator } from '../../simulator/index.cts';

/**
 * Run Campaign failing after it placed calls (docs/faults.md: an error names every write already
 * made): the error names each call that will ring (item, call ID, when) and what running the same
 * list again does; with Continue On Fail the people's items come out instead, each with its call.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('Run Campaign: a failure after placing names the live calls', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

	const people = [1, 2, 3, 4].map((n) => ({ to: `+44207946020${n}`, name: `P${n}` }));
	const campaign = () =>
		campaignParameters(sim, {
			...{ maxLiveCalls: 2, callDays: EVERY_DAY, callFrom: '00:00', callUntil: '24:00' },
			redialOn: [],
		});

	/** The campaign's first step places and settles two calls; then every listing answers an HTML 503. */
	async function failingAfterTwoPlacements(continueOnFail: boolean) {
		planCalls(sim).byDefault({ talkMs: 2 * MINUTE });
		const running = runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: campaign(),
			items: people,
			continueOnFail,
		});
		const placed = () => [...sim.org.calls.values()].filter((call) => call.metadata?.n8n_campaign);
		await time.advance(5 * SECOND, { onStep: () => sim.clock.runDue() });
		expect(placed()).toHaveLength(2);
		sim.faults.inject({
			method: 'GET',
			path: '/v1/calls',
			times: 1_000,
			fault: { status: 503, rawBody: '<html><body>Bad gateway</body></html>' },
		});
		const run = await time.runUntilSettled(running, {
			onStep: () => sim.clock.runDue(),
			nextDueAt: nextDueAfterQuiet(sim),
			maxMs: 10 * MINUTE,
		});
		return { run, placed: placed() };
	}

	it('fails naming each call that will ring, its item and its start, and what a re-run does', async () => {
		const { run, placed } = await failingAfterTwoPlacements(false);
		const error = run.error as Error & { description?: string };
		expect(error.message).toMatch(
			/^The service failed to answer.*2 calls of the campaign will ring all the same; running the same list again goes on with them and calls nobody twice$/,
		);
		for (const call of placed) {
			const item = people.findIndex(({ to }) => to === call.to);
			expect(error.description).toContain(`Item ${item} (${call.to}): call ${call.id}`);
		}
		expect(error.description).toMatch(/Running the same list again .* skips who was called/);
	});

	it('with Continue On Fail, answers every person’s item, the live calls on theirs', async () => {
		const { run, placed } = await failingAfterTwoPlacements(true);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(4);
		expect(run.items.map((item) => item.json.campaign_status)).toEqual(Array(4).fill('unfinished'));
		for (const call of placed) {
			const item = run.items[people.findIndex(({ to }) => to === call.to)].json;
			expect(item.call_id).toBe(call.id);
			expect(item.reason).toMatch(
				new RegExp(
					`^Call ${call.id} is scheduled for .* and will ring; Not called yet\\. The campaign stopped following its calls: The service failed to answer`,
				),
			);
		}
	});

	it('Free the Worker While Waiting: a number the service refused is refused once, not placed again at each call end', async () => {
		planCalls(sim).byDefault({ talkMs: MINUTE });
		// the campaign's first placement (the first person's) is refused
		sim.faults.inject({
			method: 'POST',
			path: '/v1/calls/single-phone-call',
			fault: { status: 400, body: { statusCode: 400, message: 'to_number is not reachable' } },
		});
		const execution = new WaitingExecution({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { ...campaign(), maxLiveCalls: 1, campaignOptions: { resumeByWebhook: true } },
			items: people,
		});
		const onStep = () => sim.clock.runDue();
		try {
			await time.runUntilSettled(execution.start(), {
				onStep,
				nextDueAt: nextDueAfterQuiet(sim),
			});
			await time.runUntilSettled(
				new Promise<void>((resolve) => {
					const check = () => (execution.resumedRun ? resolve() : setImmediate(check));
					check();
				}),
				{ onStep, nextDueAt: nextDueAfterQuiet(sim), maxMs: HOUR },
			);
			const items = WaitingExecution.nodeItems(execution.resumedRun);
			expect(items.map((item) => item.campaign_status)).toEqual([
				'refused',
				'called',
				'called',
				'called',
			]);
			// the service's own words (the refusal's message)
			expect(items[0].reason).toBe('The service refused the call: to_number is not reachable');
			// one refused placement, then one for each of the others: the refused number never again
			expect(sim.requestsTo('POST', '/v1/calls/single-phone-call')).toHaveLength(4);
		} finally {
			await execution.stop();
		}
	});

	it('a placement held by a 429 past its latest sending time is not sent, then placed anew: nobody refused for a start in the past', async () => {
		planCalls(sim).byDefault({ talkMs: MINUTE });
		sim.faults.inject({
			method: 'POST',
			path: '/v1/calls/single-phone-call',
			fault: {
				status: 429,
				retryAfter: 30,
				body: { statusCode: 429, message: 'Too many requests' },
			},
		});
		const run = await time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: campaign(),
				items: people,
			}),
			{ onStep: () => sim.clock.runDue(), nextDueAt: nextDueAfterQuiet(sim), maxMs: HOUR },
		);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.campaign_status)).toEqual(Array(4).fill('called'));
		const placements = sim.requestsTo('POST', '/v1/calls/single-phone-call');
		// the 429, then one placement a person: the held one was dropped, not sent 30 s late
		expect(placements.map((request) => request.status)).toEqual([429, 201, 201, 201, 201]);
	});

	it('an agent with 25,000 calls in Remember Calls For still runs a campaign: the first look reads them all, paced', async () => {
		const agentId = [...sim.org.agents.values()][0].id;
		const now = Date.now();
		// over the 7 days remembered, older first: the list is read newest first down to them
		for (let n = 0; n < 25_000; n++) {
			const at = new Date(now - 6 * 86_400_000 + n * 20_000).toISOString();
			insertCall(sim, { agent_id: agentId, created_at: at, finished_at: at });
		}
		planCalls(sim).byDefault({ talkMs: MINUTE });
		const run = await time.runUntilSettled(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: campaign(),
				items: people,
			}),
			{ onStep: () => sim.clock.runDue(), nextDueAt: nextDueAfterQuiet(sim), maxMs: HOUR },
		);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.campaign_status)).toEqual(Array(4).fill('called'));
		const listings = sim.requestsTo('GET', '/v1/calls');
		// the first look: 26 pages (the seeded calls too), never past the listing budget's pace
		expect(listings.length).toBeGreaterThanOrEqual(26);
		expect(listings.every((request) => request.status === 200)).toBe(true);
	});
});
