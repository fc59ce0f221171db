import { randomUUID } from 'node:crypto';

import { recordingPath } from './recording.cts';
import type { Simulator } from './server.cts';
import type { Agent, Call, CallPhase, Organization } from './types.cts';

/**
 * The life cycle of a placed call, on the simulator clock (States table of the reference):
 *
 *   scheduled (until the schedule or delay time) → in_queue → pending (ringing) → in_progress (answered)
 *   → a finished value (ended, voicemail, no_answer, failed), or canceled through the cancel endpoint.
 *
 * After hang-up the status already shows the finished value, but `finished` turns true only
 * `finishedDelayMs` later, `disconnection_reason` stays null `reasonDelayMs` more, and the analysis,
 * recording and transcript arrive `analysisDelayMs` after hang-up. Clients that stop polling at the
 * first finished-looking status, or read the analysis at once, see the gaps a real service has.
 *
 * Tests script outcomes with `planCalls(sim).next({...})`; calls take plans in placement order,
 * per organization, and unplanned calls are answered with the default timings.
 */
export type CallResult = 'answered' | 'voicemail' | 'no_answer' | 'busy' | 'failed';

export interface CallScript {
	result: CallResult;
	queueMs: number;
	ringMs: number;
	/** Conversation length, or the voicemail message length. */
	talkMs: number;
	/** Hang-up → `finished` true (and the `call_ended` webhook). */
	finishedDelayMs: number;
	/** `finished` true → `disconnection_reason` set. */
	reasonDelayMs: number;
	/** Hang-up → analysis, recording and transcript (and the `transcript_ready` webhook). */
	analysisDelayMs: number;
	disconnection_reason: string;
	/** Analysis values set besides (or instead of) the generated ones. */
	analysis: Record<string, unknown>;
}

export type CallPlan = Partial<CallScript>;

export const DEFAULT_TIMINGS = {
	queueMs: 2_000,
	ringMs: 5_000,
	talkMs: 60_000,
	finishedDelayMs: 3_000,
	reasonDelayMs: 8_000,
	analysisDelayMs: 30_000,
} as const;

const DEFAULT_REASON: Record<CallResult, string> = {
	answered: 'agent_hangup',
	voicemail: 'voicemail_reached',
	no_answer: 'dial_no_answer',
	busy: 'dial_busy',
	failed: 'dial_failed',
};

export const STATUS_VALUES: readonly CallPhase[] = [
	'in_queue',
	'scheduled',
	'pending',
	'in_progress',
	'ended',
	'voicemail',
	'no_answer',
	'failed',
	'canceled',
];
export const FINISHED_PHASES: readonly CallPhase[] = [
	'ended',
	'voicemail',
	'no_answer',
	'failed',
	'canceled',
];

export const RECORD_STATUS_VALUES = [
	'in-progress',
	'completed',
	'no-answer',
	'failed',
	'in-queue',
	'incomplete',
	'busy',
	'answering-machine',
	'scheduled',
	'voice_mail',
] as const;
export type RecordStatus = (typeof RECORD_STATUS_VALUES)[number];

/**
 * The two status vocabularies, mapped once. The status endpoint reports the phase; the full record
 * has its own words, and tells apart what the phase merges:
 * - ringing and answered are both `in-progress` (the record has no ringing value);
 * - a voicemail call is `answering-machine` while the agent leaves the message, `voice_mail` after;
 * - a busy line is `no_answer` on the status endpoint (nobody answered) and `busy` in the record;
 * - a canceled scheduled call is `incomplete` (the record has no canceled value).
 */
export function recordStatus(call: Pick<Call, 'phase' | 'call_result'>): RecordStatus {
	switch (call.phase) {
		case 'scheduled':
			return 'scheduled';
		case 'in_queue':
			return 'in-queue';
		case 'pending':
			return 'in-progress';
		case 'in_progress':
			return call.call_result === 'voicemail' ? 'answering-machine' : 'in-progress';
		case 'ended':
			return 'completed';
		case 'voicemail':
			return 'voice_mail';
		case 'no_answer':
			return call.call_result === 'busy' ? 'busy' : 'no-answer';
		case 'failed':
			return 'failed';
		case 'canceled':
			return 'incomplete';
	}
}

export function isFinishedPhase(phase: CallPhase): boolean {
	return FINISHED_PHASES.includes(phase);
}

/**
 * Call webhooks. The reference names the moments (call started, call ended, transcript ready, stopped)
 * but not the payload; the project's payload is
 * `{event, call_id, agent_id, call_status (status-endpoint vocabulary), finished, timestamp}`,
 * posted to the agent's `webhook_url` and to the call's own `webhook_url` (once when both are equal).
 */
