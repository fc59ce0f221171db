import { startFileHost, dripBytes, type FileHost } from '../../harness/fileHost.cts';
import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import { STOPPED_BEFORE_SENDING } from '../../nodes/VoiceAgentCrm/transport/errors';
import { STOPPED_NOTE_KEY } from '../../nodes/VoiceAgentCrm/transport/request';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { FROM_FILE, fileItem, purchases } from '../node/eventFiles.cts';
import { callWithRecording, getWithRecording } from './recordingCall.cts';
import { startStoppableRun } from './stoppable.cts';

const HOUR = 3_600_000;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/**
 * A Stop in the editor ends the node at once (issue 31, point 6): a Retry-After or pacing wait of
 * minutes is cut short, a recording download from another host stops, and what was never sent is
 * not described as sent. On fake time: without the Stop taking effect the run would go on for the
 * whole wait (5 minutes, 10 for the download), which the elapsed fake time would show.
 */
describe('a Stop ends waiting and downloads at once', () => {
	let time: FakeTime;
	let sim: Simulator;
	let host: FileHost;
	beforeEach(async () => {
		time = installFakeTime();
		// at the start of an hour-long rate window with 1 request in it: the second request waits an hour
		time.clock.setSystemTime(Math.ceil(Date.now() / HOUR) * HOUR + 1_000);
		sim = await startSimulator({ windowMs: HOUR, limits: { org: 1, events: 1 } });
		host = await startFileHost();
	});
	afterEach(async () => {
		await host.stop();
		await sim.stop();
		time.uninstall();
	});

	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });

	/** Start the run, let it reach its wait (10 s of fake time), Stop it: the fake time until it ends. */
	async function stopAfterTenSeconds(run: ReturnType<typeof startStoppableRun>) {
		await time.advance(10_000);
		const stoppedAt = time.now();
		run.stop();
		const ended = await time.runUntilSettled(run.done);
		return { ...ended, afterStopMs: time.now() - stoppedAt };
	}

	it('a 429 with Retry-After: 300 is not slept out, and the request is not sent again', async () => {
		sim.faults.inject({
			method: 'POST',
			path: '/v1/tags',
			fault: { status: 429, retryAfter: 300, body: { statusCode: 429, message: 'Too many' } },
		});
		const run = startStoppableRun({
			credentials: credentials(),
			parameters: { resource: 'tag', operation: 'create', name: 'stop-429', color: '#112233' },
		});
		const { message, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		expect(message).toBe(STOPPED_BEFORE_SENDING);
		expect(sim.requestsTo('POST', '/v1/tags')).toHaveLength(1);
		expect([...sim.org.tags.values()].filter((t) => t.name === 'stop-429')).toHaveLength(0);
	});

	it('a call never placed because the budget was spent is not "may have been placed"', async () => {
		const agent = [...sim.org.agents.values()][0];
		const run = startStoppableRun({
			credentials: credentials(),
			items: [{ to: '+14155550701' }, { to: '+14155550702' }],
			parameters: {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: byId(agent.id),
				fromNumber: byId('+14155550100'),
				toNumber: '={{ $json.to }}',
				fullName: 'Stop Person',
				// the do-not-call look-ups would spend the window's one request before any placement
				additionalFields: { doNotCall: { lists: { organizationList: false } } },
			},
		});
		// the second placement waits for the budget's reset, an hour away
		const { message, description, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		expect(sim.requestsTo('POST', '/v1/calls/single-phone-call')).toHaveLength(1);
		expect(message).toBe(STOPPED_BEFORE_SENDING);
		expect(`${message} ${description}`).not.toMatch(/may have been placed|after it was sent/);
	});

	it('a recording download from another host stops at once', async () => {
		let written: Promise<number> = Promise.resolve(0);
		host.handle = (_path, res) => {
			written = dripBytes(res);
		};
		const call = callWithRecording(sim, `${host.url}/slow.wav`);
		const run = startStoppableRun({
			credentials: credentials(),
			parameters: getWithRecording(call.id),
		});
		const { message, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		expect(message).toBe(
			`Downloading the recording of call ${call.id} failed: the execution was stopped, so the download was stopped`,
		);
		const sent = await written;
		// the host stops writing once the node lets go of the connection
		expect(sent).toBeLessThan(1_000_000);
	});

	it("a write on its way at the Stop is named in the execution's custom data as n8n saves it at the Stop", async () => {
		sim.faults.inject({ method: 'POST', path: '/v1/tags', fault: { delayMs: 3_000 } });
		const run = startStoppableRun({
			credentials: credentials(),
			parameters: { resource: 'tag', operation: 'create', name: 'stop-pending', color: '#112233' },
		});
		const arrived = new Promise<void>((resolve) => sim.onRequest(() => resolve()));
		await time.runUntilSettled(arrived);
		run.stop();
		const { message } = await time.runUntilSettled(run.done);
		expect(run.customDataAtStop()).toEqual({
			[STOPPED_NOTE_KEY]:
				'The tag may have been created: the execution was stopped while POST /v1/tags was on its way (item 0). Check Tag → Get Many before running this item again.',
		});
		expect(message).toMatch(
			/^The tag may have been created: the execution was stopped while it was on its way/,
		);
	});

	it('a call placed, then awaited at the Stop: said to be placed and going on, not "not sent"', async () => {
		// the default budgets: the agent's read and the placement go at once
		await sim.stop();
		sim = await startSimulator();
		const agent = [...sim.org.agents.values()][0];
		const run = startStoppableRun({
			credentials: credentials(),
			parameters: {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: byId(agent.id),
				fromNumber: byId('+14155550100'),
				toNumber: '+14155550703',
				fullName: 'Stop Person',
				waitFor: 'ended',
			},
		});
		const { message, description, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		const [call] = [...sim.org.calls.values()].filter((c) => c.to === '+14155550703');
		expect(message).toBe(
			`Call ${call.id} was placed and goes on: the execution was stopped while waiting for its outcome`,
		);
		expect(description).toMatch(/do not place it again/);
		expect(run.customDataAtStop()?.[STOPPED_NOTE_KEY]).toBe(
			`The execution was stopped while waiting for the outcome of calls it placed (item 0 → call ${call.id}). They were placed and go on: follow them with Call → Get Status, or hang up with Call → Stop; do not place them again.`,
		);
	});

	const fileRun = (rows: number) =>
		startStoppableRun({
			credentials: credentials(),
			parameters: FROM_FILE,
			items: [{}],
			binary: [fileItem(purchases('stop-wait', rows))],
		});

	it("a file's batch waiting for its turn at the Stop: the custom data names its rows as not sent", async () => {
		// 150 rows: the first 100 go, the other 50 wait for the events budget's reset, an hour away
		const run = fileRun(150);
		const { message, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		expect(message).toBe('Stopped at row 102 of the file');
		expect(sim.requestsTo('POST', '/v1/events')).toHaveLength(1);
		expect(run.customDataAtStop()).toEqual({
			[STOPPED_NOTE_KEY]:
				"Item 0's file stopped at row 102: run again with Options → Start at Row set to 102. Of 150 rows read: 100 done (100 stored, 0 duplicate, 0 not accepted), 0 sent with no answer (may be stored), 50 not sent.",
		});
	});

	it("a file's batch refused with a 429 at the Stop: its rows were not stored, and the custom data says so", async () => {
		sim.faults.inject({
			method: 'POST',
			path: '/v1/events',
			fault: { status: 429, retryAfter: 300, body: { statusCode: 429, message: 'Too many' } },
		});
		const run = fileRun(50);
		const { message, afterStopMs } = await stopAfterTenSeconds(run);
		expect(afterStopMs).toBeLessThan(2_000);
		expect(message).toBe('Stopped at row 2 of the file');
		expect(sim.requestsTo('POST', '/v1/events')).toHaveLength(1);
		expect(run.customDataAtStop()).toEqual({
			[STOPPED_NOTE_KEY]:
				"Item 0's file stopped at row 2: run again with Options → Start at Row set to 2. Of 50 rows read: 0 done (0 stored, 0 duplicate, 0 not accepted), 0 sent with no answer (may be stored), 50 not sent.",
		});
	});
});
