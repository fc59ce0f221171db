import { randomUUID } from 'node:crypto';

import {
	cancelCall,
	recordStatus,
	RECORD_STATUS_VALUES,
	startCallLifecycle,
	STATUS_VALUES,
	stopCall,
} from '../callLifecycle.cts';
import { RECORDING_MIME_TYPE, recordingFileName, wavRecording } from '../recording.cts';
import {
	apiError,
	bare,
	envelope,
	type RouteDef,
	type SimRequest,
	type SimResponse,
} from '../server.cts';
import { encodeToon } from '../toon.cts';
import type { Call, Organization } from '../types.cts';
import {
	checkBody,
	e164,
	httpUrl,
	isIanaZone,
	isPlainObject,
	isUuid,
	nonNegativeNumber,
	optionalString,
	pageQuery,
	plainObject,
	requiredString,
	uuid,
	type Check,
	type FieldRule,
} from './fieldChecks.cts';

const keyValueItems: Check = (field, value) =>
	Array.isArray(value) &&
	value.every(
		(item) =>
			isPlainObject(item) &&
			Object.keys(item).every((k) => k === 'key' || k === 'value') &&
			typeof item.key === 'string' &&
			typeof item.value === 'string',
	)
		? undefined
		: `${field} must be an array of {key: string, value: string}`;

const SCHEDULE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const scheduleObject: Check = (field, value) => {
	const expected = `${field} must be {scheduled_call_time: 'YYYY-MM-DD HH:mm:ss', timezone: IANA zone}`;
	if (
		!isPlainObject(value) ||
		Object.keys(value).some((k) => k !== 'scheduled_call_time' && k !== 'timezone')
	)
		return expected;
	if (!isIanaZone(value.timezone))
		return `${field}.timezone must be a valid IANA time zone such as Europe/Madrid`;
	if (
		typeof value.scheduled_call_time !== 'string' ||
		localTimeParts(value.scheduled_call_time) === undefined
	) {
		return `${field}.scheduled_call_time must be a date and time formatted YYYY-MM-DD HH:mm:ss`;
	}
	return undefined;
};

/** Fields shared by both placement routes (`webhook_url`, `metadata`: names decided in docs/decisions.md). */
const COMMON_FIELDS: Record<string, FieldRule> = {
	agent_id: { check: uuid, required: true },
	additional_data: { check: keyValueItems },
	schedule: { check: scheduleObject },
	webhook_url: { check: httpUrl },
	metadata: { check: plainObject },
};

const PHONE_CALL_FIELDS: Record<string, FieldRule> = {
	from_number: { check: e164, required: true },
	to_number: { check: e164, required: true },
	full_name: { check: requiredString, required: true },
	email: { check: optionalString },
	country: { check: optionalString },
	delay: { check: nonNegativeNumber },
	...COMMON_FIELDS,
};

const CONTACT_CALL_FIELDS: Record<string, FieldRule> = {
	contact_id: { check: uuid, required: true },
	from_number_id: { check: uuid, required: true },
	...COMMON_FIELDS,
};

interface PlacementBody {
	agent_id: string;
	additional_data?: Array<{ key: string; value: string }>;
	schedule?: { scheduled_call_time: string; timezone: string };
	delay?: number;
	webhook_url?: string;
	metadata?: Record<string, unknown>;
}

function localTimeParts(text: string): number[] | undefined {
	const match = SCHEDULE_TIME.exec(text);
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	const asUtc = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
	// refuse dates that do not exist (2025-02-30, 25:00:00) rather than rolling them over
	const exists =
		asUtc.getUTCFullYear() === year &&
		asUtc.getUTCMonth() === month - 1 &&
		asUtc.getUTCDate() === day &&
		asUtc.getUTCHours() === hour &&
		asUtc.getUTCMinutes() === minute;
	return exists ? [year, month, day, hour, minute, second] : undefined;
}

