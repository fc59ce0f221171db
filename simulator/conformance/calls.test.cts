import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ageCall, driveCallToEnd, insertCall, planCalls, recordStatus } from '../callLifecycle.cts';
import { startSimulator, type Simulator } from '../index.cts';
import { scheduledInstant } from '../routes/calls.cts';
import type { Agent, Contact } from '../types.cts';
import { api } from '../client.cts';

const MAIN_LINE = '+14155550100';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const anError = (statusCode: number) => ({ statusCode, message: expect.any(String) });

let sim: Simulator;
let agent: Agent;
let contact: Contact;

beforeEach(async () => {
	sim = await startSimulator({ limits: { org: 10_000 } });
	[agent] = sim.org.agents.values();
	[contact] = sim.org.contacts.values();
});
afterEach(() => sim.stop());

function phoneCallBody(change: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		from_number: MAIN_LINE,
		to_number: '+34600000009',
		full_name: 'Marta Ruiz',
		agent_id: agent.id,
		...change,
	};
}

async function placePhoneCall(change: Record<string, unknown> = {}): Promise<string> {
	const res = await api(sim, 'POST', '/v1/calls/single-phone-call', {
		body: phoneCallBody(change),
	});
	expect(res.status).toBe(201);
	return res.body.data.call_id;
}

async function status(callId: string): Promise<Record<string, unknown>> {
	return (await api(sim, 'GET', `/v1/calls/${callId}/status`)).body.data;
}

/** Wall-clock text of `at` in `timeZone`, as `schedule.scheduled_call_time` wants it. */
function wallClock(at: number, timeZone: string): string {
	return new Date(at).toLocaleString('sv-SE', { timeZone }).replace('T', ' ');
}

