import { peakLive } from '../../harness/callLog.cts';
import { campaignParameters, EVERY_DAY, onFakeTime } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';

/**
 * Run Campaign's claim lead (docs/decisions.md, "Campaigns"): each call is scheduled as long
 * after its placement as the run's claims take to settle, twice over, plus the 5 s in which an
 * unconfirmed one is canceled. Read from the simulator's call log: when each call was created
 * and when it was set to start.
 */

const SECOND = 1_000;

const people = (count: number) =>
	Array.from({ length: count }, (_, n) => ({
		to: `+4420794603${String(n).padStart(2, '0')}`,
		name: `P${n}`,
	}));

/** From a call's placement to its start, in seconds. */
const leadOf = (call: Call) => (call.place_at - Date.parse(call.created_at)) / SECOND;

describe('Run Campaign: the claim lead follows how long claims take to settle', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	// a Monday at 10:00 in London: the window is open
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T10:00:00Z')));

	async function run(count: number) {
		planCalls(sim).byDefault({ talkMs: 30 * SECOND });
		const { drive, start } = onFakeTime(time, sim);
		const parameters = campaignParameters(sim, {
			...{ maxLiveCalls: 3, callDays: EVERY_DAY, callFrom: '00:00', callUntil: '24:00' },
			redialOn: [],
		});
		const { items, error } = await drive(start(parameters, people(count)), {
			maxMs: 6 * 3_600_000,
		});
		const calls = [...sim.org.calls.values()].sort((a, b) => a.place_at - b.place_at);
		return { items, error, calls, rang: calls.filter((call) => call.phase !== 'canceled') };
	}

	it('idle budgets: the first calls start 20 s after they are placed, the later ones 8 to 9 s', async () => {
		const { error, items, rang } = await run(12);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual(Array(12).fill('called'));
		expect(rang.slice(0, 3).map(leadOf)).toEqual([20, 20, 20]);
		const later = rang.slice(6).map(leadOf);
		expect(Math.max(...later)).toBeLessThanOrEqual(9);
		expect(Math.min(...later)).toBeGreaterThanOrEqual(8);
	});

	it('a listing 20 s behind the placements: the lead grows until a look confirms, each number rings once', async () => {
		// no look lists a placement before the 20 s lead's cancel, 5 s before its start
		sim.listingLagMs = 20 * SECOND;
		const { error, items, calls, rang } = await run(6);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual(Array(6).fill('called'));
		expect(new Set(rang.map((call) => call.to)).size).toBe(rang.length);
		expect(rang).toHaveLength(6);
		expect(peakLive(rang)).toBeLessThanOrEqual(3);
		// the first placements were canceled unconfirmed, the next ones placed further ahead
		expect(calls.filter((call) => call.phase === 'canceled').length).toBeGreaterThan(0);
		expect(Math.min(...rang.map(leadOf))).toBeGreaterThan(20);
	});
});
