import { runNode } from '../../harness/engine.cts';
import type { FileHost } from '../../harness/fileHost.cts';
import { PLAIN_HTTP } from '../../nodes/VoiceAgentCrm/transport/errors';
import type { Simulator } from '../../simulator/index.cts';
import { withSimulatorAndFileHost } from '../helpers/recording.cts';
import { callWithRecording, getWithRecording } from './recordingCall.cts';

/**
 * Faults whose raw words say nothing to a user (issue 31, point 7): an https:// address on a port
 * that speaks plain HTTP (OpenSSL's "wrong version number"), and a recording whose
 * Content-Disposition carries a `filename*` that is not valid percent-encoding ("URI malformed").
 */
describe('plain words for faults that came in raw text', () => {
	let sim: Simulator;
	let host: FileHost;
	withSimulatorAndFileHost((s, h) => {
		sim = s;
		host = h;
	});

	const asHttps = (url: string) => url.replace('http://', 'https://');

	it('an https:// Base URL on a plain HTTP port: the message says so, not OpenSSL', async () => {
		const { error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: asHttps(sim.baseUrl) },
			parameters: { resource: 'tag', operation: 'getAll', returnAll: true },
		});
		expect(error?.message).toBe(PLAIN_HTTP);
		expect(`${error?.message} ${error?.description}`).not.toMatch(/SSL|EPROTO|wrong version/i);
		expect(sim.requests).toHaveLength(0);
	});

	const getRecording = (callId: string) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: getWithRecording(callId),
		});

	it('an https:// recording URL on a plain HTTP server: the item says so, not OpenSSL', async () => {
		const call = callWithRecording(sim, `${asHttps(host.url)}/r.wav`);
		const { error } = await getRecording(call.id);
		expect(error?.message).toBe(
			`Downloading the recording of call ${call.id} failed: the recording URL uses https:// but its server answered plain HTTP`,
		);
	});

	const answerWith = (disposition: string) => {
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-disposition': disposition });
			res.end(Buffer.from('ID3 fake mp3 bytes'));
		};
	};

	it.each([
		[`attachment; filename="fallback.mp3"; filename*=UTF-8''bad%E0%A4%A.mp3`, 'fallback.mp3'],
		[`attachment; filename*=UTF-8''%ZZ.mp3`, 'r%20x.mp3'],
		[`attachment; filename*=UTF-8''caf%C3%A9.mp3; filename="cafe.mp3"`, 'café.mp3'],
	])('Content-Disposition %s → %s', async (disposition, fileName) => {
		answerWith(disposition);
		const call = callWithRecording(sim, `${host.url}/files/r%20x.mp3`);
		const { items, error } = await getRecording(call.id);
		expect(error).toBeUndefined();
		expect(items[0].binary?.audio).toMatchObject({ fileName: fileName.replace('%20', ' ') });
	});

	it('a recording URL whose last segment is not valid percent-encoding keeps it as written', async () => {
		answerWith('inline');
		const call = callWithRecording(sim, `${host.url}/files/bad%E0.mp3`);
		const { items, error } = await getRecording(call.id);
		expect(error).toBeUndefined();
		expect(items[0].binary?.audio).toMatchObject({ fileName: 'bad%E0.mp3' });
	});
});