export type CallWebhookEvent = 'call_started' | 'call_ended' | 'transcript_ready' | 'call_stopped';

// ---------------------------------------------------------------------------------------------
// Plans

/**
 * Results drawn by share for calls without a queued plan (campaign tests and the demo): each call
 * ends `no_answer`, `busy`, `voicemail` or `failed` with its share, `answered` otherwise, and talks
 * for a time drawn between the bounds. Seeded, so that a run repeats exactly.
 */
export interface CallMix {
	shares: Partial<Record<Exclude<CallResult, 'answered'>, number>>;
	/** Conversation length bounds, ms; default the fixed default talk time. */
	talkMs?: [number, number];
	seed?: number;
}

interface OrgPlans {
	queue: CallPlan[];
	fallback: CallPlan;
	mix?: { shares: CallMix['shares']; talkMs?: [number, number]; random: () => number };
}

/** mulberry32: a small seeded generator, enough to spread results evenly and repeatably. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function drawnPlan(mix: NonNullable<OrgPlans['mix']>): CallPlan {
	let draw = mix.random();
	let result: CallResult = 'answered';
	for (const [share, value] of Object.entries(mix.shares) as Array<[CallResult, number]>) {
		if (draw < value) {
			result = share;
			break;
		}
		draw -= value;
	}
	const talk =
		mix.talkMs && mix.talkMs[0] + Math.round(mix.random() * (mix.talkMs[1] - mix.talkMs[0]));
	return { result, ...(talk !== undefined ? { talkMs: talk } : {}) };
}

const plansByOrg = new WeakMap<Organization, OrgPlans>();

function plansOf(org: Organization): OrgPlans {
	let plans = plansByOrg.get(org);
	if (!plans) {
		plans = { queue: [], fallback: {} };
		plansByOrg.set(org, plans);
	}
	return plans;
}

export interface CallPlanner {
	/** The outcome of the next call placed in the organization (plans queue in order). */
	next(plan: CallPlan): CallPlanner;
	/** The outcome of every call placed without a queued plan. */
	byDefault(plan: CallPlan): CallPlanner;
	/** Results and talk times drawn by share for every call placed without a queued plan. */
	byShare(mix: CallMix): CallPlanner;
	/** Plans queued and not yet taken by a call. */
	remaining(): number;
}

export function planCalls(sim: Simulator, org: Organization = sim.org): CallPlanner {
	const plans = plansOf(org);
	const planner: CallPlanner = {
		next(plan) {
			plans.queue.push(plan);
			return planner;
		},
		byDefault(plan) {
			plans.fallback = plan;
			return planner;
		},
		byShare(mix) {
			plans.mix = { shares: mix.shares, talkMs: mix.talkMs, random: seededRandom(mix.seed ?? 1) };
			return planner;
		},
		remaining: () => plans.queue.length,
	};
	return planner;
}

function scriptFrom(plan: CallPlan): CallScript {
	const result = plan.result ?? 'answered';
	return {
		...DEFAULT_TIMINGS,
		result,
		disconnection_reason: DEFAULT_REASON[result],
		analysis: {},
		...plan,
	};
}

function takeScript(org: Organization): CallScript {
	const plans = plansOf(org);
	const queued = plans.queue.shift();
	const drawn = !queued && plans.mix ? drawnPlan(plans.mix) : {};
	return scriptFrom({ ...plans.fallback, ...drawn, ...queued });
}

// ---------------------------------------------------------------------------------------------
// Life cycle

interface Lifecycle {
	sim: Simulator;
	org: Organization;
	script: CallScript;
	/** Bumped when a stop or a cancel takes over; steps of an older epoch do nothing. */
	epoch: number;
	/** Clock times of steps still to run, so that `driveCallToEnd` knows where to move the clock. */
	pendingSteps: number[];
	/** Webhook deliveries sent in the background, chained so that one call's events arrive in order. */
	deliveries: Promise<void>;
}

const lifecycles = new WeakMap<Call, Lifecycle>();

function lifecycleOf(sim: Simulator, org: Organization, call: Call): Lifecycle {
	let life = lifecycles.get(call);
	if (!life) {
		// inserted records get a life cycle only when a stop or cancel acts on them
		life = {
			sim,
			org,
			script: scriptFrom({}),
			epoch: 0,
			pendingSteps: [],
			deliveries: Promise.resolve(),
		};
		lifecycles.set(call, life);
	}
	return life;
}