describe('POST /v1/calls/single-phone-call', () => {
	it('201 {statusCode, data: {call_id, agent_id, contact_id: null, created_at}}', async () => {
		const res = await api(sim, 'POST', '/v1/calls/single-phone-call', {
			body: phoneCallBody({
				email: 'marta@example.test',
				country: 'ES',
				additional_data: [{ key: 'plan', value: 'gold' }],
				metadata: { crm_ref: 42 },
				webhook_url: 'https://hooks.example.test/calls',
			}),
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			statusCode: 201,
			data: {
				call_id: expect.any(String),
				agent_id: agent.id,
				contact_id: null,
				created_at: expect.any(String),
			},
		});
		expect(sim.org.calls.get(res.body.data.call_id)).toMatchObject({
			metadata: { crm_ref: 42 },
			to: '+34600000009',
		});
	});

	it.each(['from_number', 'to_number', 'full_name', 'agent_id'])(
		'400 without the required %s',
		async (field) => {
			const body = phoneCallBody();
			delete body[field];
			const res = await api(sim, 'POST', '/v1/calls/single-phone-call', { body });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError(400));
			expect(res.body.message).toContain(field);
		},
	);

	it.each(['+1234567', '+1234567890123456', '+0123456789', '34600000001', '+34 600 000 001'])(
		'400 for a to_number that is not E.164: %s',
		async (to_number) => {
			const res = await api(sim, 'POST', '/v1/calls/single-phone-call', {
				body: phoneCallBody({ to_number }),
			});
			expect(res.status).toBe(400);
			expect(res.body.message).toContain('to_number');
		},
	);

	it('accepts E.164 numbers of 8 and of 15 digits', async () => {
		await placePhoneCall({ to_number: '+12345678' });
		await placePhoneCall({ to_number: '+123456789012345' });
	});

	it.each([
		['from_number', { from_number: '+14155550999' }],
		['agent_id', { agent_id: 'agent-1' }],
		['agent_id', { agent_id: UNKNOWN_ID }],
		['additional_data', { additional_data: [{ key: 'plan', value: 3 }] }],
		['additional_data', { additional_data: { plan: 'gold' } }],
		['schedule', { schedule: { scheduled_call_time: '2030-01-01T10:00:00', timezone: 'UTC' } }],
		['schedule', { schedule: { scheduled_call_time: '2030-02-30 10:00:00', timezone: 'UTC' } }],
		[
			'timezone',
			{ schedule: { scheduled_call_time: '2030-01-01 10:00:00', timezone: 'Moon/Base' } },
		],
		['delay', { delay: -1 }],
		['delay', { delay: '5' }],
		['webhook_url', { webhook_url: 'not a url' }],
		['metadata', { metadata: ['a'] }],
		['to_phone', { to_phone: '+34600000009' }],
	])('400 naming %s when it is wrong', async (field, change) => {
		const res = await api(sim, 'POST', '/v1/calls/single-phone-call', {
			body: phoneCallBody(change),
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual(anError(400));
		expect(res.body.message).toContain(field);
	});

	it('400 for an agent of another organization', async () => {
		const [foreign] = sim.otherOrg.agents.values();
		const res = await api(sim, 'POST', '/v1/calls/single-phone-call', {
			body: phoneCallBody({ agent_id: foreign.id }),
		});
		expect(res.status).toBe(400);
	});

	it('400 for a schedule in the past, and for schedule together with a delay', async () => {
		const past = wallClock(sim.clock.now() - 60_000, 'Europe/Madrid');
		const late = await api(sim, 'POST', '/v1/calls/single-phone-call', {
			body: phoneCallBody({ schedule: { scheduled_call_time: past, timezone: 'Europe/Madrid' } }),
		});
		expect(late.status).toBe(400);
		expect(late.body.message).toContain('past');
		const future = wallClock(sim.clock.now() + 3_600_000, 'UTC');
		const both = await api(sim, 'POST', '/v1/calls/single-phone-call', {
			body: phoneCallBody({ delay: 5, schedule: { scheduled_call_time: future, timezone: 'UTC' } }),
		});
		expect(both.status).toBe(400);
	});

	it('401 without a key', async () => {
		expect(
			(await api(sim, 'POST', '/v1/calls/single-phone-call', { body: phoneCallBody(), key: null }))
				.status,
		).toBe(401);
	});
});

describe('POST /v1/calls/single-contact-call', () => {
	const fromNumberId = () => [...sim.org.phoneNumbers.values()][0].id;

	it('201 with the contact id; the call reads the number and name from the contact', async () => {
		const res = await api(sim, 'POST', '/v1/calls/single-contact-call', {
			body: {
				contact_id: contact.id,
				agent_id: agent.id,
				from_number_id: fromNumberId(),
				metadata: { source: 'crm' },
			},
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			statusCode: 201,
			data: {
				call_id: expect.any(String),
				agent_id: agent.id,
				contact_id: contact.id,
				created_at: expect.any(String),
			},
		});
		expect(sim.org.calls.get(res.body.data.call_id)).toMatchObject({
			to: contact.phone_number,
			from: MAIN_LINE,
			contact: { id: contact.id, full_name: contact.full_name },
		});
	});

	it('400 for delay: the route does not apply one', async () => {
		const res = await api(sim, 'POST', '/v1/calls/single-contact-call', {
			body: {
				contact_id: contact.id,
				agent_id: agent.id,
				from_number_id: fromNumberId(),
				delay: 5,
			},
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual(anError(400));
		expect(res.body.message).toContain('delay');
	});

	it('400 for malformed ids or a missing field', async () => {
		for (const body of [
			{ contact_id: 'c-1', agent_id: agent.id, from_number_id: fromNumberId() },
			{ contact_id: contact.id, agent_id: agent.id, from_number_id: '+14155550100' },
			{ contact_id: contact.id, from_number_id: fromNumberId() },
		]) {
			const res = await api(sim, 'POST', '/v1/calls/single-contact-call', { body });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError(400));
		}
	});

	it('404 for an unknown or foreign contact, and for an unknown phone number', async () => {
		const [foreignContact] = sim.otherOrg.contacts.values();
		for (const body of [
			{ contact_id: UNKNOWN_ID, agent_id: agent.id, from_number_id: fromNumberId() },
			{ contact_id: foreignContact.id, agent_id: agent.id, from_number_id: fromNumberId() },
			{ contact_id: contact.id, agent_id: agent.id, from_number_id: UNKNOWN_ID },
		]) {
			const res = await api(sim, 'POST', '/v1/calls/single-contact-call', { body });
			expect(res.status).toBe(404);
			expect(res.body).toEqual(anError(404));
		}
	});

	it('placing and finishing the call update the contact last activity', async () => {
		const before = contact.last_activity_at;
		const res = await api(sim, 'POST', '/v1/calls/single-contact-call', {
			body: { contact_id: contact.id, agent_id: agent.id, from_number_id: fromNumberId() },
		});
		const placedAt = contact.last_activity_at;
		expect(placedAt).toBeGreaterThan(before);
		await driveCallToEnd(sim, res.body.data.call_id, { until: 'finished' });
		expect(contact.last_activity_at).toBeGreaterThan(placedAt);
	});
});

describe('States: the life cycle on the simulator clock', () => {
	it('in_queue → pending → in_progress → ended; finished, reason and analysis arrive later', async () => {
		const callId = await placePhoneCall();
		expect(await status(callId)).toEqual({
			call_id: callId,
			agent_id: agent.id,
			call_status: 'in_queue',
			finished: false,
			disconnection_reason: null,
			started_at: null,
			ended_at: null,
		});
		await sim.clock.advance(2_000);
		expect(await status(callId)).toMatchObject({ call_status: 'pending', started_at: null });
		await sim.clock.advance(5_000);
		expect(await status(callId)).toMatchObject({
			call_status: 'in_progress',
			started_at: expect.any(String),
			finished: false,
		});
		await sim.clock.advance(60_000);
		expect(await status(callId)).toMatchObject({
			call_status: 'ended',
			finished: false,
			disconnection_reason: null,
			ended_at: expect.any(String),
		});
		await sim.clock.advance(3_000);
		expect(await status(callId)).toMatchObject({
			call_status: 'ended',
			finished: true,
			disconnection_reason: null,
		});
		await sim.clock.advance(8_000);
		expect(await status(callId)).toMatchObject({
			finished: true,
			disconnection_reason: 'agent_hangup',
		});
		const early = await api(sim, 'GET', `/v1/calls/${callId}`);
		expect(early.body).toMatchObject({
			call_status: 'completed',
			call_analysis: null,
			chat_history: null,
			call_record: null,
		});
		await sim.clock.advance(19_000);
		const record = (await api(sim, 'GET', `/v1/calls/${callId}`)).body;
		expect(record.call_analysis).toEqual(
			expect.objectContaining({
				summary: expect.any(String),
				sentiment: expect.any(String),
				interested: true,
			}),
		);
		expect(record.call_record).toEqual(expect.any(String));
		expect(record.duration).toBe(60);
	});

	it('a delay keeps the call scheduled for that many minutes', async () => {
		const callId = await placePhoneCall({ delay: 10 });
		expect(await status(callId)).toMatchObject({ call_status: 'scheduled', finished: false });
		await sim.clock.advance(9 * 60_000);
		expect((await status(callId)).call_status).toBe('scheduled');
		await sim.clock.advance(60_000);
		expect((await status(callId)).call_status).toBe('in_queue');
	});

	it('a schedule is read in its own time zone', async () => {
		expect(
			scheduledInstant({ scheduled_call_time: '2030-07-01 12:00:00', timezone: 'Europe/Madrid' }),
		).toBe(Date.parse('2030-07-01T10:00:00Z'));
		expect(
			scheduledInstant({
				scheduled_call_time: '2030-01-15 09:00:00',
				timezone: 'America/New_York',
			}),
		).toBe(Date.parse('2030-01-15T14:00:00Z'));
		const at = Math.ceil((sim.clock.now() + 3_600_000) / 1000) * 1000;
		const callId = await placePhoneCall({
			schedule: { scheduled_call_time: wallClock(at, 'Asia/Tokyo'), timezone: 'Asia/Tokyo' },
		});
		await sim.clock.set(at - 1_000);
		expect((await status(callId)).call_status).toBe('scheduled');
		await sim.clock.set(at);
		expect((await status(callId)).call_status).toBe('in_queue');
	});

	it.each([
		['voicemail', 'voicemail', 'voice_mail', 'voicemail_reached'],
		['no_answer', 'no_answer', 'no-answer', 'dial_no_answer'],
		['busy', 'no_answer', 'busy', 'dial_busy'],
		['failed', 'failed', 'failed', 'dial_failed'],
	] as const)(
		'a planned %s outcome ends as %s (record %s)',
		async (result, callStatus, record, reason) => {
			planCalls(sim).next({ result });
			const callId = await placePhoneCall();
			await driveCallToEnd(sim, callId);
			expect(await status(callId)).toMatchObject({
				call_status: callStatus,
				finished: true,
				disconnection_reason: reason,
			});
			const full = (await api(sim, 'GET', `/v1/calls/${callId}`)).body;
			expect(full).toMatchObject({ call_status: record, call_result: result });
		},
	);

	it('plans are taken in placement order with their own timings, then the default applies', async () => {
		planCalls(sim)
			.next({ ringMs: 1_000, talkMs: 5_000, disconnection_reason: 'user_hangup' })
			.next({ result: 'no_answer' });
		const first = await placePhoneCall();
		const second = await placePhoneCall();
		const third = await placePhoneCall();
		await sim.clock.advance(2_000 + 1_000 + 5_000 + 3_000 + 8_000);
		expect(await status(first)).toMatchObject({
			call_status: 'ended',
			finished: true,
			disconnection_reason: 'user_hangup',
		});
		expect((await status(second)).call_status).toBe('no_answer');
		expect((await status(third)).call_status).toBe('in_progress');
	});

	it('the record says answering-machine while a voicemail is being left', async () => {
		planCalls(sim).next({ result: 'voicemail' });
		const callId = await placePhoneCall();
		await sim.clock.advance(7_000);
		expect((await status(callId)).call_status).toBe('in_progress');
		expect((await api(sim, 'GET', `/v1/calls/${callId}`)).body.call_status).toBe(
			'answering-machine',
		);
	});

	it('maps every status to the full record vocabulary', () => {
		expect(recordStatus({ phase: 'in_queue', call_result: null })).toBe('in-queue');
		expect(recordStatus({ phase: 'scheduled', call_result: null })).toBe('scheduled');
		expect(recordStatus({ phase: 'pending', call_result: null })).toBe('in-progress');
		expect(recordStatus({ phase: 'in_progress', call_result: 'answered' })).toBe('in-progress');
		expect(recordStatus({ phase: 'ended', call_result: 'answered' })).toBe('completed');
		expect(recordStatus({ phase: 'canceled', call_result: null })).toBe('incomplete');
	});
});

describe('GET /v1/calls/{callId}/status', () => {
	it('400 for a callId that is not a UUID, 404 for unknown and foreign calls', async () => {
		const malformed = await api(sim, 'GET', '/v1/calls/call-123/status');
		expect(malformed.status).toBe(400);
		expect(malformed.body).toEqual(anError(400));
		expect((await api(sim, 'GET', `/v1/calls/${UNKNOWN_ID}/status`)).status).toBe(404);
		const foreign = insertCall(sim, {}, sim.otherOrg);
		const res = await api(sim, 'GET', `/v1/calls/${foreign.id}/status`);
		expect(res.status).toBe(404);
		expect(res.body).toEqual(anError(404));
	});

	it('never carries the transcript', async () => {
		const call = insertCall(sim);
		const res = await api(sim, 'GET', `/v1/calls/${call.id}/status`);
		expect(res.body).toEqual({ statusCode: 200, data: expect.any(Object) });
		expect(Object.keys(res.body.data).sort()).toEqual(
			[
				'agent_id',
				'call_id',
				'call_status',
				'disconnection_reason',
				'ended_at',
				'finished',
				'started_at',
			].sort(),
		);
	});
});

describe('GET /v1/calls/{callId}', () => {
	let callId: string;
	beforeEach(async () => {
		agent.tools = [{ name: 'book_slot', type: 'function', description: 'Books a slot' }];
		callId = await placePhoneCall();
		await driveCallToEnd(sim, callId);
	});

	it('answers the bare record with the json transcript by default, without words or tools', async () => {
		const res = await api(sim, 'GET', `/v1/calls/${callId}`);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			id: callId,
			direction: 'outbound',
			from: MAIN_LINE,
			call_status: 'completed',
			call_result: 'answered',
			disconnection_reason: 'agent_hangup',
			type: 'single-phone-call',
			agent_id: agent.id,
			contact: { id: null, full_name: 'Marta Ruiz', phone_number: '+34600000009' },
			transcript_format: 'json',
		});
		expect(res.body).not.toHaveProperty('statusCode');
		expect(res.body).not.toHaveProperty('chat_history_with_tools');
		expect(res.body.chat_history[0]).toEqual({ role: 'agent', content: expect.any(String) });
	});

	it('include_words adds word timings to the transcript entries', async () => {
		const res = await api(sim, 'GET', `/v1/calls/${callId}`, { query: { include_words: true } });
		expect(res.body.chat_history[0].words[0]).toEqual({
			word: expect.any(String),
			start: 0,
			end: expect.any(Number),
		});
	});

	it('include_transcript=false leaves the transcript out, even with include_words', async () => {
		const res = await api(sim, 'GET', `/v1/calls/${callId}`, {
			query: { include_transcript: false, include_words: true },
		});
		expect(res.status).toBe(200);
		expect(res.body).not.toHaveProperty('chat_history');
		expect(res.body.call_analysis).toEqual(
			expect.objectContaining({ summary: expect.any(String) }),
		);
	});

	it('include_tools adds chat_history_with_tools with the tool calls', async () => {
		const res = await api(sim, 'GET', `/v1/calls/${callId}`, { query: { include_tools: true } });
		const roles = res.body.chat_history_with_tools.map((e: { role: string }) => e.role);
		expect(roles).toContain('tool_call_invocation');
		expect(res.body.chat_history).toHaveLength(roles.length - 2);
	});

	it('transcript_format=toon answers the transcript as a compact text table', async () => {
		const res = await api(sim, 'GET', `/v1/calls/${callId}`, {
			query: { transcript_format: 'toon' },
		});
		expect(res.body.transcript_format).toBe('toon');
		expect(typeof res.body.chat_history).toBe('string');
		expect(res.body.chat_history.split('\n')[0]).toBe('[4]{role,content}:');
		const withWords = await api(sim, 'GET', `/v1/calls/${callId}`, {
			query: { transcript_format: 'toon', include_words: true },
		});
		expect(withWords.body.chat_history).toMatch(
			/^\[4\]:\n {2}- role: agent\n {4}content: .+\n {4}words\[\d+\]\{word,start,end\}:/,
		);
	});

	it('400 for another transcript_format or a non-boolean flag', async () => {
		for (const query of [{ transcript_format: 'csv' }, { include_words: 'yes' }] as Array<
			Record<string, string>
		>) {
			const res = await api(sim, 'GET', `/v1/calls/${callId}`, { query });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError(400));
		}
	});

	it('404 for unknown, malformed and foreign ids', async () => {
		const foreign = insertCall(sim, {}, sim.otherOrg);
		for (const id of [UNKNOWN_ID, 'not-a-uuid', foreign.id]) {
			const res = await api(sim, 'GET', `/v1/calls/${id}`);
			expect(res.status).toBe(404);
			expect(res.body).toEqual(anError(404));
		}
	});
});

