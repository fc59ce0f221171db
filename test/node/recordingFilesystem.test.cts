import { existsSync, readdirSync } from 'node:fs';

import { storedBytes, useFilesystemBinaryData } from '../../harness/binaryData.cts';
import { sendBytes, startFileHost, type FileHost } from '../../harness/fileHost.cts';
import { insertCall, startSimulator, type Simulator } from '../../simulator/index.cts';
import { getCallWithRecording } from '../helpers/recording.cts';

const MB = 1_000_000;

/**
 * With n8n's filesystem binary data mode (a production n8n's setting), the recording goes to a
 * file in n8n's storage: the item holds a reference, not the bytes. The memory this saves is
 * measured by `bench/recording.bench.cts`; here, that the file is whole and that a refused
 * download leaves no file behind.
 */
describe('Call → Get: the recording in n8n filesystem binary data mode', () => {
	let sim: Simulator;
	let host: FileHost;
	let storage: Awaited<ReturnType<typeof useFilesystemBinaryData>>;
	beforeAll(async () => {
		storage = await useFilesystemBinaryData();
		sim = await startSimulator();
		host = await startFileHost();
	});
	afterAll(async () => {
		await host.stop();
		await sim.stop();
		storage.restore();
	});

	const filesIn = (folder: string): string[] =>
		existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String) : [];

	const getCall = (callId: string, extra: Record<string, unknown> = {}) =>
		getCallWithRecording(sim, callId, extra);

	it('stores an 8 MB recording as a file, every byte, the item holding its reference', async () => {
		host.handle = (_path, res) => void sendBytes(res, 8 * MB, { announceLength: false });
		const call = insertCall(sim, { phase: 'ended' });
		call.call_record = `${host.url}/calls/${call.id}.wav`;
		const { items, error } = await getCall(call.id);
		expect(error).toBeUndefined();
		const audio = items[0].binary!.audio;
		expect(audio).toMatchObject({ mimeType: 'audio/wav', fileName: `${call.id}.wav` });
		expect(audio.id).toMatch(/^filesystem(-v2)?:/);
		expect(audio.data).not.toMatch(/^[A-Za-z0-9+/]{100}/);
		const bytes = await storedBytes(audio);
		expect(bytes.length).toBe(8 * MB);
		expect(bytes.every((byte) => byte === 1)).toBe(true);
	});

	it('leaves no file behind when the download is stopped at Max Recording Size', async () => {
		const before = filesIn(storage.folder).length;
		host.handle = (_path, res) => void sendBytes(res, 30 * MB, { announceLength: false });
		const call = insertCall(sim, { phase: 'ended' });
		call.call_record = `${host.url}/calls/${call.id}.wav`;
		const { error } = await getCall(call.id, { recordingMaxSizeMb: 3 });
		expect(error?.message).toMatch(/larger than 3 MB, more than the Max Recording Size of 3 MB/);
		expect(filesIn(storage.folder).filter((name) => /\.tmp\./.test(name))).toEqual([]);
		expect(filesIn(storage.folder).length).toBe(before);
	});
});
