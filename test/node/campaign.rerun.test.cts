import { DateTime } from 'luxon';
import type { INodeParameters } from 'n8n-workflow';

import type { FakeTime } from '../../harness/fakeTime.cts';
import { WaitingExecution } from '../../harness/waitingExecution.cts';
import { planCalls, type Call, type Simulator } from '../../simulator/index.cts';
import { campaignParameters, EVERY_DAY, onFakeTime } from '../helpers/campaign.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';

/**
 * A campaign's settings win over its leftovers (docs/campaigns.md): the same list run again with a
 * narrower window or fewer Max Live Calls cancels the calls an earlier run scheduled that the new
 * settings forbid, before they ring, and places the people anew within them. On fake time; who
 * rang when is read from the simulator's call log.
 */

const HOUR = 3_600_000;

describe('Run Campaign: a re-run with other settings', () => {
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});
	// Monday 2026-11-30 20:00 in London: the window opens tomorrow
	beforeEach(() => time.clock.setSystemTime(Date.parse('2026-11-30T20:00:00Z')));

	const londoners = [1, 2, 3].map((n) => ({ to: `+44207946050${n}`, name: `L${n}` }));
	const campaign = (extra: INodeParameters = {}) =>
		campaignParameters(sim, { callDays: EVERY_DAY, redialOn: [], ...extra });
	const drive = <T,>(work: Promise<T>) =>
		onFakeTime(time, sim).drive(work, { maxMs: 3 * 24 * HOUR });
	const calls = (): Call[] => [...sim.org.calls.values()];
	const london = (at: number) => DateTime.fromMillis(at, { zone: 'Europe/London' });

	it('a narrower window and fewer Max Live Calls cancel the earlier run’s scheduled calls they forbid: none rings outside the new settings', async () => {
		planCalls(sim).byDefault({ result: 'answered' });
		// the first run schedules its three people for 09:00 tomorrow, and waits for their events
		const first = new WaitingExecution({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: campaign({
				maxLiveCalls: 3,
				callFrom: '09:00',
				callUntil: '17:00',
				campaignOptions: { resumeByWebhook: true },
			}),
			items: londoners,
		});
		try {
			expect((await drive(first.start())).status).toBe('waiting');
			const earlier = calls().filter((call) => call.phase === 'scheduled');
			expect(earlier.map((call) => london(call.place_at).toFormat('HH:mm'))).toEqual([
				'09:00',
				'09:00',
				'09:00',
			]);

			// the same list again, from 13:00 and two at a time
			const { items, error } = await drive(
				onFakeTime(time, sim).start(
					campaign({ maxLiveCalls: 2, callFrom: '13:00', callUntil: '17:00' }),
					londoners,
					// the same workflow as the waiting execution's: the same list is the same campaign
					{ workflowId: 'wf-waiting', executionId: 'exec-2' },
				),
			);

			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.campaign_status)).toEqual([
				'called',
				'called',
				'called',
			]);
			expect(earlier.every((call) => call.phase === 'canceled')).toBe(true);
			const rang = calls().filter((call) => call.phase !== 'canceled');
			expect(rang).toHaveLength(3);
			for (const call of rang) expect(london(call.place_at).hour).toBeGreaterThanOrEqual(13);
			// two lanes: the third call waited for one of the first two to end
			const starts = rang.map((call) => call.place_at).sort((a, b) => a - b);
			expect(starts[2]).toBeGreaterThan(starts[0]);
		} finally {
			await first.stop();
		}
	});
});
