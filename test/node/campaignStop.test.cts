import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { nextDueAfterQuiet, type FakeTime } from '../../harness/fakeTime.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { STOPPED_NOTE_KEY } from '../../nodes/VoiceAgentCrm/transport/request';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { startStoppableRun } from '../reliability/stoppable.cts';
import { campaignParameters } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * Halting a campaign (docs/campaigns.md, "Stop", "Cancel Campaign", "Get Campaign"), through
 * n8n's engine on fake time: a Stop of the execution cancels what the campaign scheduled before
 * the node ends, Cancel Campaign from another run halts it everywhere, and Get Campaign reads
 * its progress from the call list. What rang is read from the simulator's call log.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The phases of a call that is over, as the call list's statuses say (a canceled call never rang). */
const OVER = ['ended', 'voicemail', 'no_answer', 'failed'];

describe('Run Campaign: Stop, Cancel Campaign, Get Campaign', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const agent = () => [...sim.org.agents.values()][0];
	const locator = (value: string) => ({ __rl: true, mode: 'list', value });
	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
	const campaign = (extra: INodeParameters = {}) =>
		campaignParameters(sim, { maxLiveCalls: 2, ...extra });
	const londoner = (n: number) => ({
		to: `+4420794603${String(n).padStart(2, '0')}`,
		name: `P${n}`,
	});
	const calls = (): Call[] => [...sim.org.calls.values()];
	const rang = () => calls().filter((call) => call.phase !== 'canceled');
	const canceled = () => calls().filter((call) => call.phase === 'canceled');
	/** Drive the simulator and the node together, second by second, until `done` holds. */
	const until = (done: () => boolean) =>
		time.runUntilSettled(
			new Promise<void>((resolve) => {
				const check = () => (done() ? resolve() : setImmediate(check));
				check();
			}),
			{ onStep: () => sim.clock.runDue(), stepMs: 1_000, maxMs: 2 * DAY },
		);
	const settle = <T,>(work: Promise<T>) =>
		time.runUntilSettled(work, {
			onStep: () => sim.clock.runDue(),
			nextDueAt: nextDueAfterQuiet(sim),
			stepMs: MINUTE,
			maxMs: 4 * DAY,
		});
	/** Let the simulator's clock run on: whatever is still scheduled would ring. */
	const aDayLater = () => time.advance(DAY, { stepMs: MINUTE, onStep: () => sim.clock.runDue() });
	const tagReads = () => sim.requestsTo('GET', '/v1/tags').length;
	const operation = (name: string, extra: INodeParameters = {}): INodeParameters => ({
		resource: 'call',
		operation: name,
		agentId: locator(agent().id),
		campaign: '={{ $json.campaign }}',
		...extra,
	});
	const runOther = (
		parameters: INodeParameters,
		items: IDataObject[],
		extra: Partial<RunNodeOptions> = {},
	) =>
		runNode({ credentials: credentials(), parameters, items, executionId: 'exec-other', ...extra });
	/** The campaign run as execution `exec-campaign`, holding its worker. */
	const runCampaign = (people: IDataObject[]) =>
		runNode({
			credentials: credentials(),
			parameters: campaign(),
			items: people,
			executionId: 'exec-campaign',
		});
	const keyOfCampaign = () => String(calls()[0].metadata?.n8n_campaign);

	describe('a Stop of the execution', () => {
		it('right after 2 placements: both are canceled before they ring, and the error says so', async () => {
			time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z'));
			// the step's read after its placements is held: the Stop lands in the step, 2 calls placed
			let release = () => {};
			const held = new Promise<void>((resolve) => (release = resolve));
			sim.faults.inject({ method: 'GET', path: '/v1/calls', skip: 1, fault: { until: held } });
			const run = startStoppableRun({
				credentials: credentials(),
				parameters: campaign(),
				items: [1, 2, 3, 4].map(londoner),
			});
			await until(() => sim.requestsTo('GET', '/v1/calls').length === 2);
			expect(calls()).toHaveLength(2);
			run.stop();
			release();
			const { message } = await settle(run.done);
			await aDayLater();
			expect(rang()).toHaveLength(0);
			expect(
				canceled()
					.map((call) => call.to)
					.sort(),
			).toEqual([1, 2].map((n) => londoner(n).to).sort());
			expect(message).toMatch(
				/was stopped: 2 calls canceled before ringing \(\+44\d+, \+44\d+\), 0 calls had rung already\.$/,
			);
			expect(run.customDataAtStop()?.[STOPPED_NOTE_KEY]).toMatch(
				/was stopped: canceling every call it scheduled that had not rung \(it was taking its first step\)/,
			);
		});

		it.each([
			['', false],
			[', with Continue On Fail', true],
		])(
			'in a step whose looks fail, with the read after the Stop failing too%s: the step ends at the Stop and its 2 placements are canceled all the same',
			async (_, continueOnFail) => {
				time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z'));
				let release = () => {};
				const held = new Promise<void>((resolve) => (release = resolve));
				sim.faults.inject({ method: 'GET', path: '/v1/calls', skip: 1, fault: { until: held } });
				// every read after it fails: the Stop's cleanup has only what the step knew
				sim.faults.inject({ method: 'GET', path: '/v1/calls', times: 50, fault: { status: 503 } });
				const run = startStoppableRun({
					credentials: credentials(),
					parameters: campaign(),
					items: [1, 2, 3, 4].map(londoner),
					continueOnFail,
				});
				await until(() => sim.requestsTo('GET', '/v1/calls').length === 2);
				run.stop();
				release();
				const { run: ended, message } = await settle(run.done);
				await aDayLater();
				expect(rang()).toHaveLength(0);
				expect(canceled()).toHaveLength(2);
				// with Continue On Fail, n8n answers the node's error as its item
				const output = ended.data.resultData.runData['Voice Agent CRM']?.[0]?.data?.main[0]?.[0];
				expect(message ?? output?.json.error).toMatch(
					/was stopped: 2 calls canceled before ringing \(\+44\d+, \+44\d+\), 0 calls had rung already\. The calls could not be read again after the Stop/,
				);
			},
		);

		it('in a long sleep with 4 calls scheduled for the next day: none of them rings, and the note at the Stop names them', async () => {
			// Monday 20:00 in London: the window opens Tuesday 09:00
			time.clock.setSystemTime(Date.parse('2026-11-30T20:00:00Z'));
			const people = [1, 2, 3, 4].map(londoner);
			const run = startStoppableRun({
				credentials: credentials(),
				parameters: campaign({ maxLiveCalls: 4 }),
				items: people,
			});
			// the step is over once it read the halt marker again after placing: the node sleeps
			await until(() => calls().length === 4 && tagReads() === 2);
			await time.advance(HOUR, { stepMs: MINUTE, onStep: () => sim.clock.runDue() });
			expect(calls().every((call) => call.phase === 'scheduled')).toBe(true);
			run.stop();
			const { message } = await settle(run.done);
			await aDayLater();
			await aDayLater();
			expect(rang()).toHaveLength(0);
			expect(canceled()).toHaveLength(4);
			expect(run.customDataAtStop()?.[STOPPED_NOTE_KEY]).toBe(
				`Run Campaign ${keyOfCampaign()} was stopped: canceling the calls it scheduled that had not rung, 4 at its last look (${people.map((p) => p.to).join(', ')}); 0 calls had rung already. Call → Get Campaign shows what is left; running the same list again goes on with the campaign.`,
			);
			expect(message).toMatch(/4 calls canceled before ringing/);
		});
	});

	describe('Cancel Campaign', () => {
		beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

		it('from a second run halts a running campaign: 0 rings after it, and the running execution ends with one item per person', async () => {
			planCalls(sim).byDefault({ talkMs: 2 * MINUTE });
			const people = [1, 2, 3, 4, 5, 6].map(londoner);
			const running = runCampaign(people);
			// two calls over, two more placed: the campaign is under way
			await until(
				() => calls().filter((call) => call.finished).length === 2 && calls().length === 4,
			);
			let haltedAt = Infinity;
			const canceling = runOther(operation('cancelCampaign'), [{ campaign: keyOfCampaign() }]).then(
				(answer) => {
					haltedAt = sim.clock.now();
					return answer;
				},
			);
			const [cancel, ended] = await settle(Promise.all([canceling, running]));
			await aDayLater();
			expect(cancel.error).toBeUndefined();
			// the two calls placed last were still scheduled: canceled, and nothing placed after
			expect(canceled()).toHaveLength(2);
			expect(calls()).toHaveLength(4);
			expect(rang().filter((call) => call.place_at > haltedAt)).toHaveLength(0);
			const byStatus = ended.items.map((item) => item.json.campaign_status);
			expect(ended.error).toBeUndefined();
			expect(ended.items).toHaveLength(6);
			const calledPeople = new Set(rang().map((call) => call.to));
			expect(byStatus.filter((status) => status === 'called')).toHaveLength(calledPeople.size);
			expect(byStatus.filter((status) => status === 'halted')).toHaveLength(6 - calledPeople.size);
			for (const item of ended.items.filter((each) => each.json.campaign_status === 'halted'))
				expect(item.json.reason).toMatch(
					/^Cancel Campaign halted the campaign \(tag n8n-campaign-halted-[0-9a-f]{16}\)/,
				);
			expect(calledPeople.size).toBe(2);
			expect(cancel.items[0].json).toMatchObject({
				campaign: keyOfCampaign(),
				calls_canceled: 2,
				calls_rang: 2,
				people_never_called: 4,
			});
			const progress = await settle(
				runOther(operation('getCampaign'), [{ campaign: keyOfCampaign() }]),
			);
			expect(progress.items[0].json).toMatchObject({
				halted: true,
				not_yet_called: 4,
				calls_made: 2,
				calls_canceled: 2,
				live_calls: 0,
			});
			// the same list run again places nothing while the halt stands
			const again = await settle(runOther(campaign(), people, { executionId: 'exec-again' }));
			expect(again.items.map((item) => item.json.campaign_status)).toEqual(byStatus);
			expect(calls().filter((call) => Date.parse(call.created_at) > haltedAt)).toHaveLength(0);
		});

		it('while its calls talk: the running execution ends at once, and the items of the people on the phone name their calls', async () => {
			planCalls(sim).byDefault({ talkMs: 10 * MINUTE });
			const people = [1, 2, 3, 4].map(londoner);
			const running = runCampaign(people);
			await until(
				() => calls().length === 2 && calls().every((call) => call.phase === 'in_progress'),
			);
			const talking = calls().map((call) => call.id);
			const [cancel, ended] = await settle(
				Promise.all([
					runOther(operation('cancelCampaign'), [{ campaign: keyOfCampaign() }]),
					running,
				]),
			);
			expect(cancel.items[0].json).toMatchObject({ calls_canceled: 0, calls_rang: 2 });
			// it ended before the calls did
			expect(calls().every((call) => !call.finished)).toBe(true);
			const items = ended.items.map((item) => item.json);
			expect(items.map((item) => item.campaign_status)).toEqual([
				'halted',
				'halted',
				'halted',
				'halted',
			]);
			for (const [n, item] of items.slice(0, 2).entries()) {
				expect(item).toMatchObject({ call_id: talking[n], tries: 1, result: null });
				expect((item.attempts as IDataObject[])[0]).toMatchObject({ call_id: talking[n] });
				expect(item.reason).toMatch(
					new RegExp(
						`its call ${talking[n]} had started and goes on: Call → Get reads its outcome`,
					),
				);
			}
			expect(items.slice(2).map((item) => [item.call_id, item.tries])).toEqual([
				[null, 0],
				[null, 0],
			]);
			await aDayLater();
			expect(calls()).toHaveLength(2);
		});

		// Cancel Campaign cancels the scheduled calls; the sleeping run reads the halt a minute apart in
		// its first hour asleep, then a twelfth of the time it has slept apart
		it.each([
			['30 minutes', 30 * MINUTE, 2 * MINUTE],
			['6 hours', 6 * HOUR, 31 * MINUTE],
		])(
			'halts a campaign asleep until its window opens: asleep %s, the running execution ends soon after, not at the window',
			async (_asleep, asleepMs, endsWithinMs) => {
				// Monday 20:00 in London: the 4 calls are scheduled for Tuesday 09:00, and the run sleeps
				time.clock.setSystemTime(Date.parse('2026-11-30T20:00:00Z'));
				const people = [1, 2, 3, 4].map(londoner);
				let endedAt = Infinity;
				const running = runNode({
					credentials: credentials(),
					parameters: campaign({ maxLiveCalls: 4 }),
					items: people,
					executionId: 'exec-campaign',
				}).then((answer) => {
					endedAt = sim.clock.now();
					return answer;
				});
				await until(() => calls().length === 4 && tagReads() === 2);
				await time.advance(asleepMs, { stepMs: MINUTE, onStep: () => sim.clock.runDue() });
				const haltedAt = sim.clock.now();
				const [cancel, ended] = await settle(
					Promise.all([
						runOther(operation('cancelCampaign'), [{ campaign: keyOfCampaign() }]),
						running,
					]),
				);
				expect(cancel.items[0].json).toMatchObject({ calls_canceled: 4, calls_rang: 0 });
				expect(endedAt - haltedAt).toBeLessThanOrEqual(endsWithinMs);
				expect(ended.items.map((item) => item.json.campaign_status)).toEqual([
					'halted',
					'halted',
					'halted',
					'halted',
				]);
				await aDayLater();
				expect(rang()).toHaveLength(0);
			},
		);

		it('halts a worker-freeing campaign: the next call end takes the step that sees the halt, places nothing and resumes the execution', async () => {
			planCalls(sim).byDefault({ talkMs: 2 * MINUTE });
			const people = [1, 2, 3, 4].map(londoner);
			const execution = new WaitingExecution({
				credentials: credentials(),
				parameters: campaign({ campaignOptions: { resumeByWebhook: true } }),
				items: people,
			});
			try {
				await settle(execution.start());
				// both calls ringing or talking: nothing left to cancel, the halt alone must hold
				await until(
					() => calls().length === 2 && calls().every((call) => call.phase !== 'scheduled'),
				);
				const cancel = await settle(
					runOther(operation('cancelCampaign'), [{ campaign: keyOfCampaign() }]),
				);
				expect(cancel.items[0].json).toMatchObject({ calls_canceled: 0, people_never_called: 2 });
				await until(() => execution.resumedRun !== undefined);
				await aDayLater();
				expect(calls()).toHaveLength(2);
				const items = WaitingExecution.nodeItems(execution.resumedRun);
				expect(items.map((item) => item.campaign_status)).toEqual([
					'called',
					'called',
					'halted',
					'halted',
				]);
				expect(items[2].reason).toMatch(
					/before the person was called\. To call again, delete that tag/,
				);
			} finally {
				await execution.stop();
			}
		});

		it('answers a bad campaign key on its item before any request', async () => {
			const before = sim.requests.length;
			const { error } = await runOther(operation('cancelCampaign'), [{ campaign: 'not-a-key' }]);
			expect(error?.message).toBe(
				'Item 0: Campaign: must be a campaign key, 16 hex characters like 9f2c4b1a7d3e8f60 (got "not-a-key")',
			);
			expect(sim.requests.length).toBe(before);
		});
	});

	describe('Get Campaign', () => {
		beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

		/** The counts as the call log has them, person by person (rules of the campaign below). */
		function countsOfTheLog(people: number) {
			const byPerson = new Map<string, Call[]>();
			for (const call of [...rang()].sort((a, b) => a.place_at - b.place_at))
				byPerson.set(call.to, [...(byPerson.get(call.to) ?? []), call]);
			const called: Record<string, number> = {
				answered: 0,
				voicemail: 0,
				no_answer: 0,
				busy: 0,
				failed: 0,
				ended: 0,
			};
			let redial = 0;
			let inProgress = 0;
			for (const personCalls of byPerson.values()) {
				const last = personCalls.at(-1)!;
				if (!OVER.includes(last.phase)) inProgress += last.phase === 'scheduled' ? 0 : 1;
				else if (last.call_result === 'no_answer' && personCalls.length < 2) redial++;
				else called[last.call_result ?? 'ended']++;
			}
			const scheduled = rang().filter((call) => call.phase === 'scheduled');
			return {
				called,
				waiting_for_redial: redial,
				scheduled: scheduled.length,
				next_call_at: scheduled.length
					? new Date(Math.min(...scheduled.map((call) => call.place_at))).toISOString()
					: null,
				ringing_or_in_progress: inProgress,
				not_yet_called: people - byPerson.size,
				live_calls: rang().filter((call) => !OVER.includes(call.phase)).length,
				calls_made: rang().length,
			};
		}

		it("its counts equal the simulator's call log at three moments of a running campaign", async () => {
			planCalls(sim)
				.next({ result: 'no_answer', talkMs: MINUTE })
				.next({ result: 'answered', talkMs: 3 * MINUTE })
				.next({ result: 'busy', talkMs: MINUTE })
				.byDefault({ result: 'answered', talkMs: 2 * MINUTE });
			const people = [1, 2, 3, 4, 5].map(londoner);
			const rows = [...people, { to: '12345', name: 'Bad' }];
			const running = runNode({
				credentials: credentials(),
				parameters: campaign({ redialOn: ['no_answer'], redialAfterMinutes: 30, maxTries: 2 }),
				items: rows,
				executionId: 'exec-campaign',
			});
			const progress = async () => {
				const { items, error } = await settle(
					runOther(operation('getCampaign'), [{ campaign: keyOfCampaign() }]),
				);
				expect(error).toBeUndefined();
				return items[0].json;
			};
			const finished = () => calls().filter((call) => call.finished).length;
			const live = () => calls().filter((call) => !call.finished).length;
			// moments when the campaign has just acted: it places nothing more while Get Campaign reads
			const moments = [
				() => calls().length === 2 && calls().every((call) => call.phase === 'scheduled'),
				// both lanes filled again: the call that replaces the second call over is placed
				() => finished() === 2 && live() === 2,
				() => finished() === 5,
			];
			for (const moment of moments) {
				await until(moment);
				const shown = await progress();
				expect(shown).toMatchObject({
					...countsOfTheLog(5),
					people: 5,
					invalid: 1,
					skipped: 0,
					max_live_calls: 2,
					started_at: new Date(
						Math.min(...calls().map((call) => Date.parse(call.created_at))),
					).toISOString(),
				});
			}
			const { items } = await settle(running);
			expect(items.map((item) => item.json.campaign_status)).toEqual([
				'called',
				'called',
				'called',
				'called',
				'called',
				'invalid',
			]);
			const last = await progress();
			expect(last).toMatchObject({ ...countsOfTheLog(5), not_yet_called: 0, live_calls: 0 });
		});
	});
});