function step(life: Lifecycle, at: number, run: (at: number) => void | Promise<void>): void {
	const epoch = life.epoch;
	life.pendingSteps.push(at);
	life.sim.clock.schedule(at, async () => {
		if (epoch !== life.epoch) return;
		life.pendingSteps.splice(life.pendingSteps.indexOf(at), 1);
		await run(at);
	});
}

/** Start the life cycle of a call just stored in `org.calls`; takes the next plan of the organization. */
export function startCallLifecycle(sim: Simulator, org: Organization, call: Call): void {
	const life: Lifecycle = {
		sim,
		org,
		script: takeScript(org),
		epoch: 0,
		pendingSteps: [],
		deliveries: Promise.resolve(),
	};
	lifecycles.set(call, life);
	touchContact(org, call, sim.clock.now());
	if (call.place_at > sim.clock.now()) {
		call.phase = 'scheduled';
		step(life, call.place_at, (at) => enterQueue(life, call, at));
	} else {
		enterQueue(life, call, sim.clock.now());
	}
}

function enterQueue(life: Lifecycle, call: Call, at: number): void {
	call.phase = 'in_queue';
	step(life, at + life.script.queueMs, (ringAt) => {
		call.phase = 'pending';
		step(life, ringAt + life.script.ringMs, (endAt) => endRinging(life, call, endAt));
	});
}

async function endRinging(life: Lifecycle, call: Call, at: number): Promise<void> {
	const { result, talkMs } = life.script;
	if (result === 'answered' || result === 'voicemail') {
		call.phase = 'in_progress';
		call.call_result = result;
		call.start_at = life.sim.clock.iso(at);
		step(life, at + talkMs, (hangUpAt) =>
			hangUp(life, call, hangUpAt, result === 'answered' ? 'ended' : 'voicemail'),
		);
		await notify(life, call, 'call_started', at);
		return;
	}
	call.call_result = result;
	hangUp(life, call, at, result === 'failed' ? 'failed' : 'no_answer');
}

/**
 * The call ends now with status `phase`. `reason` given (a stop) is known at once; otherwise it
 * comes after the finished flag, as the reference warns.
 */
function hangUp(life: Lifecycle, call: Call, at: number, phase: CallPhase, reason?: string): void {
	const { finishedDelayMs, reasonDelayMs, analysisDelayMs } = life.script;
	call.phase = phase;
	call.finished_at = life.sim.clock.iso(at);
	call.duration = call.start_at ? Math.round((at - Date.parse(call.start_at)) / 1000) : 0;
	if (reason) call.disconnection_reason = reason;
	step(life, at + finishedDelayMs, async (finishedAt) => {
		call.finished = true;
		touchContact(life.org, call, finishedAt);
		await notify(life, call, 'call_ended', finishedAt);
	});
	if (!reason) {
		step(life, at + finishedDelayMs + reasonDelayMs, () => {
			call.disconnection_reason = life.script.disconnection_reason;
		});
	}
	// only a call somebody (or a machine) picked up has something to record and analyse
	if (call.start_at) {
		step(life, at + analysisDelayMs, async (readyAt) => {
			Object.assign(
				call,
				conversationRecord(
					life.sim,
					call,
					life.org.agents.get(call.agent_id),
					life.script.analysis,
				),
			);
			await notify(life, call, 'transcript_ready', readyAt);
		});
	}
}

async function notify(
	life: Lifecycle,
	call: Call,
	event: CallWebhookEvent,
	at: number,
): Promise<void> {
	const agentUrl = life.org.agents.get(call.agent_id)?.webhook_url;
	const urls = new Set([agentUrl, call.webhook_url].filter((url): url is string => !!url));
	const payload = {
		event,
		call_id: call.id,
		agent_id: call.agent_id,
		call_status: call.phase,
		finished: call.finished,
		timestamp: life.sim.clock.iso(at),
	};
	const deliver = async () => {
		for (const url of urls) await life.sim.postWebhook(url, payload);
	};
	if (!life.sim.clock.runsOnItsOwn) return deliver();
	// Due work also runs before a request is answered: a slow receiver must not hold API requests
	// (nor other calls' life cycles) behind it. A controlled clock (tests) still awaits, to stay deterministic.
	life.deliveries = life.deliveries.then(deliver);
}

/** The called contact's last activity, which the events rules use to pick among contacts sharing a phone. */
function touchContact(org: Organization, call: Call, at: number): void {
	const contact = call.contact_id ? org.contacts.get(call.contact_id) : undefined;
	if (contact) contact.last_activity_at = Math.max(contact.last_activity_at, at);
}

