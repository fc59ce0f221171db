import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { peakLive } from '../../harness/callLog.cts';
import type { RunNodeOptions } from '../../harness/engine.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { campaignParameters, onFakeTime } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { isInsideWindow } from '../../nodes/VoiceAgentCrm/actions/call/campaign/window';

/**
 * Call → Run Campaign through n8n's engine on fake time (docs/campaigns.md): calling windows in
 * the people's own zones, redials, Max Live Calls measured from the simulator's call log, and the
 * memory that never calls a person twice across runs.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WEEKDAYS = { days: [1, 2, 3, 4, 5], fromMinute: 9 * 60, untilMinute: 17 * 60 };

describe('Run Campaign', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const campaign = (extra: INodeParameters = {}) => campaignParameters(sim, extra);
	/** Runs on fake time, driven together: it jumps to the simulator's next step or the node's next timer. */
	const drive = <T,>(work: Promise<T>): Promise<T> => onFakeTime(time, sim).drive(work);
	const start = (
		parameters: INodeParameters,
		items: IDataObject[],
		extra: Partial<RunNodeOptions> = {},
	) => onFakeTime(time, sim).start(parameters, items, extra);
	const run = (
		parameters: INodeParameters,
		items: IDataObject[],
		extra: Partial<RunNodeOptions> = {},
	) => drive(start(parameters, items, extra));
	const calls = (): Call[] => [...sim.org.calls.values()];
	const rang = () => calls().filter((call) => call.phase !== 'canceled');
	const callsTo = (to: string) => rang().filter((call) => call.to === to);
	it('calls each person only inside the window of their own time zone, across three zones and a day boundary', async () => {
		// Thursday 20:00 UTC: London closed until Friday 09:00, Tokyo opens Friday 09:00 (00:00 UTC), New York open until 17:00
		time.clock.setSystemTime(Date.parse('2026-11-26T20:00:00Z'));
		const people = [
			{ to: '+442079460101', name: 'Ann' },
			{ to: '+81312345601', name: 'Bo' },
			{ to: '+14155550101', name: 'Cy', zone: 'America/New_York' },
			{ to: '+442079460102', name: 'Di' },
			{ to: '+81312345602', name: 'Ed' },
			{ to: '+14155550102', name: 'Fa', zone: 'America/New_York' },
		];
		const { items, error } = await run(campaign({ redialOn: [] }), people);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual(Array(6).fill('called'));
		expect(items.map((item) => item.json.time_zone)).toEqual([
			'Europe/London',
			'Asia/Tokyo',
			'America/New_York',
			'Europe/London',
			'Asia/Tokyo',
			'America/New_York',
		]);
		expect(items.map((item) => item.json.time_zone_source)).toEqual([
			'number',
			'number',
			'field',
			'number',
			'number',
			'field',
		]);
		expect(rang()).toHaveLength(6);
		for (const [at, person] of people.entries()) {
			const [call] = callsTo(person.to);
			expect(isInsideWindow(call.place_at, String(items[at].json.time_zone), WEEKDAYS)).toBe(true);
			expect(items[at].json.call_id).toBe(call.id);
		}
		// New York was called at once (20:00 UTC = 15:00 there), Tokyo at its Friday 09:00, London at its
		expect(callsTo('+14155550101')[0].place_at).toBeLessThan(Date.parse('2026-11-26T20:05:00Z'));
		expect(callsTo('+81312345601')[0].place_at).toBe(Date.parse('2026-11-27T00:00:00Z'));
		expect(callsTo('+442079460101')[0].place_at).toBe(Date.parse('2026-11-27T09:00:00Z'));
	});

	describe('on a Monday at 10:00 in London', () => {
		beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));
		const londoner = (n: number) => ({
			to: `+4420794602${String(n).padStart(2, '0')}`,
			name: `P${n}`,
		});

		it('redials the chosen results after the chosen interval, exactly, up to Max Tries', async () => {
			planCalls(sim)
				.next({ result: 'no_answer' })
				.next({ result: 'busy' })
				.next({ result: 'voicemail' })
				.next({ result: 'answered' })
				.next({ result: 'no_answer' })
				.next({ result: 'busy' })
				.next({ result: 'answered' })
				.next({ result: 'busy' });
			const people = [1, 2, 3, 4].map(londoner);
			const { items, error } = await run(campaign(), people);
			expect(error).toBeUndefined();
			expect(people.map(({ to }) => callsTo(to).length)).toEqual([3, 3, 1, 1]);
			expect(items.map((item) => [item.json.result, item.json.tries])).toEqual([
				['answered', 3],
				['busy', 3],
				['voicemail', 1],
				['answered', 1],
			]);
			for (const { to } of people.slice(0, 2)) {
				const [first, second, third] = callsTo(to).sort((a, b) => a.place_at - b.place_at);
				for (const [before, after] of [
					[first, second],
					[second, third],
				]) {
					const interval = after.place_at - Date.parse(before.finished_at!);
					expect(interval).toBeGreaterThanOrEqual(HOUR);
					expect(interval).toBeLessThan(HOUR + 1_000);
				}
			}
			// the last call first, as every placement answers
			const attempts = items[0].json.attempts as IDataObject[];
			expect(attempts.map((attempt) => attempt.result)).toEqual([
				'answered',
				'no_answer',
				'no_answer',
			]);
			expect(items[0].json.call_id).toBe(attempts[0].call_id);
			expect(items[1].json.reason).toMatch(/busy after 3 tries, the most Max Tries allows/);
			expect(items[2].json.reason).toMatch(/Redial On does not include it/);
		});

		it('never has more than Max Live Calls live, measured from the call log', async () => {
			planCalls(sim).byDefault({ talkMs: 2 * MINUTE });
			const people = Array.from({ length: 12 }, (_, n) => londoner(n));
			const { items } = await run(campaign({ maxLiveCalls: 3 }), people);
			expect(items.map((item) => item.json.campaign_status)).toEqual(Array(12).fill('called'));
			expect(rang()).toHaveLength(12);
			expect(peakLive(calls())).toBe(3);
		});

		it('never calls a person twice: another list of the node goes on with who was called, another workflow’s skips them, and the same list run again places nothing', async () => {
			const first = await run(campaign(), [1, 2, 3].map(londoner), { executionId: 'exec-1' });
			expect(first.items.map((item) => item.json.campaign_status)).toEqual([
				'called',
				'called',
				'called',
			]);
			// the same node with another list: the campaign is the people, who were called already
			const second = await run(campaign(), [2, 3, 4].map(londoner), { executionId: 'exec-2' });
			expect(second.items.map(({ json }) => [json.campaign_status, json.from_earlier_run])).toEqual(
				[
					['called', true],
					['called', true],
					['called', false],
				],
			);
			expect(second.items[0].json.call_id).toBe(callsTo(londoner(2).to)[0].id);
			// another workflow's campaign skips them
			const other = await run(campaign(), [2, 3, 5].map(londoner), {
				workflowId: 'wf-other',
				executionId: 'exec-other',
			});
			expect(other.items.map((item) => item.json.campaign_status)).toEqual([
				'skipped',
				'skipped',
				'called',
			]);
			expect(other.items[0].json.reason).toMatch(
				/Already called by a campaign of another workflow \(wf-test\) .* \(execution exec-1\)/,
			);
			expect(other.items[0].json.call_id).toBe(callsTo(londoner(2).to)[0].id);
			// Get Campaign counts the two skipped by the other workflow's campaign, from what its call carries
			const progress = await run(
				{
					resource: 'call',
					operation: 'getCampaign',
					agentId: campaign().agentId,
					campaign: '={{ $json.campaign }}',
				},
				[{ campaign: other.items[2].json.campaign }],
				{ workflowId: 'wf-other' },
			);
			expect(progress.items[0].json).toMatchObject({
				people: 3,
				skipped_by_reason: {
					called_by_another_campaign: 2,
					do_not_call: 0,
					listed_twice: 0,
					no_calling_hours: 0,
				},
			});
			const again = await run(campaign(), [1, 2, 3].map(londoner), {
				executionId: 'exec-3',
				mode: 'retry',
			});
			expect(again.items.map((item) => item.json.call_id)).toEqual(
				first.items.map((item) => item.json.call_id),
			);
			expect(rang()).toHaveLength(5);
			for (const n of [1, 2, 3, 4, 5]) expect(callsTo(londoner(n).to)).toHaveLength(1);
		});

		it('answers bad rows on their own items, with the field and the reason, and calls the others', async () => {
			const people = [
				londoner(1),
				{ to: '12345', name: 'No Plus' },
				{ to: '+79161234567', name: 'Zone Unknown' },
				{ to: '+19995550123', name: 'Unassigned Area Code' },
				{ to: '+442079460299', name: 'No Hour', from: '17:00' },
				londoner(1),
				{ to: '+442079460298', name: 'Bad Zone', zone: 'Mars/Olympus' },
				londoner(2),
			];
			const { items, error } = await run(
				campaign({ callFrom: '={{ $json.from ?? "09:00" }}' }),
				people,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.campaign_status)).toEqual([
				'called',
				'invalid',
				'invalid',
				'invalid',
				'invalid',
				'skipped',
				'invalid',
				'called',
			]);
			expect(items[1].json.reason).toMatch(
				/^To Number: must be a phone number in international E\.164/,
			);
			expect(items[2].json.reason).toMatch(
				/Person Time Zone is empty, and the number does not tell the zone \(\+7 numbers .*Use a Time Zone/,
			);
			expect(items[3].json.reason).toMatch(
				/^To Number: area code 999 of \+19995550123 is not an assigned geographic NANP area code/,
			);
			expect(items[4].json.reason).toMatch(/Calling Window has no hour in it/);
			expect(items[5].json.reason).toMatch(/Listed twice: item 0 has the same number/);
			expect(items[6].json.reason).toMatch(/^Person Time Zone: must be an IANA time zone/);
			expect(items.map((item) => item.pairedItem)).toEqual(people.map((_, item) => ({ item })));
			expect(
				rang()
					.map((call) => call.to)
					.sort(),
			).toEqual([londoner(1).to, londoner(2).to]);
		});

		it('executions started at once over overlapping lists call each person once', async () => {
			const lists = [
				[1, 2, 3, 4],
				[3, 4, 5, 6],
				[1, 6, 7],
			].map((list) => list.map(londoner));
			// three runs' requests at once: driven second by second, never a jump past one on its way
			const runs = await time.runUntilSettled(
				Promise.all(
					lists.map((list, at) =>
						start(campaign({ redialOn: [] }), list, { executionId: `exec-${at}` }),
					),
				),
				{ onStep: () => sim.clock.runDue(), stepMs: 1_000 },
			);
			for (const { error } of runs) expect(error).toBeUndefined();
			for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(callsTo(londoner(n).to)).toHaveLength(1);
			// the race happened: the later claims were placed, seen and canceled before they rang
			expect(calls().filter((call) => call.phase === 'canceled').length).toBeGreaterThan(0);
			const called = runs.flatMap(({ items }) =>
				items.filter((item) => item.json.campaign_status === 'called'),
			);
			expect(called).toHaveLength(7);
		});

		it('Free the Worker While Waiting: the execution waits between calls, each call end takes a step, the last one resumes it', async () => {
			planCalls(sim).byShare({ shares: { no_answer: 0.4 }, talkMs: [MINUTE, 3 * MINUTE], seed: 7 });
			const people = Array.from({ length: 6 }, (_, n) => londoner(n));
			const execution = new WaitingExecution({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: campaign({ maxLiveCalls: 2, campaignOptions: { resumeByWebhook: true } }),
				items: people,
			});
			try {
				const waiting = await drive(execution.start());
				expect(waiting.status).toBe('waiting');
				expect(rang()).toHaveLength(2);
				// every campaign call sends its events to the execution's resume URL
				for (const call of rang()) expect(call.webhook_url).toContain(execution.resumeUrl);
				const resumed = await drive(
					new Promise<void>((resolve) => {
						const check = () => (execution.resumedRun ? resolve() : setImmediate(check));
						check();
					}),
				);
				expect(resumed).toBeUndefined();
				const items = WaitingExecution.nodeItems(execution.resumedRun);
				expect(items.map((item) => item.campaign_status)).toEqual(Array(6).fill('called'));
				expect(items.map((item) => item.call_id)).toEqual(
					people.map(({ to }) => callsTo(to).sort((a, b) => b.place_at - a.place_at)[0].id),
				);
				expect(peakLive(calls())).toBeLessThanOrEqual(2);
				// redials happened, each after its hour
				expect(rang().length).toBeGreaterThan(6);
				expect(items.every((item) => item.campaign_run === undefined)).toBe(true);
			} finally {
				await execution.stop();
			}
		});

		it('Free the Worker While Waiting: two calls that end together take their steps one after the other, so no placement is made twice and canceled', async () => {
			planCalls(sim).byShare({ shares: {}, talkMs: [MINUTE, MINUTE], seed: 7 });
			const people = Array.from({ length: 4 }, (_, n) => londoner(n));
			const execution = new WaitingExecution({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: campaign({ maxLiveCalls: 2, campaignOptions: { resumeByWebhook: true } }),
				items: people,
			});
			const settled = (done: () => boolean) =>
				drive(
					new Promise<void>((resolve) => {
						const check = () => (done() ? resolve() : setImmediate(check));
						check();
					}),
				);
			try {
				await drive(execution.start());
				const first = rang();
				expect(first).toHaveLength(2);
				// the two call ends, taken from the service's hands and posted together, as a service does
				for (const call of first) call.webhook_url = null;
				// the next calls end apart: the simulator posts those itself, one after the other
				planCalls(sim).byShare({ shares: {}, talkMs: [MINUTE, 3 * MINUTE], seed: 7 });
				await settled(() => first.every((call) => call.finished));
				const post = (callId: string) =>
					fetch(execution.resumeUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ event: 'call_ended', call_id: callId }),
					});
				const answers = await drive(Promise.all(first.map((call) => post(call.id))));
				expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
				await settled(() => execution.resumedRun !== undefined);
				const items = WaitingExecution.nodeItems(execution.resumedRun);
				expect(items.map((item) => item.campaign_status)).toEqual(Array(4).fill('called'));
				expect(
					calls()
						.filter((call) => call.phase === 'canceled')
						.map((call) => call.to),
				).toEqual([]);
				expect(people.map(({ to }) => callsTo(to).length)).toEqual([1, 1, 1, 1]);
			} finally {
				await execution.stop();
			}
		});
	});
});
