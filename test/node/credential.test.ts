import type { Server } from 'node:http';

import { closedAddress, startWebPage } from '../../harness/addresses';
import { startSimulator, type Simulator } from '../../simulator';
import { testCredential } from '../../harness/credentialTest';

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
		expect(result.message).toMatch(/API key was refused \(401\)/);
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
			message: `The service did not answer: the connection was refused. Check the Base URL (${address}) and that the service is reachable.`,
		});
	});

	it('says the host name could not be resolved for an unknown host', async () => {
		const result = await testCredential({
			apiKey: sim.apiKey,
			baseUrl: 'http://no-such-host.invalid',
		});
		expect(result.message).toBe(
			'The service did not answer: the host name could not be resolved. Check the Base URL (http://no-such-host.invalid) and that the service is reachable.',
		);
	});
});