describe('GET /v1/calls (inferred listing)', () => {
	it('lists newest created_at first in {data, pagination: {total_rows}} with limit and offset', async () => {
		const now = sim.clock.now();
		for (let i = 0; i < 5; i++)
			insertCall(sim, { created_at: new Date(now - i * 60_000).toISOString() });
		insertCall(sim, {}, sim.otherOrg);
		const res = await api(sim, 'GET', '/v1/calls', { query: { limit: 2, offset: 1 } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ data: expect.any(Array), pagination: { total_rows: 5 } });
		expect(res.body.data.map((c: { created_at: string }) => c.created_at)).toEqual([
			new Date(now - 60_000).toISOString(),
			new Date(now - 120_000).toISOString(),
		]);
	});

	it('defaults to 100 per page and accepts up to 1000', async () => {
		for (let i = 0; i < 1_001; i++) insertCall(sim, { chat_history: null, call_analysis: null });
		expect((await api(sim, 'GET', '/v1/calls')).body.data).toHaveLength(100);
		const max = await api(sim, 'GET', '/v1/calls', { query: { limit: 1000 } });
		expect(max.body.data).toHaveLength(1000);
		expect(max.body.pagination.total_rows).toBe(1_001);
	});

	it('filters by agent_id and by call_status in either vocabulary', async () => {
		const [, otherAgent] = sim.org.agents.values();
		insertCall(sim, { phase: 'ended' });
		insertCall(sim, { phase: 'no_answer', call_result: 'busy', agent_id: otherAgent.id });
		insertCall(sim, { phase: 'in_progress' });
		const byAgent = await api(sim, 'GET', '/v1/calls', { query: { agent_id: otherAgent.id } });
		expect(byAgent.body.pagination.total_rows).toBe(1);
		expect(
			(await api(sim, 'GET', '/v1/calls', { query: { call_status: 'busy' } })).body.pagination
				.total_rows,
		).toBe(1);
		expect(
			(await api(sim, 'GET', '/v1/calls', { query: { call_status: 'no_answer' } })).body.pagination
				.total_rows,
		).toBe(1);
		const completed = await api(sim, 'GET', '/v1/calls', { query: { call_status: 'completed' } });
		expect(completed.body.data.map((c: { call_status: string }) => c.call_status)).toEqual([
			'completed',
		]);
	});

	it('400 for a limit above 1000, a malformed agent_id or an unknown call_status', async () => {
		for (const query of [
			{ limit: 1001 },
			{ agent_id: 'agent-1' },
			{ call_status: 'ringing' },
		] as Array<Record<string, string | number>>) {
			const res = await api(sim, 'GET', '/v1/calls', { query });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError(400));
		}
	});

	it('draws on the listing budget and shows its -heavy and -ip headers', async () => {
		const small = await startSimulator({ limits: { listing: 1 } });
		try {
			const first = await api(small, 'GET', '/v1/calls');
			expect(first.headers.get('x-ratelimit-limit-heavy')).toBe('1');
			expect(first.headers.get('x-ratelimit-remaining-heavy')).toBe('0');
			expect(first.headers.get('x-ratelimit-limit-ip')).not.toBeNull();
			const second = await api(small, 'GET', '/v1/calls');
			expect(second.status).toBe(429);
			expect(second.body).toEqual(anError(429));
		} finally {
			await small.stop();
		}
	});
});

