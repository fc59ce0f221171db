import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { callsByTheRules, peakLive } from '../../harness/callLog.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { campaignParameters, onFakeTime } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * The campaign is the people, not the exact list (docs/campaigns.md): a run of the node goes on
 * with the calls its earlier runs made to its people, whatever list they ran, and a run that
 * frees its worker follows the calls an execution gone before it left live (their events go to
 * that execution) by looking itself. On fake time; who was called when is read from the
 * simulator's call log.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Run Campaign: the campaign is the people', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	// Monday 2026-11-30 09:00 in London: the default window is open
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T09:00:00Z')));

	const londoner = (n: number) => ({
		to: `+4420794606${String(n).padStart(2, '0')}`,
		name: `L${n}`,
	});
	const campaign = (extra: INodeParameters = {}) => campaignParameters(sim, extra);
	const drive = <T,>(work: Promise<T>) =>
		onFakeTime(time, sim).drive(work, { maxMs: 2 * 86_400_000 });
	const fakeSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
	const rang = (): Call[] =>
		[...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
	const callsTo = (to: string) =>
		rang()
			.filter((call) => call.to === to)
			.sort((a, b) => a.place_at - b.place_at);
	const waiting = (parameters: INodeParameters, items: IDataObject[], executionId: string) =>
		new WaitingExecution({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items,
			executionId,
		});

	/** Calls a person is owed by the rules, given the results the calls got: a redial after each no answer, up to 3. */
	const owedCalls = (calls: Call[]) => callsByTheRules(calls, ['no_answer'], 3);

	it('a crash 40 minutes in, then the list plus one row: every owed redial is placed, nobody is called twice', async () => {
		planCalls(sim).byShare({ shares: { no_answer: 0.5 }, talkMs: [MINUTE, 3 * MINUTE], seed: 11 });
		const rules = { maxLiveCalls: 5, redialOn: ['no_answer'], redialAfterMinutes: 30, maxTries: 3 };
		const people = Array.from({ length: 20 }, (_, n) => londoner(n));
		const crashed = waiting(
			campaign({ ...rules, campaignOptions: { resumeByWebhook: true } }),
			people,
			'exec-crashed',
		);
		try {
			expect((await drive(crashed.start())).status).toBe('waiting');
			await drive(fakeSleep(40 * MINUTE));
			await crashed.crash();
		} finally {
			await crashed.stop();
		}
		// what the crash left owed: a call live, or a no answer with a redial to come
		const owedAtCrash = people.filter(({ to }) => {
			const calls = callsTo(to);
			const last = calls.at(-1);
			return !!last && (!last.finished || (last.call_result === 'no_answer' && calls.length < 3));
		});
		expect(owedAtCrash.length).toBeGreaterThan(0);
		expect(crashed.resumedRun).toBeUndefined();

		const listPlusOne = [...people, londoner(20)];
		const { items, error } = await drive(
			onFakeTime(time, sim).start(campaign(rules), listPlusOne, {
				workflowId: 'wf-waiting',
				executionId: 'exec-2',
			}),
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual(Array(21).fill('called'));
		for (const { to } of listPlusOne) {
			const calls = callsTo(to);
			// 0 owed redials dropped, 0 tries twice
			expect(calls).toHaveLength(owedCalls(calls));
			expect(new Set(calls.map((call) => call.metadata?.n8n_attempt)).size).toBe(calls.length);
		}
		// each item names the person's last call, whichever run placed it
		expect(items.map((item) => item.json.call_id)).toEqual(
			listPlusOne.map(({ to }) => callsTo(to).at(-1)!.id),
		);
		expect(peakLive(rang())).toBeLessThanOrEqual(5);
		// Get Campaign of the longer list: its people called by the crashed run's list alone count as such
		const fromEarlier = listPlusOne.filter(({ to }) =>
			callsTo(to).every((call) => call.metadata?.n8n_campaign !== items[0].json.campaign),
		).length;
		expect(fromEarlier).toBeGreaterThan(0);
		const progress = await drive(
			onFakeTime(time, sim).start(
				{
					resource: 'call',
					operation: 'getCampaign',
					agentId: campaign().agentId,
					campaign: '={{ $json.campaign }}',
				},
				[{ campaign: items[0].json.campaign }],
			),
		);
		const counts = progress.items[0].json;
		expect(counts).toMatchObject({
			people: 21,
			not_yet_called: 0,
			from_earlier_lists: fromEarlier,
		});
		const called = Object.values(counts.called as Record<string, number>);
		expect(called.reduce((sum, count) => sum + count, 0) + fromEarlier).toBe(21);
	});

	it('freeing the worker, the same list run after a crash with calls live follows them itself and ends within their time', async () => {
		planCalls(sim).byShare({ shares: {}, talkMs: [5 * MINUTE, 10 * MINUTE], seed: 5 });
		const rules = {
			maxLiveCalls: 3,
			redialOn: [],
			maxTries: 1,
			campaignOptions: { resumeByWebhook: true },
		};
		const people = Array.from({ length: 6 }, (_, n) => londoner(n));
		const crashed = waiting(campaign(rules), people, 'exec-crashed');
		const rerun = waiting(campaign(rules), people, 'exec-rerun');
		try {
			expect((await drive(crashed.start())).status).toBe('waiting');
			await drive(fakeSleep(MINUTE));
			await crashed.crash();
			const leftovers = rang();
			expect(leftovers.filter((call) => !call.finished)).toHaveLength(3);

			const startedAt = Date.now();
			const first = await drive(rerun.start());
			await drive(
				new Promise<void>((resolve) => {
					const check = () =>
						!first.waitTill || rerun.resumedRun ? resolve() : setImmediate(check);
					check();
				}),
			);

			// its step saw the lanes held by the crashed execution's calls, and followed them by looking
			const run = first.waitTill ? rerun.resumedRun : first;
			const items = WaitingExecution.nodeItems(run);
			expect(items.map((item) => item.campaign_status)).toEqual(Array(6).fill('called'));
			for (const { to } of people) expect(callsTo(to)).toHaveLength(1);
			// within the calls' own time: two rounds of calls of at most 10 minutes, and their steps
			expect(Date.now() - startedAt).toBeLessThan(HOUR);
			expect(peakLive(rang())).toBeLessThanOrEqual(3);
		} finally {
			await crashed.stop();
			await rerun.stop();
		}
	});

	it('freeing the worker, an execution superseded by a later run ends with its items once only that run’s calls are live', async () => {
		// Monday 20:00 in London: the calls are set for 09:00 tomorrow
		time.clock.setSystemTime(Date.parse('2026-11-30T20:00:00Z'));
		planCalls(sim)
			.next({ result: 'no_answer' })
			.next({ result: 'answered', talkMs: 10 * MINUTE })
			.next({ result: 'answered', talkMs: 10 * MINUTE })
			.byDefault({ result: 'answered' });
		const rules = { maxLiveCalls: 3, redialOn: ['no_answer'], redialAfterMinutes: 60 };
		const people = Array.from({ length: 3 }, (_, n) => londoner(n));
		const superseded = waiting(
			campaign({ ...rules, campaignOptions: { resumeByWebhook: true } }),
			people,
			'exec-superseded',
		);
		try {
			expect((await drive(superseded.start())).status).toBe('waiting');
			// the first person's call sends it no event (lost on the way): the later run places the redial
			callsTo(people[0].to)[0].webhook_url = null;
			const later = await drive(
				onFakeTime(time, sim).start(campaign(rules), people, {
					workflowId: 'wf-waiting',
					executionId: 'exec-later',
				}),
			);

			expect(later.items.map((item) => item.json.campaign_status)).toEqual(Array(3).fill('called'));
			expect(callsTo(people[0].to).map((call) => call.call_result)).toEqual([
				'no_answer',
				'answered',
			]);
			const redial = callsTo(people[0].to)[1];
			// the superseded execution ended at its last call's end, before the redial, with its items
			const items = WaitingExecution.nodeItems(superseded.resumedRun);
			expect(items.map((item) => item.campaign_status)).toEqual(['unfinished', 'called', 'called']);
			expect(String(items[0].reason)).toMatch(
				new RegExp(
					`call ${redial.id} is under way, placed by execution exec-later.*This execution ended early: the campaign's live calls are execution exec-later's`,
				),
			);
			for (const { to } of people.slice(1)) expect(callsTo(to)).toHaveLength(1);
		} finally {
			await superseded.stop();
		}
	});
});
