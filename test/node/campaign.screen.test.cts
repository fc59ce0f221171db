import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeTime } from '../../harness/fakeTime.cts';
import {
	addContact,
	insertCall,
	planCalls,
	type Call,
	type Contact,
	type Simulator,
} from '../../simulator/index.cts';
import { campaignParameters, EVERY_DAY, onFakeTime } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * Run Campaign's do-not-call lists and Max Calls per Person (docs/campaigns.md), through n8n's
 * engine on fake time: who rang is read from the simulator's call log, not from the items.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('Run Campaign: do not call and Max Calls per Person', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	// Monday 2026-11-30 12:00 in San Francisco: within every window below
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T20:00:00Z')));

	const campaign = (extra: INodeParameters = {}) =>
		campaignParameters(sim, {
			callDays: EVERY_DAY,
			callFrom: '08:00',
			callUntil: '20:00',
			redialOn: [],
			...extra,
		});
	const run = (parameters: INodeParameters, items: IDataObject[], executionId = 'exec-1') =>
		onFakeTime(time, sim).start(parameters, items, { executionId });
	const drive = <T,>(work: Promise<T>) => onFakeTime(time, sim).drive(work);
	const rang = (): Call[] =>
		[...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
	const mark = (contact: Contact) =>
		contact.additional_data.push({ type: 'date', field: 'do_not_call', value: '2026-11-02' });
	/** San Francisco numbers (area code 415), a contact for each. */
	const people = (count: number) =>
		Array.from({ length: count }, (_, n) => {
			const to = `+1415${String(2_000_000 + n).padStart(7, '0')}`;
			return { to, name: `P${n}`, contact: addContact(sim.org, { phone_number: to }) };
		});

	it.each([
		{ count: 1000, executions: 1, maxLiveCalls: 100 },
		{ count: 500, executions: 5, maxLiveCalls: 20 },
	])(
		'$count people, a tenth marked and a twentieth on a given list, over $executions execution(s) at once: 0 of them called, each item says so',
		async ({ count, executions, maxLiveCalls }) => {
			planCalls(sim).byDefault({ result: 'answered' });
			const everyone = people(count);
			const marked = new Set(everyone.filter((_, n) => n % 10 === 3).map((p) => p.to));
			for (const person of everyone) if (marked.has(person.to)) mark(person.contact);
			const listed = everyone.filter((_, n) => n % 20 === 5).map((p) => p.to);
			const parameters = campaign({
				maxLiveCalls,
				campaignOptions: {
					doNotCall: {
						lists: { organizationList: true, numbers: listed.join('\n'), scrubbedOn: '2026-11-20' },
					},
				},
			});
			const items = everyone.map(({ to, name }) => ({ to, name }));
			const share = count / executions;

			const runs = await drive(
				Promise.all(
					Array.from({ length: executions }, (_, at) =>
						run(parameters, items.slice(at * share, (at + 1) * share), `exec-${at}`),
					),
				),
			);

			const suppressed = new Set([...marked, ...listed]);
			expect(suppressed.size).toBe(count * 0.15);
			const called = rang().map((call) => call.to);
			expect(called.filter((to) => suppressed.has(to))).toEqual([]);
			expect(new Set(called).size).toBe(count * 0.85);
			expect(called).toHaveLength(count * 0.85);
			expect(runs.map((r) => r.error)).toEqual(runs.map(() => undefined));
			const answers = runs.flatMap((r) => r.items.map((item) => item.json));
			const skipped = answers.filter((json) => json.skipped_for === 'do_not_call');
			expect(new Set(skipped.map((json) => json.to_number))).toEqual(suppressed);
			expect(skipped.every((json) => json.campaign_status === 'skipped')).toBe(true);
			const byList = (pattern: RegExp) =>
				skipped.filter((json) => pattern.test(String(json.reason)));
			expect(
				byList(/^On the organization's do-not-call list \(contact .*, marked on 2026-11-02\)/),
			).toHaveLength(count / 10);
			expect(
				byList(/^On Options → Do Not Call → Numbers Not to Call \(scrubbed on 2026-11-20\)/),
			).toHaveLength(count / 20);
			// Get Campaign counts the skips by reason, from what the calls carry
			const progress = await run(
				{
					resource: 'call',
					operation: 'getCampaign',
					agentId: parameters.agentId,
					campaign: '={{ $json.campaign }}',
				},
				[{ campaign: answers[0].campaign }],
			);
			expect(progress.items[0].json).toMatchObject({
				people: share * 0.85,
				skipped: share * 0.15,
				skipped_by_reason: { do_not_call: share * 0.15, listed_twice: 0 },
			});
		},
	);

	it('a given list scrubbed more than 31 days ago refuses the run before any request', async () => {
		const [ann] = people(1);
		const { items, error } = await drive(
			run(
				campaign({
					campaignOptions: {
						doNotCall: { lists: { numbers: '+14155550199', scrubbedOn: '2026-10-01' } },
					},
				}),
				[ann],
			),
		);
		expect(items).toEqual([]);
		expect(error?.message).toMatch(
			/Options → Do Not Call → List Scrubbed On: 2026-10-01 is 60 days before the call/,
		);
		expect(sim.requests).toHaveLength(0);
	});

	it('a person marked while the campaign runs: the daily read of the list cancels their scheduled redial, and the item says so', async () => {
		planCalls(sim).byDefault({ result: 'no_answer' });
		const [ann, bob] = people(2);
		const parameters = campaign({
			callFrom: '00:00',
			callUntil: '24:00',
			redialOn: ['no_answer'],
			redialAfterMinutes: 36 * 60,
			maxTries: 3,
		});
		const annsCalls = () => [...sim.org.calls.values()].filter((call) => call.to === ann.to);
		let markedAt: number | undefined;

		const { items, error } = await onFakeTime(time, sim).drive(
			run(
				parameters,
				[ann, bob].map(({ to, name }) => ({ to, name })),
			),
			{
				maxMs: 6 * DAY,
				// Ann says "stop calling me" on her first call: marked once it ends
				onStep: () => {
					if (markedAt !== undefined || !annsCalls()[0]?.finished) return;
					mark(ann.contact);
					markedAt = Date.now();
				},
			},
		);

		expect(error).toBeUndefined();
		expect(markedAt).toBeDefined();
		// her redial, scheduled 36 hours after the first call, was canceled before it rang
		expect(annsCalls().map((call) => call.phase)).toEqual(['no_answer', 'canceled']);
		expect(rang().filter((call) => call.to === bob.to)).toHaveLength(3);
		expect(items[0].json).toMatchObject({
			campaign_status: 'skipped',
			skipped_for: 'do_not_call',
			reason: expect.stringMatching(/^Marked do not call while the campaign ran/),
		});
		expect(items[1].json).toMatchObject({ campaign_status: 'called', tries: 3 });
	});

	it('Max Calls per Person counts the calls other workflows made: a redial waits until the period allows it', async () => {
		planCalls(sim).byDefault({ result: 'no_answer' });
		const [ann, bob] = people(2);
		// another workflow called Ann twice in the last 10 hours
		const now = Date.now();
		for (const ago of [10 * HOUR, 2 * HOUR])
			insertCall(sim, {
				to: ann.to,
				created_at: new Date(now - ago).toISOString(),
				place_at: now - ago,
			});
		const parameters = campaign({
			callFrom: '00:00',
			callUntil: '24:00',
			callingHours: 'window',
			redialOn: ['no_answer'],
			redialAfterMinutes: 60,
			maxTries: 3,
			campaignOptions: { maxCallsPerPerson: { cap: { calls: 3, hours: 24 } } },
		});

		const { items, error } = await drive(
			run(
				parameters,
				[ann, bob].map(({ to, name }) => ({ to, name })),
			),
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.tries)).toEqual([3, 3]);
		// in every 24 hours, at most 3 calls to Ann, the other workflow's two included
		const annCalls = [...sim.org.calls.values()]
			.filter((call) => call.to === ann.to && call.phase !== 'canceled')
			.map((call) => call.place_at)
			.sort((a, b) => a - b);
		expect(annCalls).toHaveLength(5);
		for (const [at, start] of annCalls.entries())
			expect(annCalls.slice(at).filter((t) => t < start + DAY).length).toBeLessThanOrEqual(3);
		// Bob, with no calls before, was redialled an hour after each call
		const bobCalls = rang().filter((call) => call.to === bob.to);
		expect(bobCalls).toHaveLength(3);
		expect(Math.max(...bobCalls.map((c) => Date.parse(c.created_at))) - now).toBeLessThan(4 * HOUR);
	});
});
