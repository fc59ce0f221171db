/** Events ingestion, request level: envelope, 400, 403, and the events budgets. */
import { startSimulator, type Simulator } from '../index.cts';
import { api } from '../client.cts';
import { postEvents, SUMMARY_KEYS } from './events.helpers.cts';

const purchase = { event_name: 'purchase', contact: { email: 'maria@example.test' } };

describe('POST /v1/events: the request', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	it('answers 200 {statusCode, data: {summary, results}} with one result per event in request order', async () => {
		const res = await postEvents(sim, [
			{ event_name: 'purchase', event_id: 'order-1', contact: { email: 'maria@example.test' } },
			{ event_name: 'page_view', session_id: 'visit-1' },
			{ event_name: 42 },
		]);
		expect(res.status).toBe(200);
		expect(res.body.statusCode).toBe(200);
		expect(Object.keys(res.body.data.summary).sort()).toEqual([...SUMMARY_KEYS].sort());
		expect(res.body.data.summary).toEqual({
			received: 3,
			created: 1,
			unresolved: 0,
			pending: 1,
			duplicate: 0,
			rejected: 0,
			invalid: 1,
			contacts_created: 0,
		});
		const [created, pending, invalid] = res.body.data.results;
		expect(created).toEqual({
			index: 0,
			event_id: 'order-1',
			event_name: 'purchase',
			status: 'created',
			contact: { id: expect.any(String), matched_by: 'email', created: false },
		});
		expect(pending).toEqual({
			index: 1,
			event_id: null,
			event_name: 'page_view',
			status: 'pending',
		});
		expect(invalid).toEqual({
			index: 2,
			event_id: null,
			status: 'invalid',
			errors: [expect.any(String)],
		});
	});

	it('accepts exactly 100 events', async () => {
		const res = await postEvents(
			sim,
			Array.from({ length: 100 }, () => purchase),
		);
		expect(res.status).toBe(200);
		expect(res.body.data.summary.received).toBe(100);
		expect(res.body.data.results).toHaveLength(100);
	});

	it.each([
		['101 events', { events: Array.from({ length: 101 }, () => purchase) }],
		['an empty list', { events: [] }],
		['events not an array', { events: purchase }],
		['no events field', { event_name: 'purchase' }],
		['a bare array', [purchase]],
		['no body', undefined],
	])('answers 400 {statusCode, message} for %s', async (_label, body) => {
		const res = await api(sim, 'POST', '/v1/events', { body });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('1 to 100') });
	});

	it('answers 403 {statusCode, message} when the organization lacks the events add-on', async () => {
		const res = await postEvents(sim, [purchase], sim.otherOrg.apiKey);
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ statusCode: 403, message: expect.stringContaining('add-on') });
		expect(sim.otherOrg.events).toHaveLength(0);
	});

	it('answers 401 without an API key', async () => {
		const res = await postEvents(sim, [purchase], null);
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ statusCode: 401, message: expect.any(String) });
	});
});

describe('POST /v1/events: budgets', () => {
	let sim: Simulator;
	const anonymous = { event_name: 'page_view', session_id: 'visit-1' };
	beforeEach(async () => {
		sim = await startSimulator({ limits: { events: 2, eventsAnonymous: 1, org: 5 } });
	});
	afterEach(() => sim.stop());

	it('draws on its own budget, not on the organization budget, and answers 429 past it', async () => {
		const first = await postEvents(sim, [purchase]);
		expect(first.headers.get('x-ratelimit-limit')).toBe('2');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
		expect(first.headers.get('x-ratelimit-limit-anonymous')).toBeNull();
		expect((await postEvents(sim, [purchase])).status).toBe(200);
		const rejected = await postEvents(sim, [purchase]);
		expect(rejected.status).toBe(429);
		expect(rejected.body).toEqual({ statusCode: 429, message: expect.stringContaining('events') });
		expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThan(0);
		// the organization budget is untouched by the events requests
		const other = await api(sim, 'GET', '/v1/agents/voices');
		expect(other.status).toBe(200);
		expect(other.headers.get('x-ratelimit-limit')).toBe('5');
		expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
	});

	it('a rejected batch stores nothing, and the budget comes back with the next window', async () => {
		await postEvents(sim, [purchase]);
		await postEvents(sim, [purchase]);
		const stored = sim.org.events.length;
		expect((await postEvents(sim, [purchase])).status).toBe(429);
		expect(sim.org.events).toHaveLength(stored);
		await sim.clock.advance(60_000);
		expect((await postEvents(sim, [purchase])).status).toBe(200);
	});

	it('requests with anonymous events also draw on the smaller anonymous budget', async () => {
		const first = await postEvents(sim, [purchase, anonymous]);
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-limit-anonymous')).toBe('1');
		expect(first.headers.get('x-ratelimit-remaining-anonymous')).toBe('0');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
		const second = await postEvents(sim, [anonymous]);
		expect(second.status).toBe(429);
		expect(second.body).toEqual({ statusCode: 429, message: expect.stringContaining('anonymous') });
		expect(second.headers.get('retry-after')).not.toBeNull();
		// identified events still go through on the events budget the 429 did not spend
		expect((await postEvents(sim, [purchase])).status).toBe(200);
		expect((await postEvents(sim, [purchase])).status).toBe(429);
	});
});
