import type { RunNodeOptions } from '../../harness/engine.cts';
import { installFakeTime } from '../../harness/fakeTime.cts';
import { dripBytes, sendBytes, startFileHost, type FileHost } from '../../harness/fileHost.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { getCallWithRecording, withSimulatorAndFileHost } from '../helpers/recording.cts';

const MB = 1_000_000;
const TEN_MINUTES = 10 * 60_000;

/**
 * Call → Get with Download Recording against answers a recording server should not give: a file
 * past Max Recording Size, a web page, a server that drips bytes, redirects off the service.
 */
describe('Call → Get: what a recording download refuses', () => {
	let sim: Simulator;
	let host: FileHost;
	withSimulatorAndFileHost((s, h) => {
		sim = s;
		host = h;
	});

	const getCall = (
		callId: string,
		extra: Record<string, unknown> = {},
		run: Partial<RunNodeOptions> = {},
	) => getCallWithRecording(sim, callId, extra, run);

	/** A finished call whose recording is `path` on the file host. */
	const callOnHost = (path: string) => {
		const call = insertCall(sim, { phase: 'ended', duration: 50 });
		call.call_record = `${host.url}${path}`;
		return call;
	};

	it('stops reading at Max Recording Size when the size is not announced, and says so', async () => {
		let written: Promise<number> = Promise.resolve(0);
		host.handle = (_path, res) => {
			written = sendBytes(res, 200 * MB, { announceLength: false });
		};
		const call = callOnHost('/big.wav');
		const { items, error } = await getCall(call.id, { recordingMaxSizeMb: 1 });
		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`Downloading the recording of call ${call.id} failed: the recording is larger than 1 MB, more than the Max Recording Size of 1 MB, so it was not downloaded. Raise Max Recording Size to download it`,
		);
		// the host could write what the sockets buffer, far from the 200 MB it had
		expect(await written).toBeLessThan(50 * MB);
	});

	it('refuses a recording whose announced size is past Max Recording Size before reading it', async () => {
		let written: Promise<number> = Promise.resolve(0);
		host.handle = (_path, res) => {
			written = sendBytes(res, 200 * MB);
		};
		const call = callOnHost('/big.wav');
		const { error } = await getCall(call.id, { recordingMaxSizeMb: 5 });
		expect(error?.message).toBe(
			`Downloading the recording of call ${call.id} failed: the recording is 200 MB, more than the Max Recording Size of 5 MB, so it was not downloaded. Raise Max Recording Size to download it`,
		);
		expect(await written).toBeLessThan(50 * MB);
	});

	it('downloads a recording just under Max Recording Size whole', async () => {
		host.handle = (_path, res) => void sendBytes(res, 2 * MB - 1, { contentType: 'audio/mpeg' });
		const call = callOnHost('/files/just-under.mp3');
		const { items, error } = await getCall(call.id, { recordingMaxSizeMb: 2 });
		expect(error).toBeUndefined();
		expect(items[0].binary?.audio).toMatchObject({
			mimeType: 'audio/mpeg',
			fileName: 'just-under.mp3',
		});
		expect(Buffer.from(items[0].binary!.audio.data, 'base64').length).toBe(2 * MB - 1);
	});

	it('refuses a web page answered with 200 (an expired link, a login page) instead of saving it as the recording', async () => {
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
			res.end('<!doctype html><html><body>Sign in</body></html>');
		};
		const call = callOnHost('/expired.wav');
		const { error } = await getCall(call.id);
		expect(error?.message).toBe(
			`Downloading the recording of call ${call.id} failed: the recording server answered a web page (text/html), not audio: the recording URL may have expired or need a login`,
		);
		expect(error?.description).toMatch(/The call itself is fine/);
	});

	it('refuses JSON, and a web page sent as a generic file type', async () => {
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"error":"link expired"}');
		};
		const jsonCall = callOnHost('/expired.wav');
		expect((await getCall(jsonCall.id)).error?.message).toMatch(
			/answered a document \(application\/json\), not audio/,
		);
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			res.end('\n<!DOCTYPE html><html><body>Access denied</body></html>');
		};
		const pageCall = callOnHost('/denied.wav');
		expect((await getCall(pageCall.id)).error?.message).toMatch(
			/answered a web page or document, not audio/,
		);
	});

	it('under Continue On Fail, turns the refusal into the error of that item, without a binary', async () => {
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'text/html' });
			res.end('<html></html>');
		};
		const call = callOnHost('/page');
		const { items } = await getCall(call.id, {}, { continueOnFail: true });
		expect(items[0].json.error).toMatch(/not audio/);
		expect(items[0].binary).toBeUndefined();
	});

	it('refuses a Max Recording Size that is not a positive number before any request', async () => {
		const call = callOnHost('/any.wav');
		const before = sim.requests.length;
		const { error } = await getCall(call.id, { recordingMaxSizeMb: '={{ "lots" }}' });
		expect(error?.message).toBe(
			'Max Recording Size must be a number of megabytes above 0 ("lots" is not).',
		);
		expect(sim.requests.length).toBe(before);
		expect(host.requests).toEqual([]);
	});

	it.each([301, 302, 307, 308])(
		'follows a %i from the service to another origin without the API key',
		async (status) => {
			const call = insertCall(sim, { phase: 'ended' });
			sim.faults.inject({
				method: 'GET',
				path: `/v1/calls/${call.id}/recording`,
				fault: { status, headers: { location: `${host.url}/store/${call.id}.mp3` }, rawBody: '' },
			});
			const { items, error } = await getCall(call.id);
			expect(error).toBeUndefined();
			expect(items[0].binary?.audio).toMatchObject({ mimeType: 'audio/mpeg' });
			// the service got the key (its own origin); the other origin got one request, without it
			expect(sim.requestsTo('GET', `/v1/calls/${call.id}/recording`)[0].headers['x-api-key']).toBe(
				sim.apiKey,
			);
			expect(host.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
				`GET /store/${call.id}.mp3`,
			]);
			expect(host.requests[0].headers['x-api-key']).toBeUndefined();
			expect(JSON.stringify(host.requests[0].headers)).not.toContain(sim.apiKey);
		},
	);
});

describe('Call → Get: a recording server that drips bytes is stopped at the download deadline', () => {
	it('fails the item after 10 minutes of (fake) time, not when the server pleases, and closes the connection', async () => {
		const time = installFakeTime();
		const sim = await startSimulator();
		const host = await startFileHost();
		try {
			let sent: Promise<number> = Promise.resolve(0);
			host.handle = (_path, res) => {
				sent = dripBytes(res);
			};
			const call = insertCall(sim, { phase: 'ended' });
			call.call_record = `${host.url}/slow.wav`;
			const startedAt = time.now();
			const { error } = await time.runUntilSettled(getCallWithRecording(sim, call.id), {
				stepMs: 30_000,
				maxMs: 2 * TEN_MINUTES,
			});
			expect(error?.message).toBe(
				`Downloading the recording of call ${call.id} failed: the download did not finish within 10 minutes, the time a recording download may take in all, so it was stopped`,
			);
			const elapsed = time.now() - startedAt;
			expect(elapsed).toBeGreaterThanOrEqual(TEN_MINUTES);
			expect(elapsed).toBeLessThanOrEqual(TEN_MINUTES + 60_000);
			// the host saw the client go away with most of its million bytes unsent
			expect(await sent).toBeLessThan(1_000_000);
		} finally {
			await host.stop();
			await sim.stop();
			time.uninstall();
		}
	});
});
