import { sendBytes, startFileHost } from '../../harness/fileHost.cts';
import { pollingTrigger } from '../../harness/poll.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';

const MINUTE = 60_000;

/** The polling trigger's Download Recording: the audio of each emitted call, or a note saying why there is none. */
describe('Voice Agent CRM Trigger: recordings as files', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it("puts each emitted call's recording into the chosen binary property; a call without one gets a recording_note", async () => {
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: {
				event: 'callFinished',
				downloadRecording: true,
				recordingBinaryProperty: 'audio',
			},
			clock: () => sim.clock.now(),
		});
		expect(await trigger.poll()).toBeNull();
		await sim.clock.advance(MINUTE);
		const answered = insertCall(sim, { created_at: sim.clock.iso(), phase: 'ended', duration: 30 });
		const unanswered = insertCall(sim, { created_at: sim.clock.iso(), phase: 'no_answer' });
		const [items] = (await trigger.poll())!;
		const byId = new Map(items.map((item) => [item.json.id, item]));
		expect(byId.get(answered.id)!.binary?.audio).toMatchObject({
			mimeType: 'audio/wav',
			fileName: `call-${answered.id}.wav`,
		});
		expect(Buffer.from(byId.get(answered.id)!.binary!.audio.data, 'base64').length).toBe(
			44 + 16_000,
		);
		expect(byId.get(unanswered.id)!.binary).toBeUndefined();
		expect(byId.get(unanswered.id)!.json.recording_note).toMatch(/has no recording/);
	});

	it('emits the call with the failure in recording_note when the download fails, rather than failing the poll', async () => {
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'callFinished', downloadRecording: true },
			clock: () => sim.clock.now(),
		});
		await trigger.poll();
		await sim.clock.advance(MINUTE);
		const call = insertCall(sim, { created_at: sim.clock.iso(), phase: 'ended' });
		sim.faults.inject({
			method: 'GET',
			path: `/v1/calls/${call.id}/recording`,
			fault: { status: 503, body: { statusCode: 503, message: 'Unavailable' } },
		});
		const [items] = (await trigger.poll())!;
		expect(items.map((item) => item.json.id)).toEqual([call.id]);
		expect(items[0].json.recording_note).toMatch(/answered HTTP 503/);
		expect(await trigger.poll()).toBeNull();
	});

	it('emits the call with a recording_note saying why, when the recording is a web page or past Max Recording Size', async () => {
		const host = await startFileHost();
		try {
			host.handle = (path, res) => {
				if (path === '/page.wav') {
					res.writeHead(200, { 'content-type': 'text/html' });
					res.end('<html><body>Link expired</body></html>');
				} else void sendBytes(res, 3_000_000);
			};
			const trigger = pollingTrigger({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { event: 'callFinished', downloadRecording: true, recordingMaxSizeMb: 2 },
				clock: () => sim.clock.now(),
			});
			await trigger.poll();
			await sim.clock.advance(MINUTE);
			const page = insertCall(sim, { created_at: sim.clock.iso(), phase: 'ended' });
			page.call_record = `${host.url}/page.wav`;
			const large = insertCall(sim, { created_at: sim.clock.iso(), phase: 'ended' });
			large.call_record = `${host.url}/large.wav`;
			const [items] = (await trigger.poll())!;
			const byId = new Map(items.map((item) => [item.json.id, item]));
			expect(byId.get(page.id)!.binary).toBeUndefined();
			expect(byId.get(page.id)!.json.recording_note).toMatch(
				/answered a web page \(text\/html\), not audio/,
			);
			expect(byId.get(large.id)!.binary).toBeUndefined();
			expect(byId.get(large.id)!.json.recording_note).toMatch(
				/the recording is 3 MB, more than the Max Recording Size of 2 MB/,
			);
			expect(host.requests.every((r) => r.headers['x-api-key'] === undefined)).toBe(true);
		} finally {
			await host.stop();
		}
	});
});
