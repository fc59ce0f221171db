import {
	createServer,
	type IncomingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Node's own timer, taken before a test fakes time, so that a host keeps sending in real time. */
const realSetTimeout = setTimeout;

export interface HostedRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
}

/**
 * A second loopback origin (another port), standing for a storage host or any other server a
 * Base URL or a recording may send the nodes to. It records every request with its headers, so a
 * test can prove the API key never reached it; `handle` answers (an audio file by default).
 */
export interface FileHost {
	url: string;
	requests: HostedRequest[];
	handle: (path: string, res: ServerResponse) => void;
	stop(): Promise<void>;
}

export async function startFileHost(): Promise<FileHost> {
	const host: FileHost = {
		url: '',
		requests: [],
		handle: (_path, res) => {
			res.writeHead(200, { 'content-type': 'audio/mpeg' });
			res.end(Buffer.from('ID3 fake mp3 bytes'));
		},
		stop: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
	const server: Server = createServer((req, res) => {
		host.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		host.handle(req.url ?? '', res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return host;
}

/**
 * Answer with `totalBytes` of `contentType`, written chunk by chunk as the client reads (so the
 * host holds one chunk, whatever the size). Resolves with the bytes written when the answer ends
 * or the client goes away.
 */
export function sendBytes(
	res: ServerResponse,
	totalBytes: number,
	{ contentType = 'audio/wav', announceLength = true, chunk = Buffer.alloc(64 * 1024, 1) } = {},
): Promise<number> {
	res.writeHead(200, {
		'content-type': contentType,
		...(announceLength ? { 'content-length': String(totalBytes) } : {}),
	});
	let written = 0;
	return new Promise((resolve) => {
		const writeMore = () => {
			while (written < totalBytes && !res.destroyed) {
				const part = chunk.subarray(0, Math.min(chunk.length, totalBytes - written));
				written += part.length;
				if (!res.write(part)) return;
			}
			if (written >= totalBytes) res.end();
		};
		res.on('drain', writeMore);
		res.on('close', () => resolve(written));
		writeMore();
	});
}

/**
 * A server that drips: the headers of a large file, then one byte every few real milliseconds,
 * never silent long enough for an idle timeout. Resolves with the bytes sent when the client
 * goes away.
 */
export function dripBytes(res: ServerResponse, contentType = 'audio/wav'): Promise<number> {
	res.writeHead(200, { 'content-type': contentType, 'content-length': String(1_000_000) });
	let sent = 0;
	return new Promise((resolve) => {
		const drip = () => {
			if (res.destroyed) return resolve(sent);
			res.write(Buffer.from([0]));
			sent++;
			realSetTimeout(drip, 5);
		};
		res.on('close', () => resolve(sent));
		drip();
	});
}
