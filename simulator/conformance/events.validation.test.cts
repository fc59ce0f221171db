/** Events ingestion, per-event validation: name normalization, field rules and limits. */
import { storedEvents } from '../events/store.cts';
import { startSimulator, type Simulator } from '../index.cts';
import { postEvent, postEvents } from './events.helpers.cts';

const HOUR = 60 * 60 * 1000;
const maria = { email: 'maria@example.test' };

describe('POST /v1/events: event validation', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	/** The result of one event for `maria` with extra fields. */
	const send = (fields: Record<string, unknown>) =>
		postEvent(sim, { event_name: 'purchase', contact: maria, ...fields });

	function expectInvalid(result: any, errorPart: string): void {
		expect(result.status).toBe('invalid');
		expect(result.errors).toEqual(expect.arrayContaining([expect.stringContaining(errorPart)]));
		expect(result.contact).toBeUndefined();
	}

	describe('event_name normalization', () => {
		it.each([
			['Add To Cart', 'add_to_cart'],
			['purchaseCompleted', 'purchase_completed'],
			['PageView', 'page_view'],
			['sign-up.form', 'sign_up_form'],
			['Café Ordered', 'cafe_ordered'],
			['HTMLFormSent', 'html_form_sent'],
			['  Trial   started ', 'trial_started'],
		])('%j becomes %j and reports the original name', async (raw, normalized) => {
			const result = await postEvent(sim, { event_name: raw, contact: maria });
			expect(result).toMatchObject({
				status: 'created',
				event_name: normalized,
				original_event_name: raw,
			});
			expect(storedEvents(sim.org, { event_name: normalized })).toHaveLength(1);
		});

		it('leaves original_event_name out when the name was already normalized', async () => {
			const result = await postEvent(sim, { event_name: 'add_to_cart', contact: maria });
			expect(result.event_name).toBe('add_to_cart');
			expect(result).not.toHaveProperty('original_event_name');
		});

		it('accepts 40 characters after normalization and rejects 41 as invalid', async () => {
			expect((await postEvent(sim, { event_name: 'a'.repeat(40), contact: maria })).status).toBe(
				'created',
			);
			const tooLong = await postEvent(sim, { event_name: 'a'.repeat(41), contact: maria });
			expectInvalid(tooLong, 'at most 40 characters');
			expect(tooLong.event_name).toBe('a'.repeat(41));
		});

		it('counts the length after normalization', async () => {
			// 39 letters and one capital: 41 characters once the capital becomes `_x`
			const result = await postEvent(sim, { event_name: `${'a'.repeat(39)}X`, contact: maria });
			expectInvalid(result, 'at most 40 characters');
		});

		it('needs a letter first', async () => {
			expectInvalid(
				await postEvent(sim, { event_name: '2fa enabled', contact: maria }),
				'start with a letter',
			);
			expectInvalid(
				await postEvent(sim, { event_name: '', contact: maria }),
				'start with a letter',
			);
		});

		it('reserves the cs_ prefix, also when normalization produces it', async () => {
			expectInvalid(
				await postEvent(sim, { event_name: 'cs_call_ended', contact: maria }),
				'reserved',
			);
			const result = await postEvent(sim, { event_name: 'CS Purchase', contact: maria });
			expectInvalid(result, 'reserved');
			expect(result).toMatchObject({
				event_name: 'cs_purchase',
				original_event_name: 'CS Purchase',
			});
		});

		it('leaves event_name out of the result only when the name is unreadable', async () => {
			const missing = await postEvent(sim, { contact: maria });
			expectInvalid(missing, 'event_name is required');
			expect(missing).not.toHaveProperty('event_name');
			const notString = await postEvent(sim, { event_name: ['purchase'], contact: maria });
			expect(notString).not.toHaveProperty('event_name');
		});
	});

	describe('event_id', () => {
		it('accepts 200 characters and rejects 201', async () => {
			expect((await send({ event_id: 'i'.repeat(200) })).status).toBe('created');
			expectInvalid(await send({ event_id: 'i'.repeat(201) }), 'at most 200 characters');
		});

		it('rejects inner spaces and trims edge spaces', async () => {
			expectInvalid(await send({ event_id: 'order 1' }), 'spaces');
			const trimmed = await send({ event_id: '  order-1 ' });
			expect(trimmed).toMatchObject({ status: 'created', event_id: 'order-1' });
			expect(await send({ event_id: 'order-1' })).toMatchObject({
				status: 'duplicate',
				event_id: 'order-1',
			});
		});

		it('answers duplicate for a repeated id, across requests and within one, storing it once', async () => {
			const res = await postEvents(sim, [
				{ event_name: 'purchase', event_id: 'order-7', contact: maria },
				{ event_name: 'purchase', event_id: 'order-7', contact: maria },
			]);
			expect(res.body.data.results.map((r: any) => r.status)).toEqual(['created', 'duplicate']);
			expect(res.body.data.summary).toMatchObject({ created: 1, duplicate: 1 });
			const retry = await send({ event_id: 'order-7' });
			expect(retry).toEqual({
				index: 0,
				event_id: 'order-7',
				event_name: 'purchase',
				status: 'duplicate',
			});
			expect(storedEvents(sim.org, { event_id: 'order-7' })).toHaveLength(1);
		});

		it('compares ids exactly (case matters)', async () => {
			expect((await send({ event_id: 'ABC' })).status).toBe('created');
			expect((await send({ event_id: 'abc' })).status).toBe('created');
		});

		it('an invalid event does not take its id', async () => {
			expectInvalid(await send({ event_id: 'order-9', value: 'lots' }), 'value');
			expect((await send({ event_id: 'order-9' })).status).toBe('created');
		});
	});

	describe('occurred_at', () => {
		it('defaults to the arrival time on the clock', async () => {
			await sim.clock.advance(3 * HOUR);
			const arrival = sim.clock.now();
			await send({ event_id: 'e-default' });
			const [stored] = storedEvents(sim.org, { event_id: 'e-default' });
			expect(Date.parse(stored.occurred_at)).toBeGreaterThanOrEqual(arrival);
			expect(Date.parse(stored.occurred_at)).toBeLessThan(arrival + 1000);
		});

		it('keeps a given date with a time zone', async () => {
			await send({ event_id: 'e-dated', occurred_at: '2024-05-01T12:00:00+02:00' });
			expect(storedEvents(sim.org, { event_id: 'e-dated' })[0].occurred_at).toBe(
				'2024-05-01T10:00:00.000Z',
			);
		});

		it('needs a time zone and a real date', async () => {
			expectInvalid(await send({ occurred_at: '2024-05-01T12:00:00' }), 'time zone');
			expectInvalid(await send({ occurred_at: '2024-05-01' }), 'time zone');
			expectInvalid(await send({ occurred_at: 'yesterday' }), 'ISO 8601');
		});

		it('accepts from the year 2000', async () => {
			expect((await send({ occurred_at: '2000-01-01T00:00:00Z' })).status).toBe('created');
			expectInvalid(await send({ occurred_at: '1999-12-31T23:59:59Z' }), 'year 2000');
		});

		it('accepts up to 24 hours after the clock', async () => {
			const inside = new Date(sim.clock.now() + 23 * HOUR).toISOString();
			const outside = new Date(sim.clock.now() + 25 * HOUR).toISOString();
			expect((await send({ occurred_at: inside })).status).toBe('created');
			expectInvalid(await send({ occurred_at: outside }), '24 hours');
		});
	});

	describe('identifiers and contact fields', () => {
		it('session_id: up to 200 characters, no spaces', async () => {
			expect((await send({ session_id: 's'.repeat(200) })).status).toBe('created');
			expectInvalid(await send({ session_id: 's'.repeat(201) }), 'session_id must be at most 200');
			expectInvalid(await send({ session_id: 'visit 1' }), 'session_id must not contain spaces');
		});

		it('contact.external_id: up to 200 characters', async () => {
			expect((await send({ contact: { ...maria, external_id: 'x'.repeat(200) } })).status).toBe(
				'created',
			);
			expectInvalid(
				await send({ contact: { ...maria, external_id: 'x'.repeat(201) } }),
				'contact.external_id',
			);
		});

		it('group.id: required and up to 200 characters', async () => {
			expect((await send({ group: { id: 'g'.repeat(200) } })).status).toBe('created');
			expectInvalid(await send({ group: { id: 'g'.repeat(201) } }), 'group.id must be at most 200');
			expectInvalid(await send({ group: { name: 'Acme' } }), 'group.id is required');
		});

		it('contact.phone: at least 7 digits', async () => {
			expect(
				(await postEvent(sim, { event_name: 'purchase', contact: { phone: '555 0101' } })).status,
			).toBe('created');
			expectInvalid(
				await postEvent(sim, { event_name: 'purchase', contact: { phone: '555-010' } }),
				'at least 7 digits',
			);
			expectInvalid(
				await postEvent(sim, { event_name: 'purchase', contact: { phone: 'call me' } }),
				'contact.phone',
			);
		});

		it('contact.contact_id: a UUID', async () => {
			expectInvalid(
				await postEvent(sim, { event_name: 'purchase', contact: { contact_id: 'contact-1' } }),
				'UUID',
			);
		});

		it('contact.email: an address', async () => {
			expectInvalid(
				await postEvent(sim, { event_name: 'purchase', contact: { email: 'maria' } }),
				'contact.email',
			);
		});

		it('contact and create_contact: types', async () => {
			expectInvalid(await send({ contact: 'maria@example.test' }), 'contact must be an object');
			expectInvalid(await send({ create_contact: 'no' }), 'create_contact must be a boolean');
		});
	});

	describe('params, value, currency', () => {
		/** params whose JSON is exactly `length` characters: `{"p":"…"}` is 8 plus the text. */
		const paramsOfLength = (length: number) => ({ p: 'x'.repeat(length - 8) });

		it('params: an object up to 32,000 characters, stored as sent', async () => {
			expect(JSON.stringify(paramsOfLength(32_000))).toHaveLength(32_000);
			expect((await send({ event_id: 'p-max', params: paramsOfLength(32_000) })).status).toBe(
				'created',
			);
			expectInvalid(await send({ params: paramsOfLength(32_001) }), '32000');
			expectInvalid(await send({ params: ['a'] }), 'params must be an object');
			const params = { plan: 'pro', items: [{ sku: 'A1', qty: 2 }] };
			await send({ event_id: 'p-shape', params });
			expect(storedEvents(sim.org, { event_id: 'p-shape' })[0].params).toEqual(params);
		});

		it('value: a number or numeric string; params.value is the default; the outer one wins', async () => {
			await send({ event_id: 'v-string', value: '19.90' });
			await send({ event_id: 'v-default', params: { value: 5, currency: 'USD' } });
			await send({
				event_id: 'v-outer',
				value: 7,
				currency: 'EUR',
				params: { value: 5, currency: 'USD' },
			});
			const stored = (id: string) => storedEvents(sim.org, { event_id: id })[0];
			expect(stored('v-string').value).toBe(19.9);
			expect(stored('v-default')).toMatchObject({ value: 5, currency: 'USD' });
			expect(stored('v-outer')).toMatchObject({ value: 7, currency: 'EUR' });
			expectInvalid(await send({ value: 'a lot' }), 'value must be a number');
			expectInvalid(await send({ value: true }), 'value must be a number');
		});

		it('currency: an ISO 4217 code', async () => {
			expectInvalid(await send({ currency: 'eur' }), 'ISO 4217');
			expectInvalid(await send({ currency: 'EURO' }), 'ISO 4217');
		});
	});

	it('lists every problem of an event, and a malformed event does not reject the others', async () => {
		const res = await postEvents(sim, [
			{ event_name: '9lives', event_id: 'a b', currency: 'euro', contact: { phone: '12' } },
			'not an event',
			{ event_name: 'purchase', contact: maria },
		]);
		expect(res.status).toBe(200);
		const [bad, notObject, good] = res.body.data.results;
		expect(bad.status).toBe('invalid');
		expect(bad.errors).toHaveLength(4);
		expect(notObject).toEqual({
			index: 1,
			event_id: null,
			status: 'invalid',
			errors: ['each event must be a JSON object'],
		});
		expect(good.status).toBe('created');
		expect(res.body.data.summary).toMatchObject({ received: 3, invalid: 2, created: 1 });
	});
});
