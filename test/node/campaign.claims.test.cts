import type { IDataObject } from 'n8n-workflow';

import { peakLive } from '../../harness/callLog.cts';
import { runNode, type NodeRun } from '../../harness/engine.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import { campaignParameters, EVERY_DAY } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import {
	planCalls,
	seededRandom,
	simulatorRequest,
	type Call,
	type FaultRule,
	type Simulator,
} from '../../simulator/index.cts';

/**
 * Run Campaign's claims (docs/campaigns.md, "Never the same person twice"): executions started at
 * once over overlapping lists longer than Max Live Calls, so that each claims people in several
 * steps, with idle budgets and with the faults that delay a look (a 429, an HTML 503, a listing
 * that lags, another workflow drawing the organization budget). Measured from the simulator's
 * call log: numbers that rang in two campaigns, rung calls on no item, the most live at once.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** Twelve London numbers, each written in one of several forms the node reads as the same E.164. */
const FORMS = [
	(n: string) => `+4420794602${n}`,
	(n: string) => `+44 20 7946 02${n}`,
	(n: string) => `+44 (20) 7946-02${n}`,
	(n: string) => `+44 (0) 20 7946 02${n}`,
];
const londoner = (n: number, form = 0) => ({
	to: FORMS[form % FORMS.length](String(n).padStart(2, '0')),
	name: `P${n}`,
});

/**
 * `count` lists of `size` people drawn from a pool (seeded), each in the pool's order, so that
 * the people lists share come early in each of them, as lists cut from one sheet do.
 */
function overlappingLists(count: number, size: number, pool: number, seed: number) {
	const random = seededRandom(seed);
	return Array.from({ length: count }, (_, list) => {
		const drawn = new Set<number>();
		while (drawn.size < size) drawn.add(Math.floor(random() * pool));
		return [...drawn].sort((a, b) => a - b).map((n, at) => londoner(n, list + at));
	});
}