export interface StopOutcome {
	stopped: boolean;
	/** Status at the time of the request (status-endpoint vocabulary). */
	call_status: CallPhase;
}

/**
 * Hang up a live call (ringing or answered). Returns `undefined` when the call is not placed yet
 * (queued or scheduled), which the stop endpoint answers with 409.
 */
export async function stopCall(
	sim: Simulator,
	org: Organization,
	call: Call,
): Promise<StopOutcome | undefined> {
	const statusAtRequest = call.phase;
	if (statusAtRequest === 'in_queue' || statusAtRequest === 'scheduled') return undefined;
	if (statusAtRequest !== 'pending' && statusAtRequest !== 'in_progress') {
		return { stopped: false, call_status: statusAtRequest };
	}
	const life = lifecycleOf(sim, org, call);
	life.epoch++;
	life.pendingSteps = [];
	const now = sim.clock.now();
	// a ringing call stopped was never answered: no result to report
	if (statusAtRequest === 'pending') call.call_result = null;
	hangUp(life, call, now, 'ended', 'user_hangup');
	await notify(life, call, 'call_stopped', now);
	return { stopped: true, call_status: statusAtRequest };
}

/** Cancel a scheduled call; returns false (409 at the endpoint) for any other status. */
export function cancelCall(sim: Simulator, org: Organization, call: Call): boolean {
	if (call.phase !== 'scheduled') return false;
	const life = lifecycleOf(sim, org, call);
	life.epoch++;
	life.pendingSteps = [];
	call.phase = 'canceled';
	call.finished = true;
	call.finished_at = sim.clock.iso();
	return true;
}

/**
 * Move the simulator clock until the call has nothing left to happen (finished, reason, analysis),
 * or only up to `finished` true with `{until: 'finished'}`. Moves the shared clock: other calls
 * and time windows move with it.
 */
export async function driveCallToEnd(
	sim: Simulator,
	callOrId: Call | string,
	options: { org?: Organization; until?: 'finished' | 'analysis' } = {},
): Promise<Call> {
	const org = options.org ?? sim.org;
	const call = typeof callOrId === 'string' ? org.calls.get(callOrId) : callOrId;
	if (!call) throw new Error(`no call ${String(callOrId)} in the organization`);
	const life = lifecycles.get(call);
	const done = () => !life?.pendingSteps.length || (options.until === 'finished' && call.finished);
	while (!done()) await sim.clock.set(Math.min(...life!.pendingSteps));
	return call;
}

// ---------------------------------------------------------------------------------------------
// Records

/** Analysis, recording and transcript of a call that was picked up. */
function conversationRecord(
	sim: Simulator,
	call: Call,
	agent: Agent | undefined,
	analysisOverrides: Record<string, unknown>,
): Pick<Call, 'call_analysis' | 'call_record' | 'chat_history' | 'chat_history_with_tools'> {
	const voicemail = call.call_result === 'voicemail';
	const agentName = agent?.person_name ?? agent?.name ?? 'the agent';
	const lines: Array<['agent' | 'user', string]> = voicemail
		? [
				[
					'agent',
					`Hi ${call.contact.full_name}, this is ${agentName}. Please call us back when you can.`,
				],
			]
		: [
				['agent', agent?.begin_message ?? `Hello ${call.contact.full_name}, this is ${agentName}.`],
				['user', 'Hi, yes, I have a minute.'],
				[
					'agent',
					agent?.conversation_purpose
						? `I am calling about ${agent.conversation_purpose}.`
						: 'I am calling to follow up.',
				],
				['user', 'Sounds good, thank you. Goodbye.'],
			];
	const chat_history = withWords(lines);
	const analysis: Record<string, unknown> = {
		summary: voicemail
			? `Voicemail left for ${call.contact.full_name}.`
			: `${agentName} spoke with ${call.contact.full_name}, who agreed to follow up.`,
		sentiment: voicemail ? 'neutral' : 'positive',
	};
	for (const definition of agent?.post_call_analysis_data ?? []) {
		if (typeof definition.name === 'string') analysis[definition.name] = extractedValue(definition);
	}
	return {
		call_analysis: { ...analysis, ...analysisOverrides },
		call_record: `${sim.baseUrl}${recordingPath(call.id)}`,
		chat_history,
		chat_history_with_tools: withToolCalls(chat_history, agent?.tools ?? null),
	};
}

