import { insertCall } from '../../simulator/index.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { pollingTrigger } from '../../harness/poll.cts';
import { MAX_DONE, MAX_WATCHED } from '../../nodes/VoiceAgentCrmTrigger/calls';
import { MAX_KNOWN } from '../../nodes/VoiceAgentCrmTrigger/threads';

const MINUTE = 60_000;
const POLLS = 30;
const CALLS_PER_POLL = 500;
const CALLS = POLLS * CALLS_PER_POLL;
/** The bound stated in calls.ts: MAX_DONE + MAX_WATCHED ids at about 55 bytes each. */
const CALL_STATE_BOUND_BYTES = 110_000;

/**
 * Acceptance (issue 7): the static data stays under its stated bound whatever the history. The
 * bound is the two lists' caps, so the history fills them and then goes on: 15,000 calls over 7.5
 * hours of polls every 15 minutes, half of each poll's calls sharing one timestamp and one call in
 * five stuck unfinished for ever, so that the watch list reaches MAX_WATCHED at the tenth poll and
 * stays there for twenty more (a hundred thousand calls at one in twenty proved no more, at seven
 * times the cost).
 */
describe('Trigger state stays bounded', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: true });
	});
	afterAll(() => sim.stop());

	it(`keeps Call Finished's static data under ${CALL_STATE_BOUND_BYTES} bytes through ${CALLS} calls with its watch list full, emitting each finished one once`, async () => {
		expect(MAX_DONE + MAX_WATCHED).toBeLessThanOrEqual(2_000);
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'callFinished' },
			clock: () => sim.clock.now(),
		});
		expect(await trigger.poll()).toBeNull();

		let placed = 0;
		let finished = 0;
		let emitted = 0;
		let largest = 0;
		let mostWatched = 0;
		const seen = new Set<string>();
		while (placed < CALLS) {
			await sim.clock.advance(15 * MINUTE);
			const now = sim.clock.now();
			for (let i = 0; i < CALLS_PER_POLL; i++, placed++) {
				const stuck = i % 5 === 0;
				// half of each batch shares the newest timestamp, the rest is spread over the last minutes
				const created =
					i < CALLS_PER_POLL / 2 ? now : now - 1 - Math.floor((i * 7_919) % (10 * MINUTE));
				insertCall(sim, {
					created_at: sim.clock.iso(created),
					call_analysis: null,
					...(stuck ? { phase: 'in_progress' as const } : {}),
				});
				if (!stuck) finished++;
			}
			for (const item of (await trigger.poll())?.[0] ?? []) {
				emitted++;
				seen.add(item.json.id as string);
			}
			largest = Math.max(largest, trigger.staticDataBytes());
			const { watch } = trigger.staticData.calls as { watch: object };
			mostWatched = Math.max(mostWatched, Object.keys(watch).length);
			// the simulator keeps only what a poll can still read: stuck calls and the last batch
			for (const [id, call] of sim.org.calls)
				if (call.phase !== 'in_progress' && Date.parse(call.created_at) < now - 20 * MINUTE)
					sim.org.calls.delete(id);
		}

		expect(placed).toBe(CALLS);
		expect(emitted).toBe(finished);
		expect(seen.size).toBe(finished);
		// the cap was reached (1,000 calls were stuck by the tenth poll, 3,000 by the end) and held
		expect(mostWatched).toBe(MAX_WATCHED);
		expect(largest).toBeLessThan(CALL_STATE_BOUND_BYTES);
		console.log(
			`Call Finished static data: at most ${largest} bytes over ${CALLS} calls (bound ${CALL_STATE_BOUND_BYTES})`,
		);
	});

	it(`keeps Thread Changed's memory at ${MAX_KNOWN} threads plus those inside the overlap`, async () => {
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'threadChanged', threadEvents: ['anyUpdate'] },
			clock: () => sim.clock.now(),
		});
		await trigger.poll();
		const [channelId] = sim.org.channels.keys();
		const [contactId] = sim.org.contacts.keys();
		let largest = 0;
		for (let round = 0; round < 20; round++) {
			await sim.clock.advance(15 * MINUTE);
			for (let i = 0; i < 500; i++) {
				const id = `thr-${round}-${i}`;
				sim.org.threads.set(id, {
					id,
					channel_id: channelId,
					channel_type: 'WABA',
					contact_id: contactId,
					organization_id: sim.org.id,
					status: 'open',
					assignee: null,
					assignee_type: null,
					updated_at: sim.clock.iso(sim.clock.now() - i * 1_000),
					window_open_until: 0,
				});
			}
			expect((await trigger.poll())?.[0]).toHaveLength(500);
			const known = Object.keys((trigger.staticData.threads as { known: object }).known).length;
			expect(known).toBeLessThanOrEqual(MAX_KNOWN + 61);
			largest = Math.max(largest, trigger.staticDataBytes());
		}
		console.log(`Thread Changed static data: at most ${largest} bytes over 10,000 threads`);
	}, 60_000);
});
