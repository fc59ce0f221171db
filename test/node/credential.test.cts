import type { Server } from 'node:http';

import { closedAddress, startWebPage } from '../../harness/addresses.cts';
import { installFakeTime } from '../../harness/fakeTime.cts';
import { dripBytes, sendBytes, startFileHost, type FileHost } from '../../harness/fileHost.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { testCredential } from '../../harness/credentialTest.cts';
import { withSimulatorAndFileHost } from '../helpers/recording.cts';

describe('Voice Agent CRM API credential test', () => {
	let sim: Simulator;
	let webPage: { url: string; server: Server };
	beforeAll(async () => {
		sim = await startSimulator();
		webPage = await startWebPage();
	});
	afterAll(async () => {
		await sim.stop();
		await new Promise((resolve) => webPage.server.close(resolve));
	});

	it('passes with the simulator key, making one cheap documented request', async () => {
		const before = sim.requests.length;
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const made = sim.requests.slice(before);
		expect(made.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'GET /v1/agents/voices 200',
		]);
		expect(made[0].headers['x-api-key']).toBe(sim.apiKey);
	});

	it('passes with a base URL pasted with a trailing /v1/', async () => {
		expect(
			(await testCredential({ apiKey: sim.apiKey, baseUrl: `${sim.baseUrl}/v1/` })).status,
		).toBe('OK');
	});

	it('fails with a clear message naming the API key when the key is wrong, without echoing it', async () => {
		const wrongKey = 'vak_wrong_key_0123456789';
		const result = await testCredential({ apiKey: wrongKey, baseUrl: sim.baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			"The API key was refused. Check the API key in the Voice Agent CRM API credential (it comes from the dashboard's API settings) and that the Base URL points at the right service. (HTTP 401)",
		);
		expect(result.message).not.toContain(wrongKey);
	});

	it('fails when the Base URL answers 200 with a web page: it is not the API', async () => {
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: webPage.url });
		expect(result).toEqual({
			status: 'Error',
			message: `The Base URL does not point at the API: ${webPage.url} answered a web page instead of the API's list of voices. Use the address of the API (e.g. https://api.example.com), not the dashboard's.`,
		});
	});

	it('fails when the Base URL answers 404: a path of the service, not the API', async () => {
		const result = await testCredential({
			apiKey: sim.apiKey,
			baseUrl: `${sim.baseUrl}/somewhere-else`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Base URL does not point at the API: .* answered HTTP 404/);
	});

	it('says to add the scheme to a Base URL without http:// or https://, before any request', async () => {
		const before = sim.requests.length;
		const withoutScheme = sim.baseUrl.replace(/^http:\/\//, '');
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: withoutScheme });
		expect(result.message).toBe(
			`The Base URL must start with http:// or https:// ("${withoutScheme}" does not). Use the address of the API (e.g. https://api.example.com), not the dashboard's.`,
		);
		expect(
			(await testCredential({ apiKey: sim.apiKey, baseUrl: 'ftp://example.com' })).message,
		).toMatch(/must start with http:\/\//);
		expect(sim.requests.length).toBe(before);
	});

	it('says the connection was refused where nothing listens', async () => {
		const address = await closedAddress();
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: address });
		expect(result).toEqual({
			status: 'Error',
			message:
				'The service did not answer: the connection was refused. Check the Base URL in the credential and that the service is reachable.',
		});
	});

	it('says the host name could not be resolved for an unknown host', async () => {
		const result = await testCredential({
			apiKey: sim.apiKey,
			baseUrl: 'http://no-such-host.invalid',
		});
		expect(result.message).toBe(
			'The service did not answer: the host name could not be resolved. Check the Base URL in the credential and that the service is reachable.',
		);
	});
});

