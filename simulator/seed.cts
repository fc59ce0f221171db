import { randomUUID } from 'node:crypto';

import type { SimClock } from './clock.cts';
import type { Contact, Organization, Voice } from './types.cts';

/** The voice catalog, shared by every organization. */
export const VOICES: Voice[] = [
	{
		id: 'voice-es-lucia',
		name: 'Lucía',
		language: 'es-ES',
		accent: 'Castilian',
		gender: 'female',
		age: 'young adult',
		description: 'Warm, clear Spanish voice',
		preview_url: 'https://cdn.example.test/voices/lucia.mp3',
		avatar_url: 'https://cdn.example.test/voices/lucia.png',
	},
	{
		id: 'voice-es-mateo',
		name: 'Mateo',
		language: 'es-419',
		accent: 'Mexican',
		gender: 'male',
		age: 'middle aged',
		description: 'Calm Latin American Spanish voice',
		preview_url: 'https://cdn.example.test/voices/mateo.mp3',
	},
	{
		id: 'voice-en-ava',
		name: 'Ava',
		language: 'en-US',
		accent: 'American',
		gender: 'female',
		age: 'young adult',
		description: 'Friendly American English voice',
		preview_url: 'https://cdn.example.test/voices/ava.mp3',
		avatar_url: 'https://cdn.example.test/voices/ava.png',
	},
	{
		id: 'voice-en-oliver',
		name: 'Oliver',
		language: 'en-GB',
		accent: 'British',
		gender: 'male',
		age: 'middle aged',
		description: 'Measured British English voice',
	},
	{
		id: 'voice-multi-sofia',
		name: 'Sofía',
		language: 'multi',
		accent: 'Neutral',
		gender: 'female',
		age: 'young adult',
		description: 'Bilingual Spanish and English voice',
	},
];

export function newOrganization(
	apiKey: string,
	settings: Partial<
		Pick<Organization, 'eventsAddon' | 'contactQuota' | 'anonymousDailyCap' | 'eventNameCap'>
	>,
	_clock: SimClock,
): Organization {
	return {
		id: randomUUID(),
		apiKey,
		eventsAddon: settings.eventsAddon ?? true,
		contactQuota: settings.contactQuota ?? 1_000_000,
		anonymousDailyCap: settings.anonymousDailyCap ?? 100_000,
		eventNameCap: settings.eventNameCap ?? 500,
		members: [],
		agents: new Map(),
		phoneNumbers: new Map(),
		calls: new Map(),
		contacts: new Map(),
		tags: new Map(),
		contactTags: new Map(),
		comments: new Map(),
		tasks: new Map(),
		channels: new Map(),
		threads: new Map(),
		messages: new Map(),
		templates: [],
		events: [],
		eventIds: new Map(),
		eventNames: new Set(),
		sessions: new Map(),
		companies: new Map(),
		anonymousPerDay: new Map(),
	};
}

/**
 * Fixed ids of the main organization's seeded records, so that the example workflows can name real
 * records of the simulator. The other organization keeps random ids, so that scoping tests stay
 * meaningful.
 */
export const MAIN_ORG_IDS = {
	phoneNumbers: {
		mainLineUs: '9404e000-0000-4000-8000-000000000001',
		madridOffice: '9404e000-0000-4000-8000-000000000002',
	},
	agents: {
		salesFollowUp: 'a9e47000-0000-4000-8000-000000000001',
		appointmentReminder: 'a9e47000-0000-4000-8000-000000000002',
	},
	contacts: {
		mariaGarcia: 'c0474c70-0000-4000-8000-000000000001',
		johnSmith: 'c0474c70-0000-4000-8000-000000000002',
		lucasPereira: 'c0474c70-0000-4000-8000-000000000003',
	},
	channels: {
		whatsappSales: 'chn_c4a77e10-0000-4000-8000-000000000001',
		instagramDms: 'chn_c4a77e10-0000-4000-8000-000000000002',
	},
} as const;

/** The fixed id when the organization is seeded with fixed ids, a fresh one otherwise. */
function seedId(fixedIds: boolean, fixed: string, fresh: () => string): string {
	return fixedIds ? fixed : fresh();
}

/** Members and phone numbers every organization has, so that calls and comments can be made. */
export function seedBasics(org: Organization, fixedIds = false): void {
	for (const [name, email] of [
		['Ana Owner', 'owner@example.test'],
		['Bruno Agent', 'bruno@example.test'],
	]) {
		const id = randomUUID();
		org.members.push({ id, email, name });
	}
	for (const [phone_number, name, fixedId] of [
		['+14155550100', 'Main line (US)', MAIN_ORG_IDS.phoneNumbers.mainLineUs],
		['+34910000100', 'Madrid office', MAIN_ORG_IDS.phoneNumbers.madridOffice],
	]) {
		const id = seedId(fixedIds, fixedId, randomUUID);
		org.phoneNumbers.set(id, { id, phone_number, name });
	}
}