describe('Run Campaign: never the same person twice, lists longer than Max Live Calls', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	// a Monday at 10:00 in London: the window is open
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

	const agent = () => [...sim.org.agents.values()][0];
	const campaign = () =>
		campaignParameters(sim, {
			...{ maxLiveCalls: 3, callDays: EVERY_DAY, callFrom: '00:00', callUntil: '24:00' },
			redialOn: [],
		});

	/** Another workflow on the same organization: `perMinute` light requests a minute, paced evenly. */
	function drawOrganizationBudget(perMinute: number): () => void {
		const timer = setInterval(
			() => void simulatorRequest(sim, 'GET', `/v1/agents/${agent().id}`).catch(() => undefined),
			MINUTE / perMinute,
		);
		return () => clearInterval(timer);
	}

	/** The calls campaigns placed (the simulator's seeded calls left out). */
	const campaignCalls = () =>
		[...sim.org.calls.values()].filter((call) => call.metadata?.n8n_campaign !== undefined);

	interface Measure {
		runs: Array<Pick<NodeRun, 'items' | 'error'>>;
		/** Numbers that rang in two or more calls (every list is called once: no redials). */
		twice: string[];
		/** Rung calls that no item of any run names. */
		onNoItem: string[];
		/** The most live at once of one campaign. */
		peak: number;
	}

	/**
	 * The runs' first looks answered together, once every run sent its own: started at once, as
	 * a Schedule Trigger or several webhooks start them, none sees another's claims in its first look.
	 */
	function startTogether(runs: number) {
		let arrived = 0;
		let release = () => {};
		const together = new Promise<void>((resolve) => (release = resolve));
		const stopCounting = sim.onRequest((request) => {
			if (request.method !== 'GET' || request.path !== '/v1/calls') return;
			if (++arrived === runs) {
				stopCounting();
				release();
			}
		});
		sim.faults.inject({
			method: 'GET',
			path: '/v1/calls',
			times: runs,
			fault: { until: together },
		});
	}

	type List = Array<{ to: string; name: string }>;
	/** How one execution of the campaign runs a list: its items, or its error. */
	type Execute = (items: List, at: number) => Promise<Pick<NodeRun, 'items' | 'error'>>;

	const holdingTheWorker: Execute = (items, at) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: campaign(),
			items,
			executionId: `exec-${at}`,
		});

	const waiting: WaitingExecution[] = [];
	afterEach(async () => {
		for (const execution of waiting.splice(0)) await execution.stop();
	});
	/** Free the Worker While Waiting: the execution waits, each call end takes a step, the last resumes it. */
	const freeingTheWorker: Execute = async (items) => {
		const execution = new WaitingExecution({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { ...campaign(), campaignOptions: { resumeByWebhook: true } },
			items,
		});
		waiting.push(execution);
		await execution.start();
		await new Promise<void>((resolve) => {
			const check = () => (execution.resumedRun ? resolve() : setImmediate(check));
			check();
		});
		return {
			items: WaitingExecution.nodeItems(execution.resumedRun).map((json) => ({ json })),
			error: undefined,
		};
	};

	async function race(lists: List[], execute = holdingTheWorker): Promise<Measure> {
		planCalls(sim).byDefault({ talkMs: 30 * SECOND });
		startTogether(lists.length);
		const runs = await time.runUntilSettled(Promise.all(lists.map(execute)), {
			onStep: () => sim.clock.runDue(),
			nextDueAt: nextDueAfterQuiet(sim),
			stepMs: SECOND,
			maxMs: 6 * 60 * MINUTE,
		});
		// calls placed at the end of a run finish after it: let them ring out
		await time.advance(3 * MINUTE, { onStep: () => sim.clock.runDue() });
		const rang = campaignCalls().filter((call) => call.phase !== 'canceled');
		const byNumber = new Map<string, Call[]>();
		for (const call of rang) byNumber.set(call.to, [...(byNumber.get(call.to) ?? []), call]);
		const named = new Set(
			runs.flatMap(({ items }) =>
				items.flatMap((item) => [
					item.json.call_id,
					...((item.json.attempts as IDataObject[] | undefined) ?? []).map(
						(attempt) => attempt.call_id,
					),
				]),
			),
		);
		const byCampaign = new Map<string, Call[]>();
		for (const call of rang) {
			const key = String(call.metadata?.n8n_campaign);
			byCampaign.set(key, [...(byCampaign.get(key) ?? []), call]);
		}
		if (process.env.CAMPAIGN_CLAIMS_REPORT)
			console.log(
				JSON.stringify({
					twice: [...byNumber].filter(([, calls]) => calls.length > 1).length,
					people: byNumber.size,
					onNoItem: rang.filter((call) => !named.has(call.id)).length,
					canceled: campaignCalls().length - rang.length,
					peak: Math.max(0, ...[...byCampaign.values()].map(peakLive)),
					errors: runs.map(({ error }) => error?.message ?? null),
				}),
			);
		return {
			runs,
			twice: [...byNumber].filter(([, calls]) => calls.length > 1).map(([to]) => to),
			onNoItem: rang.filter((call) => !named.has(call.id)).map((call) => call.id),
			peak: Math.max(0, ...[...byCampaign.values()].map(peakLive)),
		};
	}

	/** The people of the lists: their numbers as digits, whatever form each is written in. */
	const peopleOf = (lists: Array<Array<{ to: string }>>) =>
		new Set(lists.flat().map(({ to }) => to.replace('(0)', '').replace(/\D/g, ''))).size;

	/** The draws of the lists each shape is run with (`CAMPAIGN_CLAIMS_SEEDS=1,2,3` for more). */
	const SEEDS = (process.env.CAMPAIGN_CLAIMS_SEEDS ?? '7').split(',').map(Number);

	async function expectOnceIn(lists: List[], execute?: Execute) {
		const measure = await race(lists, execute);
		for (const { error } of measure.runs) expect(error?.message).toBeUndefined();
		expect({ twice: measure.twice, onNoItem: measure.onNoItem }).toEqual({
			twice: [],
			onNoItem: [],
		});
		expect(measure.peak).toBeLessThanOrEqual(3);
		const rung = new Set(
			campaignCalls()
				.filter((call) => call.phase !== 'canceled')
				.map((call) => call.to),
		);
		expect(rung.size).toBe(peopleOf(lists));
	}

	describe.each(SEEDS)('lists drawn with seed %i', (seed) => {
		it('3 executions over overlapping lists of 12, Max Live Calls 3, idle budgets: each number rings once', async () => {
			await expectOnceIn(overlappingLists(3, 12, 18, seed));
		});

		it('Free the Worker While Waiting: 3 executions over overlapping lists of 12, idle budgets: each number rings once', async () => {
			await expectOnceIn(overlappingLists(3, 12, 18, seed), freeingTheWorker);
		});

		it('5 executions over overlapping lists of 15, idle budgets: each number rings once', async () => {
			await expectOnceIn(overlappingLists(5, 15, 30, seed));
		});

		const lookFaults: Array<[string, FaultRule['fault'], number]> = [
			[
				'a 429 with Retry-After 30',
				{ status: 429, retryAfter: 30, body: { message: 'slow down' } },
				1,
			],
			[
				'a 429 with Retry-After 90',
				{ status: 429, retryAfter: 90, body: { message: 'slow down' } },
				1,
			],
			[
				'an HTML 503, three times',
				{
					status: 503,
					rawBody: '<html><body>503 Service Unavailable</body></html>',
					contentType: 'text/html',
				},
				3,
			],
		];
		it.each(lookFaults)(
			'%s on each run’s re-read after its first placements: each number rings once',
			async (_, fault, times) => {
				// each of the 3 runs' first look passes; the looks after their placements meet the fault
				sim.faults.inject({ method: 'GET', path: '/v1/calls', skip: 3, times: 3 * times, fault });
				await expectOnceIn(overlappingLists(3, 12, 18, seed));
			},
		);

		it('a listing that lags behind the placements: each number rings once', async () => {
			// the list shows a call 5 s after it was created: longer than the runs take to place and look
			sim.listingLagMs = 5 * SECOND;
			await expectOnceIn(overlappingLists(3, 12, 18, seed));
		});

		it.each([60, 110])(
			'another workflow drawing %i organization requests a minute: each number rings once',
			async (perMinute) => {
				const stop = drawOrganizationBudget(perMinute);
				try {
					await expectOnceIn(overlappingLists(3, 12, 18, seed));
				} finally {
					stop();
				}
			},
		);
	});
});
