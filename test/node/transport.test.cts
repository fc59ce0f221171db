import type { INodeParameters } from 'n8n-workflow';

import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import {
	budgetsOf,
	keepForCancels,
	observeRateHeaders,
	paceAfter,
	waitForBudgets,
} from '../../nodes/VoiceAgentCrm/transport/pacing';

const listVoices = { resource: 'agent', operation: 'listVoices' };

/** Every test on the fake clock: waits for 429s and budgets pass without waiting, and are measured on it. */
let time: FakeTime;
beforeEach(() => {
	time = installFakeTime();
});
afterEach(() => time.uninstall());
const run = (options: RunNodeOptions) => time.runUntilSettled(runNode(options));

describe('transport: rate limits, errors and the API key', () => {
	let sim: Simulator;
	afterEach(() => sim.stop());

	it('waits out a 429 with Retry-After and the item succeeds', async () => {
		sim = await startSimulator();
		sim.faults.inject({
			path: '/v1/agents/voices',
			fault: {
				status: 429,
				retryAfter: 1,
				body: { statusCode: 429, message: 'Too many requests' },
			},
		});
		const { items, error } = await run({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		const sent = sim.requestsTo('GET', '/v1/agents/voices');
		expect(sent.map((r) => r.status)).toEqual([429, 200]);
		expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(1000);
	});

	it('paces on X-RateLimit-Remaining: a budget at 0 waits for the reset instead of drawing a 429', async () => {
		sim = await startSimulator({ windowMs: 1500, fractionalSeconds: true, limits: { org: 2 } });
		const { items, error } = await run({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
			items: [{}, {}, {}, {}, {}],
		});
		expect(error).toBeUndefined();
		expect(new Set(items.map((i) => (i.pairedItem as { item: number }).item))).toEqual(
			new Set([0, 1, 2, 3, 4]),
		);
		const statuses = sim.requestsTo('GET', '/v1/agents/voices').map((r) => r.status);
		expect(statuses).toEqual([200, 200, 200, 200, 200]);
	});

	it('paces on the -heavy twin of the listing endpoints only for requests that draw on it', async () => {
		sim = await startSimulator();
		const context = {};
		observeRateHeaders(context, 'org', {
			'x-ratelimit-remaining-heavy': '0',
			'x-ratelimit-reset-heavy': '0.3',
		});
		const wait = (budget: 'org' | 'listing') =>
			time.runUntilSettled(waitForBudgets(context, budgetsOf(budget, false)), { stepMs: 10 });
		await wait('org');
		expect(time.elapsed()).toBeLessThan(250);
		await wait('listing');
		expect(time.elapsed()).toBeGreaterThanOrEqual(300);
	});

	it('fails clearly, naming the budget, when 429s do not stop', async () => {
		sim = await startSimulator();
		sim.faults.inject({
			path: '/v1/agents/voices',
			times: 20,
			fault: {
				status: 429,
				retryAfter: 0,
				headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '0' },
			},
		});
		const { error } = await run({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
		});
		expect(error?.message).toMatch(/rate limit/i);
		expect(error?.description).toMatch(/organization budget/);
		expect(sim.requestsTo('GET', '/v1/agents/voices').length).toBe(6);
	});

	it('a 401 tells the user to check the API key and never contains the key', async () => {
		sim = await startSimulator();
		const wrongKey = 'vak_this_key_is_wrong_123456';
		const failed = await run({
			credentials: { apiKey: wrongKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
		});
		expect(failed.error?.message).toMatch(/Check the API key/);
		const continued = await run({
			credentials: { apiKey: wrongKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
			continueOnFail: true,
		});
		expect(continued.items).toHaveLength(1);
		expect(continued.items[0].json.error).toMatch(/Check the API key/);
		expect(continued.items[0].json.httpCode).toBe('401');
		for (const text of [
			JSON.stringify(failed.error),
			failed.error?.message,
			failed.error?.description,
			JSON.stringify(continued.items),
		]) {
			expect(text ?? '').not.toContain(wrongKey);
		}
	});

	it('an HTML page instead of the API gives a clear error, not a crash', async () => {
		sim = await startSimulator();
		sim.faults.inject({
			path: '/v1/agents/voices',
			fault: { status: 200, rawBody: '<html><body>Welcome</body></html>' },
		});
		const { error } = await run({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: listVoices,
		});
		expect(error?.message).toMatch(/not JSON.*wrong Base URL/);
	});

	describe('a wrong Base URL is named as such, never as a missing ID', () => {
		const getAgent = (sim: Simulator) => ({
			resource: 'agent',
			operation: 'get',
			agentId: { __rl: true, mode: 'id', value: [...sim.org.agents.values()][0].id },
		});
		const runWith = (parameters: INodeParameters) =>
			run({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters });

		it('a web page answering 404 to a request with an ID says to check the Base URL', async () => {
			sim = await startSimulator();
			sim.faults.inject({
				path: /^\/v1\/agents\/[^/]+$/,
				fault: { status: 404, rawBody: '<html><body><h1>404 Not Found</h1></body></html>' },
			});
			const { error } = await runWith(getAgent(sim));
			expect(error?.message).toMatch(/web page, not the API: check the Base URL/);
			expect(error?.message).not.toMatch(/does not exist/);
		});

		it('a 404 on a list endpoint says to check the Base URL', async () => {
			sim = await startSimulator();
			sim.faults.inject({
				path: '/v1/agents/voices',
				fault: { status: 404, body: { statusCode: 404, message: 'Cannot GET /v1/agents/voices' } },
			});
			const { error } = await runWith(listVoices);
			expect(error?.message).toMatch(/no such list: check the Base URL in the credential/);
			expect(error?.message).not.toMatch(/does not exist/);
		});

		it('the API\'s own 404 to a request with an ID keeps the "not found in this organization" advice', async () => {
			sim = await startSimulator();
			const { error } = await runWith({
				resource: 'agent',
				operation: 'get',
				agentId: { __rl: true, mode: 'id', value: '00000000-0000-4000-8000-000000000000' },
			});
			expect(error?.message).toMatch(/^Not found in this organization/);
		});
	});
});

describe('transport: pacing on the organization budget shared by concurrent executions', () => {
	const now = 1_000_000;
	const resetAt = now + 30_000;
	/** This execution's pace after `own` of its requests, the window having started at `windowRemaining` `ago` ms before. */
	const window = (windowRemaining: number, own: number, ago: number, remaining: number) => ({
		remaining,
		resetAt,
		nextAt: 0,
		spacing: 0,
		windowRemaining,
		windowSeenAt: now - ago,
		own: own - 1,
	});

	it('a lone execution keeps its pace: everything drawn in the window was its own', () => {
		expect(paceAfter(window(100, 10, 1000, 91), 90, resetAt, now).nextAt).toBe(0);
	});

	it('spreads its share of what is left up to the reset when others draw faster than the budget lasts', () => {
		// 60 drawn in 1 s, 10 of them its own: a sixth of the 40 left, spread over the 30 s to the reset
		expect(paceAfter(window(100, 10, 1000, 41), 40, resetAt, now).nextAt).toBe(
			now + 30_000 / (40 / 6),
		);
	});

	it('does not slow down while the budget lasts to the reset at the current pace', () => {
		expect(paceAfter(window(100, 2, 60_000, 91), 90, resetAt, now).nextAt).toBe(0);
	});

	it('waits for the reset at 0, or when less than two requests of what is left are its own', () => {
		expect(paceAfter(window(100, 2, 1000, 1), 0, resetAt, now).nextAt).toBe(resetAt);
		expect(paceAfter(window(100, 5, 1000, 16), 15, resetAt, now).nextAt).toBe(resetAt);
	});

	it('starts over in a new window: the budget went up', () => {
		const next = paceAfter(window(100, 5, 1000, 11), 119, now + 60_000, now);
		expect(next).toMatchObject({ nextAt: 0, own: 1, windowRemaining: 120 });
	});

	it('requests in flight count against what remains: with 2 left, the third request waits for the reset', async () => {
		const context = {};
		observeRateHeaders(context, 'org', {
			'x-ratelimit-remaining': '2',
			'x-ratelimit-reset': '0.3',
		});
		const wait = () => time.runUntilSettled(waitForBudgets(context, ['org']), { stepMs: 10 });
		await wait();
		await wait();
		expect(time.elapsed()).toBeLessThan(250);
		await wait();
		expect(time.elapsed()).toBeGreaterThanOrEqual(300);
	});

	it("executions pace together per API key at a Base URL, whichever credential holds it: another key's spent budget holds nothing", async () => {
		/** An execution's context whose credential (the same one, edited) holds `apiKey`. */
		const execution = (apiKey: string) => ({
			getCredentials: async () => await Promise.resolve({ apiKey, baseUrl: 'http://127.0.0.1:1' }),
			getNode: () => ({ credentials: { voiceAgentCrmApi: { id: 'cred-1', name: 'CRM' } } }),
		});
		const first = execution('vak_one');
		await waitForBudgets(first, ['org']);
		observeRateHeaders(first, 'org', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' });
		const turnOf = async (context: object) => {
			const from = time.now();
			await time.runUntilSettled(waitForBudgets(context, ['org']), { stepMs: 100 });
			return time.now() - from;
		};
		expect(await turnOf(execution('vak_two'))).toBeLessThan(250);
		expect(await turnOf(execution('vak_one'))).toBeGreaterThanOrEqual(29_000);
	});

	describe('the clock set back an hour (an NTP step, a machine resumed): what was recorded later holds no request', () => {
		const HOUR = 3_600_000;
		const answer = (context: object, remaining: number) =>
			observeRateHeaders(context, 'org', {
				'x-ratelimit-remaining': String(remaining),
				'x-ratelimit-reset': '30',
			});
		/** Goes back an hour, then waits for a turn on the organization budget: the fake time it took. */
		async function waitAfterGoingBack(context: object, meanwhile = () => {}): Promise<number> {
			time.clock.setSystemTime(time.now() - HOUR);
			const back = time.now();
			meanwhile();
			await time.runUntilSettled(waitForBudgets(context, ['org']), { stepMs: 10 });
			return time.now() - back;
		}

		it('a budget spent until a reset recorded before the clock went back', async () => {
			const context = {};
			answer(context, 0);
			expect(await waitAfterGoingBack(context)).toBeLessThan(250);
		});

		it('a request sent before the clock went back and never answered', async () => {
			const context = {};
			answer(context, 2);
			await waitForBudgets(context, ['org']);
			await waitForBudgets(context, ['org']);
			// one of the two is answered after the clock went back, with 1 left
			expect(await waitAfterGoingBack(context, () => answer(context, 1))).toBeLessThan(250);
		});
	});

	describe('requests kept for cancels: 3 left, 2 kept', () => {
		/** The organization budget with 3 requests left until a reset 0.3 s on, 2 kept for cancels. */
		async function budgetWithTwoKept() {
			const context = {};
			observeRateHeaders(context, 'org', {
				'x-ratelimit-remaining': '3',
				'x-ratelimit-reset': '0.3',
			});
			await keepForCancels(context, 2);
			const wait = (urgent = false) =>
				time.runUntilSettled(waitForBudgets(context, ['org'], undefined, urgent), {
					stepMs: 10,
				});
			return { context, wait };
		}

		it('one request goes and the next waits for the reset', async () => {
			const { wait } = await budgetWithTwoKept();
			await wait();
			expect(time.elapsed()).toBeLessThan(250);
			await wait();
			expect(time.elapsed()).toBeGreaterThanOrEqual(300);
		});

		it('after a request, the two cancels (urgent) go at once', async () => {
			const { wait } = await budgetWithTwoKept();
			await wait();
			await wait(true);
			await wait(true);
			expect(time.elapsed()).toBeLessThan(250);
		});

		it('given back, three requests go at once', async () => {
			const { context, wait } = await budgetWithTwoKept();
			await keepForCancels(context, -2);
			await wait();
			await wait();
			await wait();
			expect(time.elapsed()).toBeLessThan(250);
		});
	});

	describe('a lone execution counts all its own draws, so it is not slowed as if others drew', () => {
		let sim: Simulator;
		beforeEach(async () => {
			sim = await startSimulator();
		});
		afterEach(() => sim.stop());

		const fiveReads = { parameters: listVoices, items: Array.from({ length: 5 }, () => ({})) };
		/** The runs one after another in one burst on the fake clock, as the pacing's window sees them. */
		const inTurn = (runs: Array<Omit<RunNodeOptions, 'credentials'>>) =>
			time.runUntilSettled(
				(async () => {
					const done = [];
					for (const options of runs)
						done.push(
							await runNode({
								credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
								...options,
							}),
						);
					return done;
				})(),
			);
		/** From the first List Voices request to the last: 0 when none waited for a paced turn. */
		const readsSpread = () => {
			const at = sim.requestsTo('GET', '/v1/agents/voices').map((r) => r.at);
			return at.at(-1)! - at[0];
		};

		it('on the IP budget, which listing answers alone report', async () => {
			const listOneContact = { parameters: { resource: 'contact', operation: 'getAll', limit: 1 } };
			// every IP draw the second listing reports was the execution's own
			const runs = await inTurn([listOneContact, fiveReads, listOneContact, fiveReads]);
			expect(runs.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
			expect(sim.requestsTo('GET', '/v1/agents/voices')).toHaveLength(10);
			expect(readsSpread()).toBe(0);
		});

		it('with a recording downloaded from the service, on the organization budget', async () => {
			const call = insertCall(sim, { phase: 'ended', duration: 5 });
			const getWithRecording = {
				parameters: {
					resource: 'call',
					operation: 'get',
					callId: call.id,
					downloadRecording: true,
					recordingBinaryProperty: 'audio',
				},
				items: [{}, {}, {}],
			};
			const [downloads, reads] = await inTurn([getWithRecording, fiveReads]);
			expect(downloads.items.map((i) => i.binary?.audio !== undefined)).toEqual([true, true, true]);
			expect(reads.error).toBeUndefined();
			expect(readsSpread()).toBe(0);
		});
	});

	it('eight executions at once drawing 240 requests from a budget of 40 per 2 s: all succeed, none draws a 429', async () => {
		const sim = await startSimulator({
			windowMs: 2000,
			fractionalSeconds: true,
			limits: { org: 40 },
		});
		try {
			const runs = await time.runUntilSettled(
				Promise.all(
					Array.from({ length: 8 }, () =>
						runNode({
							credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
							parameters: listVoices,
							items: Array.from({ length: 30 }, () => ({})),
						}),
					),
				),
				{ stepMs: 50 },
			);
			expect(runs.map((r) => r.error)).toEqual(Array(8).fill(undefined));
			expect(runs.map((r) => r.items.length)).toEqual(Array(8).fill(30 * 5)); // five voices per item
			const statuses = sim.requestsTo('GET', '/v1/agents/voices').map((r) => r.status);
			const limited = statuses.filter((s) => s === 429).length;
			expect(statuses.length - limited).toBe(240);
			// on the fake clock the windows are exact: executions of one process that share their view of
			// the budget never draw a 429
			expect(limited).toBe(0);
		} finally {
			await sim.stop();
		}
	}, 60_000);
});