/** Demo data that makes manual trials meaningful. */
export function seedOrganization(org: Organization, clock: SimClock, fixedIds = false): void {
	const now = clock.iso();
	const agents: Array<[string, string, string, string, string]> = [
		['Sales follow-up', 'Lucía', 'es-ES', 'voice-es-lucia', MAIN_ORG_IDS.agents.salesFollowUp],
		[
			'Appointment reminder',
			'Ava',
			'en-US',
			'voice-en-ava',
			MAIN_ORG_IDS.agents.appointmentReminder,
		],
	];
	for (const [name, person_name, language, voice_id, fixedId] of agents) {
		const id = seedId(fixedIds, fixedId, randomUUID);
		org.agents.set(id, {
			id,
			name,
			person_name,
			language,
			timezone: language === 'en-US' ? 'America/New_York' : 'Europe/Madrid',
			webhook_url: null,
			conversation_purpose: `${name} calls`,
			prompt: `You are ${person_name}. Be brief and friendly.`,
			voice_id,
			volume: 1,
			ambient_sound: null,
			start_speaker: 'agent',
			boosted_keywords: [],
			post_call_analysis_data: [
				{ name: 'interested', type: 'boolean', description: 'Whether the person is interested' },
				{
					name: 'wants_no_more_calls',
					type: 'boolean',
					description: 'Whether the person asked not to be called again',
				},
			],
			tools: null,
			max_call_duration_ms: 600_000,
			created_at: now,
			updated_at: now,
			version: 1,
		});
	}
	const contacts: Array<[string, string, string, string, string]> = [
		['María García', '+34600000001', 'maria@example.test', 'ES', MAIN_ORG_IDS.contacts.mariaGarcia],
		['John Smith', '+14155550123', 'john@example.test', 'US', MAIN_ORG_IDS.contacts.johnSmith],
		[
			'Lucas Pereira',
			'+5511999990000',
			'lucas@example.test',
			'BR',
			MAIN_ORG_IDS.contacts.lucasPereira,
		],
	];
	for (const [full_name, phone_number, email, country, fixedId] of contacts) {
		const id = seedId(fixedIds, fixedId, randomUUID);
		org.contacts.set(id, {
			id,
			created_at: now,
			phone_number,
			full_name,
			country,
			email,
			description: '',
			additional_data: [],
			organization_id: org.id,
			external_ids: [],
			last_activity_at: 0,
		});
	}
	const channelId = () => `chn_${randomUUID()}`;
	const waba = {
		id: seedId(fixedIds, MAIN_ORG_IDS.channels.whatsappSales, channelId),
		name: 'WhatsApp Sales',
		type: 'WABA' as const,
		status: 'active' as const,
		answer_method: 'manual' as const,
		organization_id: org.id,
		created_at: now,
	};
	const insta = {
		id: seedId(fixedIds, MAIN_ORG_IDS.channels.instagramDms, channelId),
		name: 'Instagram DMs',
		type: 'INSTAGRAM' as const,
		status: 'inactive' as const,
		answer_method: 'auto' as const,
		organization_id: org.id,
		created_at: now,
	};
	org.channels.set(waba.id, waba);
	org.channels.set(insta.id, insta);
	org.templates.push(
		{
			name: 'appointment_reminder',
			language: 'es',
			status: 'APPROVED',
			category: 'UTILITY',
			channel_id: waba.id,
		},
		{
			name: 'welcome_offer',
			language: 'en_US',
			status: 'APPROVED',
			category: 'MARKETING',
			channel_id: waba.id,
		},
	);
	const tagId = `tag-${randomUUID()}`;
	org.tags.set(tagId, { id: tagId, name: 'vip', color: '#ff9900', label: 'VIP' });
	seedConversations(org, clock, waba.id);
}

/**
 * Two WhatsApp conversations: María wrote an hour ago and got a reply (window open), John's
 * thread is closed and his window expired long ago (a template is needed to reach him).
 */
function seedConversations(org: Organization, clock: SimClock, channelId: string): void {
	const byPhone = (phone: string) =>
		[...org.contacts.values()].find((c) => c.phone_number === phone)!;
	const hour = 60 * 60 * 1000;
	const conversations: Array<{
		phone: string;
		status: string;
		lastAt: number;
		lines: Array<[string, 'whatsapp' | 'webapp']>;
	}> = [
		{
			phone: '+34600000001',
			status: 'open',
			lastAt: clock.now() - hour,
			lines: [
				['Hola, ¿tenéis cita el jueves?', 'whatsapp'],
				['¡Hola María! Sí, a las 10:00.', 'webapp'],
			],
		},
		{
			phone: '+14155550123',
			status: 'closed',
			lastAt: clock.now() - 72 * hour,
			lines: [['Thanks, all sorted.', 'whatsapp']],
		},
	];
	for (const { phone, status, lastAt, lines } of conversations) {
		const contact = byPhone(phone);
		const thread = {
			id: `thr-${randomUUID()}`,
			channel_id: channelId,
			channel_type: 'WABA',
			contact_id: contact.id,
			organization_id: org.id,
			status,
			assignee: null,
			assignee_type: null,
			updated_at: clock.iso(lastAt),
			window_open_until: lastAt + 24 * hour,
		};
		org.threads.set(thread.id, thread);
		for (const [content, source] of lines) {
			const id = `msg-${randomUUID()}`;
			const inbound = source === 'whatsapp';
			org.messages.set(id, {
				id,
				thread_id: thread.id,
				role: 'human',
				type: 'text',
				content,
				media: null,
				from: inbound ? phone : 'WhatsApp Sales',
				source,
				status: inbound ? 'delivered' : 'read',
				sender_id: inbound ? null : (org.members[0]?.id ?? null),
				created_at: clock.iso(lastAt),
			});
		}
		contact.last_activity_at = lastAt;
	}
}

/** A contact written straight into the store, for the resolution rules that need shared data. */
export function addContact(org: Organization, fields: Partial<Contact> = {}): Contact {
	const contact: Contact = {
		id: randomUUID(),
		created_at: new Date().toISOString(),
		phone_number: '',
		full_name: 'Test contact',
		country: '',
		email: '',
		description: '',
		additional_data: [],
		organization_id: org.id,
		external_ids: [],
		last_activity_at: 0,
		...fields,
	};
	org.contacts.set(contact.id, contact);
	return contact;
}

export function contactByEmail(org: Organization, email: string): Contact {
	const contact = [...org.contacts.values()].find((c) => c.email === email);
	if (!contact) throw new Error(`no contact with email ${email}`);
	return contact;
}
