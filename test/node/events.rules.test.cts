import type { IDataObject } from 'n8n-workflow';

import {
	checkEvent,
	eventNameErrors,
	normalizeEventName,
} from '../../nodes/VoiceAgentCrm/actions/event/rules';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import {
	simulatorRequest,
	normalizeEventName as simulatorNormalize,
} from '../../simulator/index.cts';

/**
 * The node's reading of the reference's event rules against the simulator's, written apart on
 * purpose: a row the node answers itself must get the answer the service would give.
 */
describe('Event rules of the node agree with the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ limits: { events: 10_000, eventsAnonymous: 10_000 } });
	});
	afterAll(() => sim.stop());

	const names = [
		'Purchase Completed',
		'purchase_completed',
		'purchaseCompleted',
		'PurchaseCompleted',
		'HTMLFormSubmitted',
		'form-submitted.v2',
		'Café Réservé',
		'  spaced   out  ',
		'Sign-up!',
		'page_view_v2',
		'step2Done',
		'ÉTÉ Promo',
		'2fa_enabled',
		'_leading',
		'cs_internal',
		'CS Internal',
		'',
		'!!!',
		'a'.repeat(40),
		'a'.repeat(41),
		'Very Long Event Name That Goes On And On Forever',
	];

	it.each(names)('normalizes %j to the same name and the same verdict', (raw) => {
		const ours = normalizeEventName(raw);
		const theirs = simulatorNormalize(raw);
		expect(ours).toBe(theirs.name);
		expect(eventNameErrors(ours).length > 0).toBe(theirs.errors.length > 0);
	});

	const soon = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
	const contact = { email: 'rules@example.com' };
	/** Events the node answers itself: the service must answer each the same way. */
	const answeredByNode: Array<[string, IDataObject]> = [
		['no name', { contact }],
		['a name that is not text', { event_name: 42, contact }],
		['a name starting with a digit', { event_name: '1st purchase', contact }],
		['a reserved name', { event_name: 'cs_call', contact }],
		['a name over 40 characters', { event_name: 'x'.repeat(41), contact }],
		['an event_id over 200 characters', { event_name: 'ok', event_id: 'i'.repeat(201), contact }],
		['an event_id with spaces inside', { event_name: 'ok', event_id: 'a b', contact }],
		['an event_id that is a number', { event_name: 'ok', event_id: 7, contact }],
		['occurred_at without zone', { event_name: 'ok', occurred_at: '2024-05-01T10:00:00', contact }],
		['occurred_at that is no date', { event_name: 'ok', occurred_at: 'yesterday', contact }],
		['occurred_at before 2000', { event_name: 'ok', occurred_at: '1999-12-31T23:59:59Z', contact }],
		['occurred_at 2 days ahead', { event_name: 'ok', occurred_at: soon(48), contact }],
		['contact not an object', { event_name: 'ok', contact: 'ana@example.com' }],
		['contact_id not a UUID', { event_name: 'ok', contact: { contact_id: '123' } }],
		['a phone of 6 digits', { event_name: 'ok', contact: { phone: '(612) 345' } }],
		[
			'external_id over 200 characters',
			{ event_name: 'ok', contact: { external_id: 'e'.repeat(201) } },
		],
		['session_id with a space', { event_name: 'ok', session_id: 'a b' }],
		['session_id over 200 characters', { event_name: 'ok', session_id: 's'.repeat(201) }],
		['params not an object', { event_name: 'ok', params: [1, 2], contact }],
		[
			'params over 32,000 characters',
			{ event_name: 'ok', params: { text: 'p'.repeat(32_000) }, contact },
		],
		['value not numeric', { event_name: 'ok', value: 'ten', contact }],
		['currency in lowercase', { event_name: 'ok', currency: 'eur', contact }],
		['currency of 4 letters', { event_name: 'ok', currency: 'EURO', contact }],
		['create_contact not a boolean', { event_name: 'ok', create_contact: 'yes', contact }],
		['group without id', { event_name: 'ok', group: { name: 'Acme' }, contact }],
		['group.id over 200 characters', { event_name: 'ok', group: { id: 'g'.repeat(201) }, contact }],
		['no contact and no session', { event_name: 'ok' }],
		[
			'a contact without identifiers',
			{ event_name: 'ok', contact: { name: 'Ana', country: 'ES' } },
		],
	];

	/** Events the node sends: the service must not answer them `invalid` or `no_identity`. */
	const sentByNode: Array<[string, IDataObject]> = [
		['a plain event', { event_name: 'Order Paid', contact }],
		[
			'occurred_at with an offset',
			{ event_name: 'ok', occurred_at: '2024-05-01T10:00:00+02:00', contact },
		],
		['occurred_at 23 hours ahead', { event_name: 'ok', occurred_at: soon(23), contact }],
		[
			'occurred_at in UTC with milliseconds',
			{ event_name: 'ok', occurred_at: '2024-05-01T10:00:00.250Z', contact },
		],
		['exactly 40 characters', { event_name: 'y'.repeat(40), contact }],
		[
			'params of 31,000 characters',
			{ event_name: 'ok', params: { text: 'p'.repeat(31_000) }, contact },
		],
		['a numeric string value', { event_name: 'ok', value: '19.90', currency: 'EUR', contact }],
		['an event_id with edge spaces', { event_name: 'ok', event_id: '  edge-1  ', contact }],
		['a phone of 7 digits', { event_name: 'ok', contact: { phone: '612-3456' } }],
		['only a session', { event_name: 'ok', session_id: 'sess-rules' }],
		[
			'only an external_id',
			{ event_name: 'ok', contact: { external_id: 'ext-rules' }, create_contact: false },
		],
		[
			'a company',
			{ event_name: 'ok', group: { id: 'co-1', name: 'Acme', properties: { size: 5 } }, contact },
		],
	];

	async function serviceAnswer(event: IDataObject): Promise<IDataObject> {
		const answer = await simulatorRequest(sim, 'POST', '/v1/events', { body: { events: [event] } });
		expect(answer.status).toBe(200);
		return answer.body.data.results[0];
	}

	it.each(answeredByNode)('answers %s as the service does', async (_, event) => {
		const verdict = checkEvent(event, Date.now());
		expect(verdict.send).toBe(false);
		if (verdict.send) return;
		const service = await serviceAnswer(event);
		expect(verdict.result.status).toBe(service.status);
		expect(verdict.result.reason).toBe(service.reason);
		expect(verdict.result.event_name).toBe(service.event_name);
		expect(verdict.result.original_event_name).toBe(service.original_event_name);
		expect(verdict.result.errors?.length ?? 0).toBe(
			(service.errors as string[] | undefined)?.length ?? 0,
		);
	});

	it.each(sentByNode)('sends %s, and the service accepts it', async (_, event) => {
		const verdict = checkEvent(event, Date.now());
		expect(verdict.send).toBe(true);
		if (!verdict.send) return;
		const service = await serviceAnswer(verdict.event);
		expect(['invalid', 'rejected']).not.toContain(service.status);
		expect(verdict.eventName).toBe(service.event_name);
	});

	/**
	 * Where the reference sets no rule, the node sends and lets the service answer: these the
	 * simulator refuses. Its answer then reaches the row, so nothing is lost either way.
	 */
	it.each([
		['an email without @', { event_name: 'ok', contact: { email: 'not-an-email' } }],
		['a phone with letters', { event_name: 'ok', contact: { phone: 'call 6123456789' } }],
	])('leaves %s to the service (no rule in the reference)', async (_, event) => {
		const verdict = checkEvent(event as IDataObject, Date.now());
		expect(verdict.send).toBe(true);
		expect((await serviceAnswer(event as IDataObject)).status).toBe('invalid');
	});
});

describe('occurred_at, read once per event', () => {
	const contact = { email: 'instant@example.com' };
	const utcOf = (occurredAt: string) => {
		const verdict = checkEvent({ event_name: 'ok', occurred_at: occurredAt, contact }, Date.now());
		return verdict.send ? verdict.occurredAtUtc : verdict.result.errors;
	};

	it('gives one UTC instant however the zone is written (the derived event ID uses it)', () => {
		const forms = ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000Z', '2024-05-01T12:00:00+02:00'];
		expect(forms.map(utcOf)).toEqual(Array(3).fill('2024-05-01T10:00:00.000Z'));
		expect(utcOf('2024-05-01T10:00:00.250Z')).toBe('2024-05-01T10:00:00.250Z');
	});

	it('refuses a day the month lacks, in the UTC form too, instead of moving it to the next month', () => {
		for (const form of ['2024-02-30T10:00:00Z', '2024-02-30T12:00:00+02:00'])
			expect(utcOf(form)).toEqual([
				'occurred_at must be an ISO 8601 date-time with a time zone, like 2024-05-01T10:00:00Z',
			]);
	});
});