describe('POST /v1/calls/single-phone-call/{callId}/stop', () => {
	it.each([
		['ringing', 2_000, 'pending'],
		['answered', 7_000, 'in_progress'],
	])(
		'stops a %s call: stopped true, status at request time, reason user_hangup',
		async (_state, elapsed, statusAtRequest) => {
			const callId = await placePhoneCall();
			await sim.clock.advance(elapsed);
			const res = await api(sim, 'POST', `/v1/calls/single-phone-call/${callId}/stop`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				statusCode: 200,
				data: { call_id: callId, stopped: true, call_status: statusAtRequest },
			});
			expect(await status(callId)).toMatchObject({
				call_status: 'ended',
				disconnection_reason: 'user_hangup',
			});
			await sim.clock.advance(3_000);
			expect(await status(callId)).toMatchObject({
				finished: true,
				disconnection_reason: 'user_hangup',
			});
		},
	);

	it('a finished call answers stopped false without error', async () => {
		const call = insertCall(sim, { phase: 'ended' });
		const res = await api(sim, 'POST', `/v1/calls/single-phone-call/${call.id}/stop`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			statusCode: 200,
			data: { call_id: call.id, stopped: false, call_status: 'ended' },
		});
	});

	it('409 {statusCode, message} for a queued or a scheduled call', async () => {
		for (const callId of [await placePhoneCall(), await placePhoneCall({ delay: 5 })]) {
			const res = await api(sim, 'POST', `/v1/calls/single-phone-call/${callId}/stop`);
			expect(res.status).toBe(409);
			expect(res.body).toEqual(anError(409));
		}
	});

	it('400 for a malformed id, 404 for unknown and foreign calls', async () => {
		expect((await api(sim, 'POST', '/v1/calls/single-phone-call/x/stop')).status).toBe(400);
		const foreign = insertCall(sim, { phase: 'in_progress' }, sim.otherOrg);
		for (const id of [UNKNOWN_ID, foreign.id]) {
			const res = await api(sim, 'POST', `/v1/calls/single-phone-call/${id}/stop`);
			expect(res.status).toBe(404);
			expect(res.body).toEqual(anError(404));
		}
	});
});