function withWords(lines: Array<['agent' | 'user', string]>): NonNullable<Call['chat_history']> {
	let clockSeconds = 0;
	return lines.map(([role, content]) => ({
		role,
		content,
		words: content.split(' ').map((word) => {
			const start = clockSeconds;
			clockSeconds = Math.round((clockSeconds + 0.35) * 100) / 100;
			return { word, start, end: clockSeconds };
		}),
	}));
}

/** The transcript with the agent's first tool invoked after the first exchange, when it has tools. */
function withToolCalls(
	chatHistory: NonNullable<Call['chat_history']>,
	tools: Agent['tools'],
): Array<Record<string, unknown>> {
	const entries: Array<Record<string, unknown>> = chatHistory.map((entry) => ({ ...entry }));
	const tool = tools?.find((t) => typeof t.name === 'string');
	if (!tool || entries.length < 2) return entries;
	const tool_call_id = `tool-${randomUUID()}`;
	entries.splice(
		2,
		0,
		{ role: 'tool_call_invocation', tool_call_id, name: tool.name, arguments: '{}' },
		{ role: 'tool_call_result', tool_call_id, content: 'ok' },
	);
	return entries;
}

function extractedValue(definition: Record<string, unknown>): unknown {
	switch (definition.type) {
		case 'boolean':
			return true;
		case 'number':
			return 1;
		case 'enum':
			return Array.isArray(definition.choices) ? definition.choices[0] : 'unknown';
		default:
			return `extracted ${String(definition.name)}`;
	}
}

/**
 * Store a call record straight into `org.calls`, with any status and timestamps and no life cycle
 * (trigger tests insert a thousand this way). Unset fields describe a call that ended normally a
 * minute ago, with its analysis; `finished` follows the phase unless given.
 */
export function insertCall(
	sim: Simulator,
	fields: Partial<Call> = {},
	org: Organization = sim.org,
): Call {
	const now = sim.clock.now();
	const phase = fields.phase ?? 'ended';
	const picked =
		fields.start_at !== undefined
			? fields.start_at !== null
			: ['in_progress', 'ended', 'voicemail'].includes(phase);
	const agent = org.agents.get(fields.agent_id ?? '') ?? org.agents.values().next().value;
	const call: Call = {
		id: randomUUID(),
		organization_id: org.id,
		direction: 'outbound',
		from: org.phoneNumbers.values().next().value?.phone_number ?? '+14155550100',
		to: '+14155550199',
		agent_id: agent?.id ?? randomUUID(),
		contact_id: null,
		contact: {
			id: null,
			full_name: 'Test Person',
			phone_number: fields.to ?? '+14155550199',
			email: '',
			country: '',
		},
		type: 'single-phone-call',
		phase,
		finished: isFinishedPhase(phase),
		call_result:
			phase === 'ended' || phase === 'in_progress'
				? 'answered'
				: phase === 'voicemail'
					? 'voicemail'
					: null,
		disconnection_reason: isFinishedPhase(phase) ? 'agent_hangup' : null,
		created_at: sim.clock.iso(now - 120_000),
		place_at: now - 120_000,
		start_at: picked ? sim.clock.iso(now - 110_000) : null,
		finished_at: isFinishedPhase(phase) ? sim.clock.iso(now - 60_000) : null,
		duration: isFinishedPhase(phase) ? (picked ? 50 : 0) : null,
		call_record: null,
		call_analysis: null,
		chat_history: null,
		chat_history_with_tools: null,
		webhook_url: null,
		metadata: null,
		additional_data: [],
		schedule: null,
		...fields,
	};
	if (picked && isFinishedPhase(phase) && !('call_analysis' in fields)) {
		Object.assign(call, conversationRecord(sim, call, agent, {}));
	}
	org.calls.set(call.id, call);
	return call;
}

/**
 * Move a finished call's times back by `ms`, as if it had happened that much earlier. A cluster
 * test crosses a horizon counted from a call's times (the Instant Trigger's) this way instead of
 * waiting for it in real time. Only for a call whose life cycle is over: nothing of it is left
 * on the clock to run at the old times.
 */
export function ageCall(
	sim: Simulator,
	callId: string,
	ms: number,
	org: Organization = sim.org,
): void {
	const call = org.calls.get(callId);
	if (!call?.finished) throw new Error(`ageCall: ${callId} is not a finished call`);
	const back = (iso: string) => sim.clock.iso(Date.parse(iso) - ms);
	call.created_at = back(call.created_at);
	call.place_at -= ms;
	if (call.start_at) call.start_at = back(call.start_at);
	if (call.finished_at) call.finished_at = back(call.finished_at);
}
