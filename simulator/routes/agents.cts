import { randomUUID } from 'node:crypto';

import { VOICES } from '../seed.cts';
import {
	apiError,
	bare,
	envelope,
	type RouteDef,
	type SimRequest,
	type SimResponse,
} from '../server.cts';
import type { Agent, Organization } from '../types.cts';
import {
	checkBody,
	finiteNumber,
	httpUrl,
	ianaZone,
	isUuid,
	nonNegativeNumber,
	nullable,
	numberInRange,
	objectArray,
	oneOf,
	optionalString,
	pageQuery,
	requiredString,
	stringArray,
	type Check,
	type FieldRule,
} from './fieldChecks.cts';

export const AMBIENT_SOUNDS = [
	'coffee-shop',
	'convention-hall',
	'summer-outdoor',
	'mountain-outdoor',
	'static-noise',
	'call-center',
] as const;

export const MAX_PROMPT_LENGTH = 28_000;

const knownVoice: Check = (field, value) =>
	typeof value === 'string' && VOICES.some((voice) => voice.id === value)
		? undefined
		: `${field} must be the id of a voice from GET /v1/agents/voices`;

const prompt: Check = (field, value) =>
	typeof value === 'string' && value.length <= MAX_PROMPT_LENGTH
		? undefined
		: `${field} must be a string of at most ${MAX_PROMPT_LENGTH} characters`;

/** Language codes such as `en-US`, `es-419`, or `multi` (Spanish and English). */
const languageCode: Check = (field, value) =>
	typeof value === 'string' && /^(multi|[a-z]{2,3}(-([A-Z]{2}|\d{3}))?)$/.test(value)
		? undefined
		: `${field} must be a language code such as en-US, es-ES, es-419 or multi`;

/** The create body of the reference; an update takes the same fields, all optional. */
const AGENT_FIELDS: Record<string, FieldRule> = {
	name: { check: requiredString, required: true },
	voice_id: { check: knownVoice, required: true },
	timezone: { check: ianaZone, required: true },
	person_name: { check: optionalString },
	language: { check: languageCode },
	conversation_purpose: { check: nullable(optionalString) },
	prompt: { check: nullable(prompt) },
	webhook_url: { check: nullable(httpUrl) },
	ambient_sound: { check: nullable(oneOf(AMBIENT_SOUNDS)) },
	voice_speed: { check: finiteNumber },
	voice_temperature: { check: finiteNumber },
	volume: { check: numberInRange(0.5, 2) },
	ambient_sound_volume: { check: finiteNumber },
	responsiveness: { check: finiteNumber },
	interruption_sensitivity: { check: numberInRange(0, 1) },
	begin_message: { check: optionalString },
	begin_message_delay_ms: { check: nonNegativeNumber },
	max_call_duration_ms: { check: nonNegativeNumber },
	boosted_keywords: { check: stringArray },
	post_call_analysis_data: { check: nullable(objectArray) },
	tools: { check: nullable(objectArray) },
};

/** Ids the reference gives as UUIDs of this organization's agents; another org's agent is unknown. */
export function findAgent(org: Organization, agentId: unknown): Agent | undefined {
	return typeof agentId === 'string' ? org.agents.get(agentId) : undefined;
}

function createAgent(req: SimRequest): SimResponse {
	const problem = checkBody(req.body, AGENT_FIELDS);
	if (problem) return apiError(400, problem);
	const fields = req.body as Partial<Agent> & Pick<Agent, 'name' | 'voice_id' | 'timezone'>;
	const now = req.sim.clock.iso();
	const voice = VOICES.find((v) => v.id === fields.voice_id)!;
	const agent: Agent = {
		id: randomUUID(),
		// unset optional fields read back as the service's defaults: the voice's language, nulls and empty lists
		language: voice.language,
		webhook_url: null,
		conversation_purpose: null,
		prompt: null,
		ambient_sound: null,
		start_speaker: 'agent',
		boosted_keywords: [],
		post_call_analysis_data: null,
		tools: null,
		...fields,
		created_at: now,
		updated_at: now,
		version: 1,
	};
	req.org.agents.set(agent.id, agent);
	// The reference does not show this body; the project answers as its documented sibling
	// (get agent) does, with status 201 as every other creation: `{statusCode: 201, data: Agent}`.
	return envelope(agent, 201);
}

function getAgent(req: SimRequest): SimResponse {
	const { agentId } = req.params;
	// the only agent error body the reference shows: `{error, message}`
	if (!isUuid(agentId)) return bare({ error: 400, message: 'agentId must be a UUID' }, 400);
	const agent = findAgent(req.org, agentId);
	return agent ? envelope(agent) : apiError(404, `Agent ${agentId} not found`);
}

/** Inferred (docs/decisions.md): `GET /v1/agents?limit&offset`, in creation order. */
function listAgents(req: SimRequest): SimResponse {
	const page = pageQuery(req.query, { limit: 100, maxLimit: 1000 });
	if (typeof page === 'string') return apiError(400, page);
	return envelope([...req.org.agents.values()].slice(page.offset, page.offset + page.limit));
}

/** Inferred (docs/decisions.md): `PATCH /v1/agents/{agentId}`; only supplied fields change, and it publishes the next version. */
function updateAgent(req: SimRequest): SimResponse {
	const { agentId } = req.params;
	if (!isUuid(agentId)) return apiError(400, 'agentId must be a UUID');
	const agent = findAgent(req.org, agentId);
	if (!agent) return apiError(404, `Agent ${agentId} not found`);
	const problem = checkBody(req.body, AGENT_FIELDS, { partial: true });
	if (problem) return apiError(400, problem);
	// an empty update would publish a version identical to the last one; most likely a client mistake
	if (Object.keys(req.body as object).length === 0)
		return apiError(400, 'the body must name at least one field to update');
	Object.assign(agent, req.body, { updated_at: req.sim.clock.iso(), version: agent.version + 1 });
	return envelope(agent);
}

export const agentRoutes: RouteDef[] = [
	{ method: 'POST', pattern: '/v1/agents', handler: createAgent },
	{ method: 'GET', pattern: '/v1/agents', handler: listAgents },
	{ method: 'GET', pattern: '/v1/agents/:agentId', handler: getAgent },
	{ method: 'PATCH', pattern: '/v1/agents/:agentId', handler: updateAgent },
];