/** How far ahead of UTC the wall clock of `timeZone` is at `instant`. */
function zoneOffsetMs(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
	const wall = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a schedule names: its wall-clock time read in its own time zone. */
export function scheduledInstant(schedule: {
	scheduled_call_time: string;
	timezone: string;
}): number {
	const [year, month, day, hour, minute, second] = localTimeParts(schedule.scheduled_call_time)!;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	const guess = wall - zoneOffsetMs(wall, schedule.timezone);
	// a second pass settles times near a daylight-saving change
	return wall - zoneOffsetMs(guess, schedule.timezone);
}

/** When the call is placed: the schedule's instant, or now plus `delay` minutes; or a 400 message. */
function placementTime(req: SimRequest, body: PlacementBody): number | string {
	const now = req.sim.clock.now();
	if (body.schedule) {
		if (body.delay) return 'give either schedule or delay, not both';
		const at = scheduledInstant(body.schedule);
		if (at < now) return 'schedule.scheduled_call_time is in the past';
		return at;
	}
	return now + (body.delay ?? 0) * 60_000;
}

function findAgentProblem(org: Organization, agentId: string): string | undefined {
	return org.agents.has(agentId)
		? undefined
		: `agent_id ${agentId} is not an agent of this organization`;
}

function storeAndStart(req: SimRequest, call: Call): SimResponse {
	req.org.calls.set(call.id, call);
	startCallLifecycle(req.sim, req.org, call);
	return envelope(
		{
			call_id: call.id,
			agent_id: call.agent_id,
			contact_id: call.contact_id,
			created_at: call.created_at,
		},
		201,
	);
}

function newCall(
	req: SimRequest,
	body: PlacementBody,
	placeAt: number,
	fields: Pick<Call, 'from' | 'to' | 'contact_id' | 'contact' | 'type'>,
): Call {
	return {
		id: randomUUID(),
		organization_id: req.org.id,
		direction: 'outbound',
		agent_id: body.agent_id,
		phase: 'in_queue',
		finished: false,
		call_result: null,
		disconnection_reason: null,
		created_at: req.sim.clock.iso(),
		place_at: placeAt,
		start_at: null,
		finished_at: null,
		duration: null,
		call_record: null,
		call_analysis: null,
		chat_history: null,
		chat_history_with_tools: null,
		webhook_url: body.webhook_url ?? null,
		metadata: body.metadata ?? null,
		additional_data: body.additional_data ?? [],
		schedule: body.schedule ?? null,
		...fields,
	};
}

function placePhoneCall(req: SimRequest): SimResponse {
	const problem = checkBody(req.body, PHONE_CALL_FIELDS);
	if (problem) return apiError(400, problem);
	const body = req.body as PlacementBody & {
		from_number: string;
		to_number: string;
		full_name: string;
		email?: string;
		country?: string;
	};
	if (![...req.org.phoneNumbers.values()].some((n) => n.phone_number === body.from_number)) {
		return apiError(
			400,
			`from_number ${body.from_number} is not a phone number of this organization`,
		);
	}
	const agentProblem = findAgentProblem(req.org, body.agent_id);
	if (agentProblem) return apiError(400, agentProblem);
	const placeAt = placementTime(req, body);
	if (typeof placeAt === 'string') return apiError(400, placeAt);
	return storeAndStart(
		req,
		newCall(req, body, placeAt, {
			type: 'single-phone-call',
			from: body.from_number,
			to: body.to_number,
			contact_id: null,
			contact: {
				id: null,
				full_name: body.full_name,
				phone_number: body.to_number,
				email: body.email ?? '',
				country: body.country ?? '',
			},
		}),
	);
}

function placeContactCall(req: SimRequest): SimResponse {
	// The reference: "The route does not apply a delay; use schedule". The project refuses the field
	// with 400 rather than ignoring it, so that a client never believes a call was delayed.
	if (isPlainObject(req.body) && 'delay' in req.body) {
		return apiError(
			400,
			'delay is not accepted on single-contact-call; use schedule for a future time',
		);
	}
	const problem = checkBody(req.body, CONTACT_CALL_FIELDS);
	if (problem) return apiError(400, problem);
	const body = req.body as PlacementBody & { contact_id: string; from_number_id: string };
	const contact = req.org.contacts.get(body.contact_id);
	if (!contact) return apiError(404, `Contact ${body.contact_id} not found`);
	const fromNumber = req.org.phoneNumbers.get(body.from_number_id);
	if (!fromNumber) return apiError(404, `Phone number ${body.from_number_id} not found`);
	const agentProblem = findAgentProblem(req.org, body.agent_id);
	if (agentProblem) return apiError(400, agentProblem);
	if (e164('phone_number', contact.phone_number)) {
		return apiError(
			400,
			`the contact's phone_number ${contact.phone_number} is not in E.164 format`,
		);
	}
	const placeAt = placementTime(req, body);
	if (typeof placeAt === 'string') return apiError(400, placeAt);
	return storeAndStart(
		req,
		newCall(req, body, placeAt, {
			type: 'single-contact-call',
			from: fromNumber.phone_number,
			to: contact.phone_number,
			contact_id: contact.id,
			contact: {
				id: contact.id,
				full_name: contact.full_name,
				phone_number: contact.phone_number,
				email: contact.email,
				country: contact.country,
			},
		}),
	);
}

function statusView(call: Call): Record<string, unknown> {
	return {
		call_id: call.id,
		agent_id: call.agent_id,
		call_status: call.phase,
		finished: call.finished,
		disconnection_reason: call.disconnection_reason,
		started_at: call.start_at,
		ended_at: call.finished_at,
	};
}

interface RecordOptions {
	transcript: boolean;
	words: boolean;
	tools: boolean;
	format: 'json' | 'toon';
}

const DEFAULT_RECORD_OPTIONS: RecordOptions = {
	transcript: true,
	words: false,
	tools: false,
	format: 'json',
};

/** The full record (bare). Word timings exist only inside a transcript, so `words` without `transcript` adds nothing. */
function recordView(call: Call, options: RecordOptions): Record<string, unknown> {
	const record: Record<string, unknown> = {
		id: call.id,
		direction: call.direction,
		from: call.from,
		to: call.to,
		call_record: call.call_record,
		call_status: recordStatus(call),
		call_result: call.call_result,
		disconnection_reason: call.disconnection_reason,
		start_at: call.start_at,
		finished_at: call.finished_at,
		created_at: call.created_at,
		duration: call.duration,
		call_analysis: call.call_analysis,
		type: call.type,
		agent_id: call.agent_id,
		contact: call.contact,
		metadata: call.metadata,
	};
	const render = (entries: Array<Record<string, unknown>> | null) => {
		if (!entries) return null;
		const shown = options.words ? entries : entries.map(({ words: _words, ...entry }) => entry);
		return options.format === 'toon' ? encodeToon(shown) : shown;
	};
	if (options.transcript) {
		record.chat_history = render(call.chat_history);
		if (options.tools) record.chat_history_with_tools = render(call.chat_history_with_tools);
		record.transcript_format = options.format;
	}
	return record;
}

function booleanQuery(
	query: Record<string, string>,
	name: string,
	fallback: boolean,
): boolean | string {
	const value = query[name];
	if (value === undefined) return fallback;
	if (value === 'true' || value === 'false') return value === 'true';
	return `${name} must be true or false`;
}

function recordOptions(query: Record<string, string>): RecordOptions | string {
	const transcript = booleanQuery(query, 'include_transcript', true);
	const words = booleanQuery(query, 'include_words', false);
	const tools = booleanQuery(query, 'include_tools', false);
	for (const flag of [transcript, words, tools]) if (typeof flag === 'string') return flag;
	const format = query.transcript_format ?? 'json';
	if (format !== 'json' && format !== 'toon') return 'transcript_format must be json or toon';
	return {
		transcript: transcript as boolean,
		words: words as boolean,
		tools: tools as boolean,
		format,
	};
}

/** A call of the caller's organization by a UUID path id; a 400 or 404 answer otherwise. */
function lookUpCall(req: SimRequest, malformedIs: 400 | 404): Call | SimResponse {
	const { callId } = req.params;
	if (!isUuid(callId))
		return malformedIs === 400
			? apiError(400, 'callId must be a UUID')
			: apiError(404, `Call ${callId} not found`);
	return req.org.calls.get(callId) ?? apiError(404, `Call ${callId} not found`);
}

function isAnswer(value: Call | SimResponse): value is SimResponse {
	return 'status' in value && typeof value.status === 'number';
}

function getCall(req: SimRequest): SimResponse {
	// the reference lists no 400 here: a malformed id is simply not found
	const call = lookUpCall(req, 404);
	if (isAnswer(call)) return call;
	const options = recordOptions(req.query);
	return typeof options === 'string' ? apiError(400, options) : bare(recordView(call, options));
}

/** The recording a finished call's `call_record` points to (on the simulator's origin, behind the API key). */
function getRecording(req: SimRequest): SimResponse {
	const call = lookUpCall(req, 404);
	if (isAnswer(call)) return call;
	if (!call.call_record) return apiError(404, `Call ${call.id} has no recording`);
	return {
		status: 200,
		body: wavRecording(call.duration ?? 1),
		headers: {
			'content-type': RECORDING_MIME_TYPE,
			'content-disposition': `attachment; filename="${recordingFileName(call.id)}"`,
		},
	};
}

function getCallStatus(req: SimRequest): SimResponse {
	const call = lookUpCall(req, 400);
	return isAnswer(call) ? call : envelope(statusView(call));
}

/** Inferred (docs/decisions.md): newest `created_at` first; `call_status` accepts either vocabulary. */
function listCalls(req: SimRequest): SimResponse {
	const page = pageQuery(req.query, { limit: 100, maxLimit: 1000 });
	if (typeof page === 'string') return apiError(400, page);
	const { agent_id: agentId, call_status: status } = req.query;
	if (agentId !== undefined && !isUuid(agentId)) return apiError(400, 'agent_id must be a UUID');
	const knownStatus =
		(STATUS_VALUES as readonly string[]).includes(status) ||
		(RECORD_STATUS_VALUES as readonly string[]).includes(status);
	if (status !== undefined && !knownStatus) {
		return apiError(
			400,
			`call_status must be one of ${[...new Set([...STATUS_VALUES, ...RECORD_STATUS_VALUES])].join(', ')}`,
		);
	}
	// reversed insertion order first, so that calls created in the same millisecond list newest first
	// too; each time read once, not on every comparison (the trigger's long histories list thousands)
	const listedUntil = req.sim.clock.now() - req.sim.listingLagMs;
	const matching = [...req.org.calls.values()]
		.reverse()
		.filter(
			(c) =>
				(req.sim.listingLagMs === 0 || Date.parse(c.created_at) <= listedUntil) &&
				(agentId === undefined || c.agent_id === agentId) &&
				(status === undefined || c.phase === status || recordStatus(c) === status),
		)
		.map((call) => ({ call, createdAt: Date.parse(call.created_at) }))
		.sort((a, b) => b.createdAt - a.createdAt)
		.map(({ call }) => call);
	const data = matching
		.slice(page.offset, page.offset + page.limit)
		.map((c) => recordView(c, DEFAULT_RECORD_OPTIONS));
	return bare({ data, pagination: { total_rows: matching.length } });
}

async function stopLiveCall(req: SimRequest): Promise<SimResponse> {
	const call = lookUpCall(req, 400);
	if (isAnswer(call)) return call;
	const outcome = await stopCall(req.sim, req.org, call);
	if (!outcome) {
		return apiError(
			409,
			`Call ${call.id} is not placed yet (status ${call.phase}); retry in a few seconds`,
		);
	}
	return envelope({ call_id: call.id, stopped: outcome.stopped, call_status: outcome.call_status });
}

/** Inferred (docs/decisions.md): `POST /v1/calls/{callId}/cancel`; a malformed id is a 400 as on its documented siblings. */
function cancelScheduledCall(req: SimRequest): SimResponse {
	const call = lookUpCall(req, 400);
	if (isAnswer(call)) return call;
	if (!cancelCall(req.sim, req.org, call)) {
		return apiError(
			409,
			`Call ${call.id} is not scheduled (status ${call.phase}); only scheduled calls can be canceled`,
		);
	}
	return envelope({ call_id: call.id, canceled: true, call_status: call.phase });
}

export const callRoutes: RouteDef[] = [
	{ method: 'POST', pattern: '/v1/calls/single-phone-call', handler: placePhoneCall },
	{ method: 'POST', pattern: '/v1/calls/single-contact-call', handler: placeContactCall },
	{ method: 'GET', pattern: '/v1/calls', budgets: ['org', 'listing'], handler: listCalls },
	{ method: 'GET', pattern: '/v1/calls/:callId', handler: getCall },
	{ method: 'GET', pattern: '/v1/calls/:callId/status', handler: getCallStatus },
	{ method: 'GET', pattern: '/v1/calls/:callId/recording', handler: getRecording },
	{ method: 'POST', pattern: '/v1/calls/single-phone-call/:callId/stop', handler: stopLiveCall },
	{ method: 'POST', pattern: '/v1/calls/:callId/cancel', handler: cancelScheduledCall },
];
