import { peakLive } from '../../harness/callLog.cts';
import { phoneCall } from '../helpers/placement.cts';
import { runWaiting } from '../helpers/waiting.cts';

/**
 * docs/development.md, "Write a test": a waiting operation's test in one helper call. Minutes of
 * calls pass on fake time; what the simulator did is the oracle.
 */

const MINUTE = 60_000;

describe('a waiting operation, written from the recipe', () => {
	it('Place AI Call waits through 3 minutes of talk and answers with the analysed call', async () => {
		const { items, error, sim, tookMs } = await runWaiting(
			(sim) => phoneCall(sim, { waitFor: 'analysis' }),
			{ calls: [{ talkMs: 3 * MINUTE }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			call_status: 'completed',
			call_analysis: { summary: expect.any(String) },
		});
		expect(sim.requestsTo('POST', '/v1/calls/single-phone-call')).toHaveLength(1);
		expect(tookMs).toBeGreaterThan(3 * MINUTE);
	});

	it('Run Campaign with Max Live Calls 1 calls two people one at a time', async () => {
		const { items, error, sim } = await runWaiting(
			(sim) => ({
				...phoneCall(sim, { toNumber: '={{ $json.to }}', fullName: '={{ $json.name }}' }),
				operation: 'runCampaign',
				personTimeZone: 'America/New_York',
				maxLiveCalls: 1,
				callDays: [1, 2, 3, 4, 5],
				callFrom: '09:00',
				callUntil: '17:00',
			}),
			{
				at: '2026-11-26T15:00:00Z',
				items: [
					{ to: '+14155550101', name: 'Ann' },
					{ to: '+14155550102', name: 'Bo' },
				],
				calls: [{ talkMs: 2 * MINUTE }, { talkMs: 2 * MINUTE }],
			},
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.campaign_status)).toEqual(['called', 'called']);
		const calls = [...sim.org.calls.values()];
		expect(calls.map((call) => call.to).sort()).toEqual(['+14155550101', '+14155550102']);
		expect(peakLive(calls)).toBe(1);
	});
});
