import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Base URLs that are not the API, for the credential test in jest and in the real editor: a web
 * page (as a dashboard answers: 200 with HTML at every path) and an address where nothing listens.
 */
export async function startWebPage(): Promise<{ url: string; server: Server }> {
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<!doctype html><html><body><h1>Dashboard</h1></body></html>');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A port taken, then freed: connecting there is refused. */
export async function closedAddress(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}