describe('Voice Agent CRM API credential test: the key stays on the Base URL, within a deadline', () => {
	let sim: Simulator;
	let host: FileHost;
	withSimulatorAndFileHost((s, h) => {
		sim = s;
		host = h;
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ statusCode: 200, data: [] }));
		};
	});

	it.each([301, 302, 307, 308])(
		'fails on a %i to another origin, naming it, and sends it nothing',
		async (status) => {
			sim.faults.inject({
				method: 'GET',
				path: '/v1/agents/voices',
				fault: { status, headers: { location: `${host.url}/v1/agents/voices` }, rawBody: '' },
			});
			const result = await testCredential({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
			expect(result).toEqual({
				status: 'Error',
				message: `The Base URL redirects the test request to ${host.url}, another address: the redirect was not followed, so the API key was not sent there. If ${host.url.replace('http://', '')} is the API, use ${host.url} as the Base URL.`,
			});
			expect(host.requests).toEqual([]);
			expect(sim.requestsTo('GET', '/v1/agents/voices')).toHaveLength(1);
		},
	);

	it('follows a redirect within the Base URL origin, with the key, and passes', async () => {
		sim.faults.inject({
			method: 'GET',
			path: '/v1/agents/voices',
			fault: {
				status: 307,
				headers: { location: `${sim.baseUrl}/v1/agents/voices?again=1` },
				rawBody: '',
			},
		});
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
		expect(result.status).toBe('OK');
		const made = sim.requestsTo('GET', '/v1/agents/voices');
		expect(made.map((r) => r.status)).toEqual([307, 200]);
		expect(made.every((r) => r.headers['x-api-key'] === sim.apiKey)).toBe(true);
	});

	it("words a 429 from the transport's contract: the test does not wait, so it says to test again", async () => {
		sim.faults.inject({
			method: 'GET',
			path: '/v1/agents/voices',
			fault: { status: 429, retryAfter: 30, body: { statusCode: 429, message: 'Too many' } },
		});
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
		expect(result.message).toBe(
			"The API's rate limit is reached for now. Test again in a minute. (HTTP 429)",
		);
	});

	it('refuses an answer past 5 MB: a list of voices is a few kilobytes', async () => {
		host.handle = (_path, res) =>
			void sendBytes(res, 20_000_000, { contentType: 'application/json', announceLength: false });
		const result = await testCredential({ apiKey: 'vak_test_key_0123456789', baseUrl: host.url });
		expect(result.message).toBe(
			`The Base URL answered the test with more than 5 MB, which is not the API's list of voices. Use the address of the API (e.g. https://api.example.com), not the dashboard's.`,
		);
	});

	it('never shows the user name and password of a Base URL that carries them', async () => {
		const secret = 'pa55-w0rd-never-shown';
		const withUser = (url: string) => url.replace('http://', `http://alice:${secret}@`);
		host.handle = (_path, res) => {
			res.writeHead(200, { 'content-type': 'text/html' });
			res.end('<html>Dashboard</html>');
		};
		const results = [
			await testCredential({ apiKey: sim.apiKey, baseUrl: withUser(host.url) }),
			await testCredential({ apiKey: sim.apiKey, baseUrl: withUser(await closedAddress()) }),
			await testCredential({
				apiKey: sim.apiKey,
				baseUrl: `alice:${secret}@${host.url.replace('http://', '')}`,
			}),
			await testCredential({
				apiKey: sim.apiKey,
				baseUrl: withUser(`${sim.baseUrl}/somewhere-else`),
			}),
		];
		expect(results.map((r) => r.status)).toEqual(['Error', 'Error', 'Error', 'Error']);
		expect(results[0].message).toContain(`${host.url} answered a web page`);
		for (const { message } of results) {
			expect(message).not.toContain(secret);
			expect(message).not.toContain('alice');
		}
	});
});

describe('Voice Agent CRM API credential test: a Base URL that drips its answer', () => {
	it('fails after 15 seconds of (fake) time, instead of waiting for the server or passing', async () => {
		const time = installFakeTime();
		const host = await startFileHost();
		try {
			let sent: Promise<number> = Promise.resolve(0);
			host.handle = (_path, res) => {
				sent = dripBytes(res, 'application/json');
			};
			const startedAt = time.now();
			const result = await time.runUntilSettled(
				testCredential({ apiKey: 'vak_test_key_0123456789', baseUrl: host.url }),
				{ stepMs: 1_000, maxMs: 120_000 },
			);
			expect(result).toEqual({
				status: 'Error',
				message:
					'The service did not answer: the answer did not complete within 15 seconds. Check the Base URL in the credential and that the service is reachable.',
			});
			const elapsed = time.now() - startedAt;
			expect(elapsed).toBeGreaterThanOrEqual(15_000);
			expect(elapsed).toBeLessThanOrEqual(17_000);
			expect(await sent).toBeLessThan(1_000_000);
		} finally {
			await host.stop();
			time.uninstall();
		}
	});
});
