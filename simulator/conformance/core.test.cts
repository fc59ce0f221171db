import { startSimulator, type Simulator } from '../index.cts';
import { api } from '../client.cts';

describe('simulator core: authentication, budgets, faults', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator({ windowMs: 60_000, limits: { org: 3, listing: 2 } });
	});
	afterEach(() => sim.stop());

	it('401 without a key or with an unknown key', async () => {
		expect((await api(sim, 'GET', '/v1/agents/voices', { key: null })).status).toBe(401);
		const wrong = await api(sim, 'GET', '/v1/agents/voices', { key: 'nope' });
		expect(wrong.status).toBe(401);
		expect(wrong.body.statusCode).toBe(401);
	});

	it('lists the voice catalog in the envelope', async () => {
		const res = await api(sim, 'GET', '/v1/agents/voices');
		expect(res.status).toBe(200);
		expect(res.body.statusCode).toBe(200);
		expect(res.body.data.map((v: { id: string }) => v.id)).toContain('voice-en-ava');
	});

	it('counts the organization budget in headers and answers 429 with Retry-After past it', async () => {
		const first = await api(sim, 'GET', '/v1/agents/voices');
		expect(first.headers.get('x-ratelimit-limit')).toBe('3');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
		expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
		await api(sim, 'GET', '/v1/agents/voices');
		await api(sim, 'GET', '/v1/agents/voices');
		const rejected = await api(sim, 'GET', '/v1/agents/voices');
		expect(rejected.status).toBe(429);
		expect(rejected.body).toEqual({ statusCode: 429, message: expect.any(String) });
		expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThan(0);
		await sim.clock.advance(60_000);
		expect((await api(sim, 'GET', '/v1/agents/voices')).status).toBe(200);
	});

	it('injects a fault on the next matching request only', async () => {
		sim.faults.inject({ path: '/v1/agents/voices', fault: { status: 502, retryAfter: 1 } });
		const faulty = await api(sim, 'GET', '/v1/agents/voices');
		expect(faulty.status).toBe(502);
		expect(faulty.headers.get('retry-after')).toBe('1');
		expect((await api(sim, 'GET', '/v1/agents/voices')).status).toBe(200);
	});

	it('drops a connection when asked', async () => {
		sim.faults.inject({ path: '/v1/agents/voices', fault: { drop: true } });
		await expect(api(sim, 'GET', '/v1/agents/voices')).rejects.toThrow();
	});

	it('serves an HTML error page when asked', async () => {
		sim.faults.inject({
			path: '/v1/agents/voices',
			fault: { status: 503, rawBody: '<html>down</html>' },
		});
		const res = await api(sim, 'GET', '/v1/agents/voices');
		expect(res.status).toBe(503);
		expect(res.body).toBe('<html>down</html>');
	});

	it('the IP budget counts unauthenticated requests too', async () => {
		const small = await startSimulator({ limits: { ip: 2 } });
		try {
			await api(small, 'GET', '/v1/agents/voices', { key: null });
			await api(small, 'GET', '/v1/agents/voices', { key: null });
			const res = await api(small, 'GET', '/v1/agents/voices');
			expect(res.status).toBe(429);
			expect(res.headers.get('x-ratelimit-limit-ip')).toBe('2');
		} finally {
			await small.stop();
		}
	});
});
