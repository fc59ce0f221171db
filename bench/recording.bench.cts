import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

import { storedBytes, useFilesystemBinaryData } from '../harness/binaryData.cts';
import { runNode } from '../harness/engine.cts';
import { sendBytes, startFileHost } from '../harness/fileHost.cts';
import { insertCall, startSimulator, type Simulator } from '../simulator/index.cts';

const MIB = 1024 * 1024;
const RECORDING_BYTES = 256 * MIB;
const CHILD_FLAG = 'RECORDING_BENCH_CHILD';

interface ChildRun {
	peakRssGrowthMib: number;
	storedBytes: number;
	inMemoryBytes: number;
}

/**
 * A 256 MiB recording through n8n's engine (Call → Get with Download Recording) with n8n's
 * filesystem binary data mode, as a production n8n runs: the recording is on the service, which
 * redirects to a storage host on another origin (the download follows without the key).
 *
 * - `recording_peak_rss_growth_mib_256`: how far the peak resident memory of the process running
 *   the node rose above where it stood before the download (goal < 64).
 * - `recording_stored_mib_256`: the size of the file n8n stored (256: every byte).
 *
 * The node runs in a child process of its own, so that the benches run before it leave no memory
 * in the figure; the peak is the kernel's (VmHWM, reset just before the download).
 */
export async function run(): Promise<Record<string, number>> {
	const sim = await startSimulator({ seed: false });
	const host = await startFileHost();
	host.handle = (_path, res) =>
		void sendBytes(res, RECORDING_BYTES, { chunk: Buffer.alloc(MIB, 7) });
	try {
		// the warm-up downloads the service's own small recording: the engine runs once, the download's buffers do not
		const warmUp = insertCall(sim, { phase: 'ended' }).id;
		const measured = recordingBehindRedirect(sim, host.url);
		const child = await runChild({
			BASE_URL: sim.baseUrl,
			API_KEY: sim.apiKey,
			WARM_UP_CALL: warmUp,
			CALL: measured,
		});
		if (child.storedBytes !== RECORDING_BYTES)
			throw new Error(`stored ${child.storedBytes} bytes of ${RECORDING_BYTES}`);
		if (child.inMemoryBytes !== 0)
			throw new Error(`the item held ${child.inMemoryBytes} bytes of the recording in memory`);
		if (host.requests.some((request) => request.headers['x-api-key'] !== undefined))
			throw new Error('the storage host received the API key');
		return {
			recording_peak_rss_growth_mib_256: Math.round(child.peakRssGrowthMib),
			recording_stored_mib_256: child.storedBytes / MIB,
		};
	} finally {
		await host.stop();
		await sim.stop();
	}
}

/** A finished call whose recording, on the service, redirects once to the storage host. */
function recordingBehindRedirect(sim: Simulator, storageUrl: string): string {
	const call = insertCall(sim, { phase: 'ended' });
	sim.faults.inject({
		method: 'GET',
		path: `/v1/calls/${call.id}/recording`,
		fault: { status: 302, headers: { location: `${storageUrl}/${call.id}.wav` }, rawBody: '' },
	});
	return call.id;
}

async function runChild(env: Record<string, string>): Promise<ChildRun> {
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', '--expose-gc', __filename],
		{
			env: { ...process.env, ...env, [CHILD_FLAG]: '1', TS_NODE_PREFER_TS_EXTS: 'true' },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	const line = output.split('\n').find((text) => text.startsWith('{"peakRssGrowthMib"'));
	if (code !== 0 || !line) throw new Error(`the measuring process failed (exit ${code})`);
	return JSON.parse(line) as ChildRun;
}

function peakRssBytes(): number {
	const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
	return match ? Number(match[1]) * 1024 : 0;
}

/** In the child: one warm-up download, then the measured one, peak memory from the kernel. */
async function measure(): Promise<void> {
	const storage = await useFilesystemBinaryData();
	const credentials = { apiKey: process.env.API_KEY!, baseUrl: process.env.BASE_URL! };
	const getRecording = (callId: string) =>
		runNode({
			credentials,
			parameters: {
				resource: 'call',
				operation: 'get',
				callId,
				downloadRecording: true,
				recordingBinaryProperty: 'audio',
				recordingMaxSizeMb: 300,
			},
		});
	try {
		// module loading and the engine's first run are not the download's memory
		await getRecording(process.env.WARM_UP_CALL!);
		(globalThis as { gc?: () => void }).gc?.();
		const before = process.memoryUsage().rss;
		writeFileSync('/proc/self/clear_refs', '5');
		const { items, error } = await getRecording(process.env.CALL!);
		const peak = peakRssBytes();
		if (error) throw new Error(`the download failed: ${error.message}`);
		const audio = items[0].binary!.audio;
		const result: ChildRun = {
			peakRssGrowthMib: (peak - before) / MIB,
			storedBytes: (await storedBytes(audio)).length,
			inMemoryBytes: audio.id ? 0 : Buffer.from(audio.data, 'base64').length,
		};
		console.error(`recording bench: rss before ${before / MIB} MiB, peak ${peak / MIB} MiB`);
		console.log(JSON.stringify(result));
	} finally {
		storage.restore();
	}
}

if (process.env[CHILD_FLAG]) {
	measure().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
