import { startSimulator, type Simulator } from '../../simulator';
import { testCredential } from '../../harness/credentialTest';

describe('Voice Agent CRM API credential test', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('passes with the simulator key, making one cheap documented request', async () => {
		const before = sim.requests.length;
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const made = sim.requests.slice(before);
		expect(made.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/agents/voices 200']);
		expect(made[0].headers['x-api-key']).toBe(sim.apiKey);
	});

	it('passes with a base URL pasted with a trailing /v1/', async () => {
		expect((await testCredential({ apiKey: sim.apiKey, baseUrl: `${sim.baseUrl}/v1/` })).status).toBe('OK');
	});

	it('fails with a clear message naming the API key when the key is wrong, without echoing it', async () => {
		const wrongKey = 'vak_wrong_key_0123456789';
		const result = await testCredential({ apiKey: wrongKey, baseUrl: sim.baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/API key was refused \(401\)/);
		expect(result.message).not.toContain(wrongKey);
	});

	it('tells a wrong base URL apart from a wrong key', async () => {
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: `${sim.baseUrl}/somewhere-else` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Base URL does not point at the API/);
	});

	it('refuses a base URL that is not http(s)', async () => {
		const result = await testCredential({ apiKey: sim.apiKey, baseUrl: 'ftp://example.com' });
		expect(result.status).toBe('Error');
	});
});
