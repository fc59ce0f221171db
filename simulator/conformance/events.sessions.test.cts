/** Events ingestion: anonymous sessions, their identification and expiry, and the rejections. */
import { PENDING_RETENTION_MS } from '../events/sessions.cts';
import { storedEvents } from '../events/store.cts';
import { startSimulator, type Simulator } from '../index.cts';
import { contactByEmail, postEvent, postEvents } from './events.helpers.cts';

const DAY = 24 * 60 * 60 * 1000;

describe('POST /v1/events: anonymous sessions', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const visit = (event_name: string, extra: Record<string, unknown> = {}) => ({
		event_name,
		session_id: 'visit-1',
		...extra,
	});

	it('an event with a session_id and no contact data is pending, stored without a contact', async () => {
		const result = await postEvent(
			sim,
			visit('page_view', { event_id: 'pv-1', contact: { name: 'Not an identifier' } }),
		);
		expect(result).toEqual({
			index: 0,
			event_id: 'pv-1',
			event_name: 'page_view',
			status: 'pending',
		});
		expect(storedEvents(sim.org, { event_id: 'pv-1' })[0]).toMatchObject({
			status: 'pending',
			contact_id: null,
			session_id: 'visit-1',
		});
	});

	it('a later event with the session_id and contact data identifies the session and moves its pending events', async () => {
		const maria = contactByEmail(sim.org, 'maria@example.test');
		await postEvents(sim, [
			visit('page_view', { event_id: 'pv-1', occurred_at: '2025-01-01T10:00:00Z' }),
			visit('add_to_cart', { event_id: 'pv-2', occurred_at: '2025-01-01T10:05:00Z' }),
		]);
		await sim.clock.advance(2 * DAY);
		const identifying = await postEvent(
			sim,
			visit('signup', { contact: { email: 'maria@example.test' } }),
		);
		expect(identifying).toMatchObject({
			status: 'created',
			contact: { id: maria.id, matched_by: 'email', created: false },
		});
		expect(storedEvents(sim.org, { session_id: 'visit-1', status: 'pending' })).toHaveLength(0);
		const moved = storedEvents(sim.org, { session_id: 'visit-1', contact_id: maria.id });
		expect(moved.map((e) => [e.event_id, e.status, e.occurred_at])).toEqual([
			['pv-1', 'created', '2025-01-01T10:00:00.000Z'],
			['pv-2', 'created', '2025-01-01T10:05:00.000Z'],
			[null, 'created', expect.any(String)],
		]);
	});

	it('later events with only the session_id go straight to the contact', async () => {
		await postEvent(sim, visit('page_view'));
		const identifying = await postEvent(
			sim,
			visit('signup', { contact: { email: 'fresh@example.test' } }),
		);
		expect(identifying.contact).toEqual({
			id: expect.any(String),
			matched_by: null,
			created: true,
		});
		const later = await postEvent(sim, visit('page_view'));
		expect(later).toEqual({
			index: 0,
			event_id: null,
			event_name: 'page_view',
			status: 'created',
			contact: { id: identifying.contact.id, matched_by: 'session', created: false },
		});
		// the events of the session are now the contact's: the two page views and the signup
		expect(storedEvents(sim.org, { contact_id: identifying.contact.id })).toHaveLength(3);
	});

	it('an unidentified session that stays silent for 30 days is removed', async () => {
		await postEvent(sim, visit('page_view', { event_id: 'old-visit' }));
		await sim.clock.advance(PENDING_RETENTION_MS - 1_000);
		expect(storedEvents(sim.org, { event_id: 'old-visit', status: 'pending' })).toHaveLength(1);
		await sim.clock.advance(1_000);
		expect(storedEvents(sim.org, { session_id: 'visit-1' })).toHaveLength(0);
		// identifying the session now finds nothing left to move
		const late = await postEvent(
			sim,
			visit('signup', { contact: { email: 'maria@example.test' } }),
		);
		expect(late.status).toBe('created');
		expect(storedEvents(sim.org, { session_id: 'visit-1' })).toHaveLength(1);
	});

	it('pending events identified within 30 days are kept past them', async () => {
		await postEvent(sim, visit('page_view', { event_id: 'kept' }));
		await sim.clock.advance(29 * DAY);
		await postEvent(sim, visit('signup', { contact: { email: 'maria@example.test' } }));
		await sim.clock.advance(5 * DAY);
		expect(storedEvents(sim.org, { event_id: 'kept', status: 'created' })).toHaveLength(1);
	});

	it('anonymous_daily_limit: past the daily cap anonymous events are rejected until the next UTC day', async () => {
		sim.org.anonymousDailyCap = 2;
		const res = await postEvents(sim, [
			visit('a'),
			visit('b'),
			visit('c', { event_id: 'third' }),
			{ event_name: 'd', contact: { email: 'maria@example.test' } },
		]);
		expect(res.body.data.results.map((r: any) => [r.status, r.reason])).toEqual([
			['pending', undefined],
			['pending', undefined],
			['rejected', 'anonymous_daily_limit'],
			['created', undefined],
		]);
		expect(res.body.data.summary).toMatchObject({ pending: 2, rejected: 1, created: 1 });
		expect(storedEvents(sim.org, { event_id: 'third' })).toHaveLength(0);
		const now = sim.clock.now();
		await sim.clock.set(
			Date.UTC(
				new Date(now).getUTCFullYear(),
				new Date(now).getUTCMonth(),
				new Date(now).getUTCDate() + 1,
			),
		);
		expect((await postEvent(sim, visit('c', { event_id: 'third' }))).status).toBe('pending');
	});
});

describe('POST /v1/events: rejections', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	it('no_identity: no contact data and no session_id', async () => {
		const res = await postEvents(sim, [
			{ event_name: 'purchase', event_id: 'anon-1' },
			{ event_name: 'purchase', contact: { name: 'Only a name', country: 'ES' } },
		]);
		expect(res.body.data.results[0]).toEqual({
			index: 0,
			event_id: 'anon-1',
			event_name: 'purchase',
			status: 'rejected',
			reason: 'no_identity',
		});
		expect(res.body.data.results[1]).toMatchObject({ status: 'rejected', reason: 'no_identity' });
		expect(res.body.data.summary).toMatchObject({ rejected: 2 });
		expect(storedEvents(sim.org)).toHaveLength(0);
		// a rejected event does not take its id
		expect(
			(await postEvent(sim, { event_name: 'purchase', event_id: 'anon-1', session_id: 's-1' }))
				.status,
		).toBe('pending');
	});

	it('event_name_limit: past the distinct-name cap new names are rejected, known names still accepted', async () => {
		sim.org.eventNameCap = 2;
		const maria = { email: 'maria@example.test' };
		const res = await postEvents(sim, [
			{ event_name: 'purchase', contact: maria },
			{ event_name: 'page_view', session_id: 's-1' },
			{ event_name: 'refund', event_id: 'r-1', contact: maria },
			{ event_name: 'Purchase', contact: maria },
		]);
		expect(res.body.data.results.map((r: any) => [r.event_name, r.status, r.reason])).toEqual([
			['purchase', 'created', undefined],
			['page_view', 'pending', undefined],
			['refund', 'rejected', 'event_name_limit'],
			['purchase', 'created', undefined],
		]);
		expect(storedEvents(sim.org, { event_id: 'r-1' })).toHaveLength(0);
	});

	it('the default distinct-name cap is 500', () => {
		expect(sim.org.eventNameCap).toBe(500);
		expect(sim.org.anonymousDailyCap).toBe(100_000);
	});
});
