import { mixFrom } from '../cli.cts';
import { planCalls, startSimulator, type Simulator } from '../index.cts';
import { simulatorRequest } from '../index.cts';

/** `--no-answer`, `--busy`, `--voicemail`, `--failed` and `--talk-max`: results by share, for campaigns. */
describe('simulator: call results by share', () => {
	it('reads the shares and the talk range, and refuses what is not one', () => {
		expect(
			mixFrom({ 'no-answer': '0.3', busy: '0.1', 'talk-max': '90' }, { talkMs: 20_000 }),
		).toEqual({
			shares: { no_answer: 0.3, busy: 0.1 },
			talkMs: [20_000, 90_000],
		});
		expect(mixFrom({}, {})).toBeUndefined();
		expect(() => mixFrom({ busy: '2' }, {})).toThrow('--busy takes a share from 0 to 1');
		expect(() => mixFrom({ busy: '0.6', 'no-answer': '0.6' }, {})).toThrow('add up to more than 1');
		expect(() => mixFrom({ 'talk-max': '1' }, { talkMs: 5_000 })).toThrow(
			'--talk-max must be at least --talk',
		);
	});

	describe('calls placed', () => {
		let sim: Simulator;
		beforeEach(async () => (sim = await startSimulator({ limits: { org: 10_000, ip: 10_000 } })));
		afterEach(() => sim.stop());

		it('end with each result in its share, talking within the range, the same for the same seed', async () => {
			const results = async (seed: number) => {
				planCalls(sim).byShare({
					shares: { no_answer: 0.3, busy: 0.1 },
					talkMs: [10_000, 20_000],
					seed,
				});
				const ids: string[] = [];
				for (let n = 0; n < 200; n++) {
					const { body } = await simulatorRequest(sim, 'POST', '/v1/calls/single-phone-call', {
						body: {
							agent_id: [...sim.org.agents.keys()][0],
							from_number: '+14155550100',
							to_number: `+1415555${String(1000 + n)}`,
							full_name: 'Jane Doe',
						},
					});
					ids.push(String((body as { data: { call_id: string } }).data.call_id));
				}
				await sim.clock.advance(60 * 60_000);
				return ids.map((id) => sim.org.calls.get(id)!);
			};
			const calls = await results(3);
			const share = (result: string) =>
				calls.filter((call) => call.call_result === result).length / calls.length;
			expect(share('no_answer')).toBeGreaterThan(0.22);
			expect(share('no_answer')).toBeLessThan(0.38);
			expect(share('busy')).toBeGreaterThan(0.05);
			expect(share('busy')).toBeLessThan(0.15);
			for (const call of calls.filter((c) => c.call_result === 'answered'))
				expect(call.duration).toBeGreaterThanOrEqual(10);
			for (const call of calls.filter((c) => c.call_result === 'answered'))
				expect(call.duration).toBeLessThanOrEqual(20);
			const again = await results(3);
			expect(again.map((call) => call.call_result)).toEqual(calls.map((call) => call.call_result));
		});
	});
});
