import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { insertCall, MAIN_ORG_IDS, type Simulator } from '../../simulator/index.cts';
import type { Sample } from '../../nodes/VoiceAgentCrm/shared/operation';

/** The value a sample stands for, by kind: what the organization the cases run against holds. */
export type Samples = Record<Sample, string>;

/** Stands for a phone number no contact has yet; `withNewPhone` gives each run its own. */
export const NEW_PHONE = 'new phone number';
let phonesGiven = 0;

/** The parameters with a phone number of their own where they ask for a new one (no 409 duplicate). */
export const withNewPhone = (parameters: INodeParameters): INodeParameters =>
	parameters.phoneNumber === NEW_PHONE
		? { ...parameters, phoneNumber: `+3465${String(++phonesGiven).padStart(7, '0')}` }
		: parameters;

/** A record of each kind the operations' examples name, from a seeded simulator's organization. */
export async function samplesOf(sim: Simulator): Promise<Samples> {
	const { agents, contacts, channels, phoneNumbers } = MAIN_ORG_IDS;
	const task = await runNode({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters: { resource: 'task', operation: 'create', brief: 'Seed task' },
	});
	return {
		agent: agents.salesFollowUp,
		call: insertCall(sim).id,
		channel: channels.whatsappSales,
		contact: contacts.mariaGarcia,
		memberEmail: 'owner@example.test',
		message: [...sim.org.messages.values()][0].id,
		newPhoneNumber: NEW_PHONE,
		phoneNumber: '+14155550100',
		phoneNumberId: phoneNumbers.mainLineUs,
		tag: [...sim.org.tags.values()][0].id,
		task: String(task.items[0].json.id),
		template: 'welcome_offer',
		thread: [...sim.org.threads.values()][0].id,
		voice: 'voice-en-ava',
	};
}

const SAMPLE = /^\{sample:(\w+)\}$/;

/** An operation's example with its samples filled in. */
export function filled(value: unknown, samples: Samples): unknown {
	if (typeof value === 'string') {
		const kind = SAMPLE.exec(value)?.[1] as Sample | undefined;
		return kind ? samples[kind] : value;
	}
	if (Array.isArray(value)) return value.map((entry) => filled(entry, samples));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, filled(entry, samples)]),
		);
	return value;
}
