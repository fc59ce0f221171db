/**
 * The simulator's records, one interface per resource of the reference. Each organization
 * owns its own collections; nothing is shared across organizations except the voice catalog.
 */
export interface Agent {
	id: string;
	name: string;
	person_name?: string;
	language: string;
	timezone: string;
	webhook_url: string | null;
	conversation_purpose: string | null;
	prompt: string | null;
	voice_id: string;
	volume?: number;
	voice_speed?: number;
	voice_temperature?: number;
	ambient_sound: string | null;
	ambient_sound_volume?: number;
	responsiveness?: number;
	interruption_sensitivity?: number;
	begin_message?: string;
	begin_message_delay_ms?: number;
	max_call_duration_ms?: number;
	start_speaker: string;
	boosted_keywords: string[];
	post_call_analysis_data: Array<Record<string, unknown>> | null;
	tools: Array<Record<string, unknown>> | null;
	created_at: string;
	updated_at: string;
	/** Published version; creation publishes version 1, each update the next one. */
	version: number;
}

export interface Voice {
	id: string;
	name: string;
	language: string;
	accent: string;
	gender: string;
	age: string;
	description: string;
	preview_url?: string;
	avatar_url?: string;
}

export interface PhoneNumber {
	id: string;
	phone_number: string;
	name: string;
}

export interface AdditionalDataItem {
	type: string;
	field: string;
	value: string;
}

export interface Contact {
	id: string;
	created_at: string;
	phone_number: string;
	full_name: string;
	country: string;
	email: string;
	description: string;
	additional_data: AdditionalDataItem[];
	organization_id: string;
	/** Simulator bookkeeping: external ids linked by events, last conversation or call time. */
	external_ids: string[];
	last_activity_at: number;
}

export interface Tag {
	id: string;
	name: string;
	color: string;
	label?: string;
}

export interface Comment {
	id: string;
	contact_id: string;
	content: string;
	created_by: Record<string, unknown> | string;
	created_at: string;
}

export interface Task {
	id: string;
	type: 'custom' | 'AI' | 'system' | 'automatization';
	brief: string;
	details: string;
	status: 'backlog' | 'todo' | 'in_progress' | 'done' | 'blocked' | 'canceled';
	priority: 'low' | 'medium' | 'high';
	assigned_to: string[];
	created_by: Record<string, unknown> | string | null;
	additional_data: Record<string, unknown>;
	created_at: string;
	updated_at: string;
}

export interface Member {
	id: string;
	email: string;
	name: string;
}

/** Status-endpoint vocabulary; the full record maps it to its own (see calls route). */
export type CallPhase =
	| 'scheduled'
	| 'in_queue'
	| 'pending'
	| 'in_progress'
	| 'ended'
	| 'voicemail'
	| 'no_answer'
	| 'failed'
	| 'canceled';

export interface Call {
	id: string;
	organization_id: string;
	direction: 'inbound' | 'outbound';
	from: string;
	to: string;
	agent_id: string;
	contact_id: string | null;
	contact: {
		id: string | null;
		full_name: string;
		phone_number: string;
		email: string;
		country: string;
	};
	type: 'single-phone-call' | 'single-contact-call';
	phase: CallPhase;
	finished: boolean;
	call_result: 'answered' | 'voicemail' | 'no_answer' | 'busy' | 'failed' | null;
	disconnection_reason: string | null;
	created_at: string;
	/** Clock time when the call is placed (after delay or schedule). */
	place_at: number;
	start_at: string | null;
	finished_at: string | null;
	duration: number | null;
	call_record: string | null;
	call_analysis: Record<string, unknown> | null;
	chat_history: Array<{ role: 'agent' | 'user'; content: string; words?: unknown[] }> | null;
	chat_history_with_tools: Array<Record<string, unknown>> | null;
	webhook_url: string | null;
	metadata: Record<string, unknown> | null;
	additional_data: Array<{ key: string; value: string }>;
	schedule: { scheduled_call_time: string; timezone: string } | null;
}

export interface Channel {
	id: string;
	name: string;
	type: 'WABA' | 'INSTAGRAM';
	status: 'active' | 'inactive';
	answer_method: 'manual' | 'auto';
	organization_id: string;
	created_at: string;
}

export interface Thread {
	id: string;
	channel_id: string;
	channel_type: string;
	contact_id: string;
	organization_id: string;
	status: string;
	assignee: string | null;
	assignee_type: 'user' | 'agent' | null;
	updated_at: string;
	/** Clock time of the last inbound customer message: opens the 24-hour free-form window. */
	window_open_until: number;
}

export interface Message {
	id: string;
	thread_id: string;
	role: 'human' | 'assistant';
	type: 'text' | 'image' | 'video' | 'audio' | 'document' | 'template' | 'location';
	content: string;
	media: Record<string, unknown> | null;
	from: string;
	source: 'webapp' | 'ai_agent' | 'whatsapp';
	status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
	sender_id: string | null;
	created_at: string;
}

export interface Template {
	name: string;
	language: string;
	status: 'APPROVED' | 'PENDING' | 'REJECTED';
	category: string;
	channel_id: string;
}

export interface StoredEvent {
	id: string;
	event_id: string | null;
	event_name: string;
	occurred_at: string;
	received_at: string;
	contact_id: string | null;
	session_id: string | null;
	params: Record<string, unknown>;
	value: number | null;
	currency: string | null;
	company_id: string | null;
	status: 'created' | 'pending' | 'unresolved';
	reason: string | null;
}

export interface Company {
	id: string;
	name: string;
	properties: Record<string, unknown>;
	contact_ids: string[];
}

export interface Organization {
	id: string;
	apiKey: string;
	eventsAddon: boolean;
	/** Plan's contact quota (events create contacts within it). */
	contactQuota: number;
	/** Anonymous events accepted per day before `anonymous_daily_limit`. */
	anonymousDailyCap: number;
	/** Distinct event names allowed before `event_name_limit`. */
	eventNameCap: number;
	members: Member[];
	agents: Map<string, Agent>;
	phoneNumbers: Map<string, PhoneNumber>;
	calls: Map<string, Call>;
	contacts: Map<string, Contact>;
	tags: Map<string, Tag>;
	/** contact id -> tag ids */
	contactTags: Map<string, Set<string>>;
	comments: Map<string, Comment>;
	tasks: Map<string, Task>;
	channels: Map<string, Channel>;
	threads: Map<string, Thread>;
	messages: Map<string, Message>;
	templates: Template[];
	events: StoredEvent[];
	/** event_id -> stored event, for duplicate detection (exact comparison after trimming). */
	eventIds: Map<string, StoredEvent>;
	eventNames: Set<string>;
	/** session id -> contact id once identified */
	sessions: Map<string, string>;
	companies: Map<string, Company>;
	/** `YYYY-MM-DD` -> anonymous events accepted that day */
	anonymousPerDay: Map<string, number>;
}