describe('POST /v1/calls/{callId}/cancel (inferred)', () => {
	it('cancels a scheduled call for good', async () => {
		const callId = await placePhoneCall({ delay: 5 });
		const res = await api(sim, 'POST', `/v1/calls/${callId}/cancel`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			statusCode: 200,
			data: { call_id: callId, canceled: true, call_status: 'canceled' },
		});
		await sim.clock.advance(10 * 60_000);
		expect(await status(callId)).toMatchObject({ call_status: 'canceled', finished: true });
	});

	it('409 for a call that is not scheduled; 400 malformed; 404 unknown', async () => {
		const callId = await placePhoneCall();
		const res = await api(sim, 'POST', `/v1/calls/${callId}/cancel`);
		expect(res.status).toBe(409);
		expect(res.body).toEqual(anError(409));
		expect((await api(sim, 'POST', '/v1/calls/x/cancel')).status).toBe(400);
		expect((await api(sim, 'POST', `/v1/calls/${UNKNOWN_ID}/cancel`)).status).toBe(404);
	});
});

describe('Call webhooks', () => {
	let receiver: http.Server;
	let received: Array<{ path: string; payload: Record<string, unknown> }>;
	let receiverUrl: string;

	beforeEach(async () => {
		received = [];
		receiver = http.createServer((req, res) => {
			let text = '';
			req.on('data', (chunk) => (text += chunk));
			req.on('end', () => {
				received.push({ path: req.url ?? '', payload: JSON.parse(text) });
				res.end('ok');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	});
	afterEach(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

	it('posts call_started, call_ended and transcript_ready to the agent and the call webhook URLs', async () => {
		agent.webhook_url = `${receiverUrl}/agent`;
		const callId = await placePhoneCall({ webhook_url: `${receiverUrl}/call` });
		await driveCallToEnd(sim, callId);
		const events = (path: string) =>
			received.filter((r) => r.path === path).map((r) => r.payload.event);
		expect(events('/agent')).toEqual(['call_started', 'call_ended', 'transcript_ready']);
		expect(events('/call')).toEqual(['call_started', 'call_ended', 'transcript_ready']);
		expect(received.find((r) => r.payload.event === 'call_ended')!.payload).toEqual({
			event: 'call_ended',
			call_id: callId,
			agent_id: agent.id,
			call_status: 'ended',
			finished: true,
			timestamp: expect.any(String),
		});
	});

	it('posts call_stopped when the stop endpoint hangs up', async () => {
		const callId = await placePhoneCall({ webhook_url: receiverUrl });
		await sim.clock.advance(7_000);
		await api(sim, 'POST', `/v1/calls/single-phone-call/${callId}/stop`);
		expect(received.map((r) => r.payload.event)).toEqual(['call_started', 'call_stopped']);
		expect(received[1].payload).toMatchObject({
			call_id: callId,
			call_status: 'ended',
			finished: false,
		});
		expect(sim.webhooks.map((w) => w.status)).toEqual([200, 200]);
	});

	it('with the clock running on its own, a receiver that has not answered yet holds no API request; its events still come in order', async () => {
		const held: Array<() => void> = [];
		const slowReceiver = http.createServer((req, res) => {
			let text = '';
			req.on('data', (chunk) => (text += chunk));
			req.on('end', () => {
				received.push({ path: req.url ?? '', payload: JSON.parse(text) });
				held.push(() => res.end('ok'));
			});
		});
		await new Promise<void>((resolve) => slowReceiver.listen(0, '127.0.0.1', resolve));
		try {
			planCalls(sim).next({
				queueMs: 10,
				ringMs: 10,
				talkMs: 10,
				finishedDelayMs: 10,
				reasonDelayMs: 10,
				analysisDelayMs: 10,
			});
			const callId = await placePhoneCall({
				webhook_url: `http://127.0.0.1:${(slowReceiver.address() as AddressInfo).port}/slow`,
			});
			sim.clock.runOnItsOwn(5);
			while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
			// call_started is held by the receiver; the call ends meanwhile and the API answers at once
			while (!sim.org.calls.get(callId)!.call_analysis)
				await new Promise((resolve) => setTimeout(resolve, 20));
			expect((await api(sim, 'GET', `/v1/calls/${callId}`)).status).toBe(200);
			expect(received.map((r) => r.payload.event)).toEqual(['call_started']);
			while (received.length < 3) {
				held.splice(0).forEach((answer) => answer());
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			held.splice(0).forEach((answer) => answer());
			expect(received.map((r) => r.payload.event)).toEqual([
				'call_started',
				'call_ended',
				'transcript_ready',
			]);
		} finally {
			held.splice(0).forEach((answer) => answer());
			await sim.clock.stopRunning();
			slowReceiver.closeAllConnections();
			await new Promise<void>((resolve) => slowReceiver.close(() => resolve()));
		}
	});

	it('posts nothing when neither the agent nor the call has a webhook URL', async () => {
		const callId = await placePhoneCall();
		await driveCallToEnd(sim, callId);
		expect(sim.webhooks).toHaveLength(0);
	});
});

describe('Test helpers', () => {
	// what keeps a thousand inserts cheap is that none starts a life cycle: counted, not timed
	it('insertCall stores records with any status and timestamps, scheduling no life cycle', () => {
		const scheduled = sim.clock.pending();
		const posted = sim.webhooks.length;
		for (let i = 0; i < 1_000; i++)
			insertCall(sim, {
				phase: i % 2 ? 'ended' : 'no_answer',
				created_at: new Date(i * 1_000).toISOString(),
			});
		expect(sim.org.calls.size).toBe(1_000);
		expect(sim.clock.pending()).toBe(scheduled);
		expect(sim.webhooks).toHaveLength(posted);
		const queued = insertCall(sim, { phase: 'in_queue' });
		expect(queued).toMatchObject({
			finished: false,
			disconnection_reason: null,
			finished_at: null,
		});
	});

	it('driveCallToEnd can stop at finished, before the analysis', async () => {
		const callId = await placePhoneCall();
		const call = await driveCallToEnd(sim, callId, { until: 'finished' });
		expect(call).toMatchObject({ finished: true, call_analysis: null });
		await driveCallToEnd(sim, call);
		expect(call.call_analysis).not.toBeNull();
	});
});

describe('ageCall (a test helper: a finished call as if it had happened earlier)', () => {
	it('moves every time of the record back, and the API answers the older times', async () => {
		const call = insertCall(sim);
		const before = { ...call };
		ageCall(sim, call.id, 180_000);
		const back = (iso: string | null) => new Date(Date.parse(iso!) - 180_000).toISOString();
		const res = await api(sim, 'GET', `/v1/calls/${call.id}`);
		expect(res.body).toMatchObject({
			id: call.id,
			created_at: back(before.created_at),
			start_at: back(before.start_at),
			finished_at: back(before.finished_at),
		});
		expect(call.place_at).toBe(before.place_at - 180_000);
	});

	it('refuses a call whose life cycle is still under way', async () => {
		const callId = await placePhoneCall();
		expect(() => ageCall(sim, callId, 60_000)).toThrow(/not a finished call/);
	});
});
