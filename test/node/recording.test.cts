import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { getCallWithRecording } from '../helpers/recording.cts';

/** Call → Get with Download Recording: the recording as a binary property, the key only on the service's origin. */
describe('Call → Get: the recording as a file', () => {
	let sim: Simulator;
	let other: http.Server;
	let otherUrl = '';
	const otherRequests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

	beforeAll(async () => {
		sim = await startSimulator();
		// another host (another port is another origin): an MP3 behind one redirect
		other = http.createServer((req, res) => {
			otherRequests.push({ url: req.url ?? '', headers: req.headers });
			if (req.url === '/moved') {
				res.writeHead(302, { location: '/files/voice.mp3' });
				res.end();
				return;
			}
			res.writeHead(200, { 'content-type': 'audio/mpeg' });
			res.end(Buffer.from('ID3 fake mp3 bytes'));
		});
		await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
		otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await sim.stop();
		await new Promise<void>((resolve) => other.close(() => resolve()));
	});

	const getCall = (callId: string, extra: Record<string, unknown> = {}) =>
		getCallWithRecording(sim, callId, extra);

	it("downloads a finished call's recording from the service (with the key) as a WAV file", async () => {
		const call = insertCall(sim, { phase: 'ended', duration: 50 });
		expect(call.call_record).toBe(`${sim.baseUrl}/v1/calls/${call.id}/recording`);
		const { items, error } = await getCall(call.id);
		expect(error).toBeUndefined();
		const file = items[0].binary?.audio;
		expect(file).toMatchObject({ mimeType: 'audio/wav', fileName: `call-${call.id}.wav` });
		const bytes = Buffer.from(file!.data, 'base64');
		// one second of 8 kHz 16-bit mono PCM after the 44-byte header
		expect(bytes.length).toBe(44 + 16_000);
		expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
		expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
		expect(items[0].json).toMatchObject({ id: call.id, call_status: 'completed' });
		expect(items[0].json.recording_note).toBeUndefined();
		const download = sim.requestsTo('GET', `/v1/calls/${call.id}/recording`);
		expect(download).toHaveLength(1);
		expect(download[0].status).toBe(200);
	});

	it('never sends the API key to a recording on another origin, redirects included', async () => {
		const call = insertCall(sim, { phase: 'ended' });
		call.call_record = `${otherUrl}/moved`;
		const { items, error } = await getCall(call.id);
		expect(error).toBeUndefined();
		expect(items[0].binary?.audio).toMatchObject({ mimeType: 'audio/mpeg', fileName: 'voice.mp3' });
		expect(Buffer.from(items[0].binary!.audio.data, 'base64').toString()).toBe(
			'ID3 fake mp3 bytes',
		);
		expect(otherRequests.map((r) => r.url)).toEqual(['/moved', '/files/voice.mp3']);
		for (const request of otherRequests) {
			expect(request.headers['x-api-key']).toBeUndefined();
			expect(JSON.stringify(request.headers)).not.toContain(sim.apiKey);
		}
	});

	it('says so in the item, without failing it, when the call has no recording', async () => {
		const call = insertCall(sim, { phase: 'no_answer' });
		expect(call.call_record).toBeNull();
		const { items, error } = await getCall(call.id);
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.recording_note).toMatch(/has no recording/);
	});

	it('fails the item, naming the call, when the download fails; Continue On Fail keeps going', async () => {
		const call = insertCall(sim, { phase: 'ended' });
		call.call_record = `${sim.baseUrl}/v1/calls/00000000-0000-4000-8000-000000000000/recording`;
		const { error } = await getCall(call.id);
		expect(error?.message).toBe(
			`Downloading the recording of call ${call.id} failed: the recording server answered HTTP 404`,
		);
		const { items } = await getCallWithRecording(sim, call.id, {}, { continueOnFail: true });
		expect(items[0].json.error).toMatch(/Downloading the recording/);
	});
});
