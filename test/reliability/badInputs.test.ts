import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine';
import { startSimulator, type Simulator } from '../../simulator';
import { insertCall } from '../../simulator';
import { MAIN_ORG_IDS } from '../../simulator';
import { generateBadInputs, type BadInputCase } from './badInputs';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
/** Stands for a phone number no contact has yet; each run gets its own, so that a valid creation is not a duplicate (409). */
const NEW_PHONE = 'new phone number';
let phonesGiven = 0;
const withNewPhone = (parameters: INodeParameters): INodeParameters =>
	parameters.phoneNumber === NEW_PHONE
		? { ...parameters, phoneNumber: `+3465${String(++phonesGiven).padStart(7, '0')}` }
		: parameters;
const { agents, contacts, channels, phoneNumbers } = MAIN_ORG_IDS;

/** Parameters each operation runs with successfully; one bad field at a time is put on top. */
function validBases(ids: {
	call: string;
	tag: string;
	task: string;
	thread: string;
	message: string;
}): Record<string, INodeParameters> {
	const call = (operation: string, extra: INodeParameters = {}) => ({
		resource: 'call',
		operation,
		...extra,
	});
	const to = { channelId: byId(channels.whatsappSales), contactId: byId(contacts.mariaGarcia) };
	return {
		'call.cancel': call('cancel', { callId: ids.call }),
		'call.get': call('get', { callId: ids.call }),
		'call.getAll': call('getAll', { returnAll: false, limit: 5 }),
		'call.getStatus': call('getStatus', { callId: ids.call }),
		'call.placePhoneCall': call('placePhoneCall', {
			agentId: byId(agents.salesFollowUp),
			fromNumber: byId('+14155550100'),
			toNumber: '+14155550199',
			fullName: 'Jane Doe',
		}),
		'call.placeContactCall': call('placeContactCall', {
			agentId: byId(agents.salesFollowUp),
			contactId: byId(contacts.johnSmith),
			fromNumberId: byId(phoneNumbers.mainLineUs),
		}),
		'call.stop': call('stop', { callId: ids.call }),
		'agent.create': {
			resource: 'agent',
			operation: 'create',
			name: 'Generated',
			voice_id: 'voice-en-ava',
			timezone: 'America/New_York',
		},
		'agent.get': { resource: 'agent', operation: 'get', agentId: byId(agents.salesFollowUp) },
		'agent.getAll': { resource: 'agent', operation: 'getAll', returnAll: false, limit: 5 },
		'agent.listVoices': { resource: 'agent', operation: 'listVoices' },
		'agent.update': {
			resource: 'agent',
			operation: 'update',
			agentId: byId(agents.appointmentReminder),
			updateFields: { name: 'Renamed' },
		},
		'phoneNumber.getAll': {
			resource: 'phoneNumber',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		},
		'comment.create': {
			resource: 'comment',
			operation: 'create',
			contactId: byId(contacts.mariaGarcia),
			content: 'Called back',
			createdByType: 'USER',
			createdBy: 'owner@example.test',
		},
		'contact.create': {
			resource: 'contact',
			operation: 'create',
			phoneNumber: NEW_PHONE,
			additionalFields: {},
		},
		'contact.delete': {
			resource: 'contact',
			operation: 'delete',
			contactId: byId(contacts.lucasPereira),
		},
		'contact.getComments': {
			resource: 'contact',
			operation: 'getComments',
			contactId: byId(contacts.mariaGarcia),
		},
		'contact.getAll': {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: {},
		},
		'contact.getTags': {
			resource: 'contact',
			operation: 'getTags',
			contactId: byId(contacts.mariaGarcia),
		},
		'contact.update': {
			resource: 'contact',
			operation: 'update',
			contactId: byId(contacts.johnSmith),
			updateFields: { description: 'Updated' },
		},
		'tag.create': { resource: 'tag', operation: 'create', name: 'generated', color: '#336699' },
		'tag.delete': { resource: 'tag', operation: 'delete', tagId: byId(ids.tag) },
		'tag.getAll': { resource: 'tag', operation: 'getAll', returnAll: false, limit: 5 },
		'task.create': {
			resource: 'task',
			operation: 'create',
			brief: 'Call back',
			additionalFields: {},
		},
		'task.get': { resource: 'task', operation: 'get', taskId: byId(ids.task) },
		'task.getAll': {
			resource: 'task',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: {},
		},
		'event.send': {
			resource: 'event',
			operation: 'send',
			eventInput: 'fields',
			eventName: 'Generated Check',
			contactEmail: 'generated@example.com',
			paramsInput: 'json',
			additionalFields: {},
			options: {},
		},
		'channel.getAll': {
			resource: 'channel',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: {},
		},
		'thread.getAll': {
			resource: 'thread',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: {},
		},
		'thread.update': {
			resource: 'thread',
			operation: 'update',
			threadId: byId(ids.thread),
			status: 'closed',
			assignment: 'unchanged',
		},
		'message.get': { resource: 'message', operation: 'get', messageId: ids.message },
		'whatsapp.getTemplates': {
			resource: 'whatsapp',
			operation: 'getTemplates',
			channelId: to.channelId,
			returnAll: false,
			limit: 5,
		},
		'whatsapp.sendMedia': {
			resource: 'whatsapp',
			operation: 'sendMedia',
			...to,
			mediaType: 'image',
			mediaSource: 'url',
			mediaUrl: 'https://cdn.example.com/a.jpg',
			options: {},
		},
		'whatsapp.sendMessage': {
			resource: 'whatsapp',
			operation: 'sendMessage',
			...to,
			content: 'Hello',
			options: {},
		},
		'whatsapp.sendTemplate': {
			resource: 'whatsapp',
			operation: 'sendTemplate',
			...to,
			templateName: 'welcome_offer',
			languageCode: 'en_US',
			componentsInput: 'json',
			componentsJson: '[]',
			options: {},
		},
	};
}

/** What a run ends as: refused by the node before sending, answered by the API with an error, or done. */
type Verdict = 'refusedByN8n' | 'refusedBeforeSending' | 'apiError' | 'accepted';

/**
 * Fields whose values only the API knows: the voice catalog and the templates are listed by the
 * API at run time, the reference gives agent languages as examples ("such as"), and channel IDs are
 * opaque strings the send endpoints answer 400 when unknown. A 400 for them is the API's judgement,
 * not a rule the node could have checked.
 */
const API_OWNS_VALUES = new Set(['voice_id', 'language', 'templateName', 'channelId']);

/**
 * A 100,000-character ID or filter makes a request address no HTTP server reads (431): the request
 * left the node, but the simulator never saw it.
 */
const REFUSED_BY_THE_HTTP_SERVER = /HTTP 431/;

/**
 * Reads a WhatsApp send makes to check its input before sending (the channel's type and status, the
 * language of a template given by name): a value they refuse is refused before sending.
 */
const READS_BEFORE_SENDING = /^GET \/v1\/(channels|waba\/templates)$/;

/** A crash is an error of the code, not a message for a user. */
const CRASH =
	/TypeError|ReferenceError|Cannot read prop|is not a function|is not iterable|undefined is not|Maximum call stack/;

describe('Generated bad input for every parameter of every operation', () => {
	let sim: Simulator;
	let cases: BadInputCase[];
	const tally: Record<Verdict, number> = {
		refusedByN8n: 0,
		refusedBeforeSending: 0,
		apiError: 0,
		accepted: 0,
	};

	beforeAll(async () => {
		sim = await startSimulator({
			seed: true,
			limits: { org: 1e9, listing: 1e9, ip: 1e9, events: 1e9, eventsAnonymous: 1e9 },
		});
		const thread = [...sim.org.threads.values()][0];
		const message = [...sim.org.messages.values()][0];
		const tag = [...sim.org.tags.values()][0];
		const task = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'task', operation: 'create', brief: 'Seed task' },
		});
		const ids = {
			call: insertCall(sim).id,
			tag: tag.id,
			task: String(task.items[0].json.id),
			thread: thread.id,
			message: message.id,
		};
		cases = generateBadInputs(validBases(ids));
	});
	afterAll(async () => {
		console.info(`Generated bad inputs: ${JSON.stringify(tally)}`);
		await sim.stop();
	});

	it('covers every operation with hundreds of generated values', () => {
		// every operation that has fields of its own (List Voices has none), derived from the operations
		const withFields = RESOURCES.flatMap((resource) =>
			resource.operations
				.filter((op) => op.fields.length)
				.map((op) => `${resource.option.value}.${op.option.value}`),
		);
		expect([...new Set(cases.map((c) => c.operation))].sort()).toEqual(withFields.sort());
		expect(cases.length).toBeGreaterThan(500);
	});

	it('never crashes: each bad value is refused with the item and the field named, answered by the API with a clear error, or accepted as valid', async () => {
		const problems: string[] = [];
		for (const badCase of cases) {
			const problem = await checkCase(badCase);
			if (problem) problems.push(problem);
		}
		expect(problems).toEqual([]);
	}, 600_000);

	function accept(): undefined {
		tally.accepted++;
		return undefined;
	}

	/**
	 * Event → Send answers a row the service would refuse itself, as that row's result (`invalid`
	 * with the errors to fix), without a request; a row the node sent must not come back invalid.
	 */
	function eventAnswer(
		name: string,
		json: IDataObject | undefined,
		sent: number,
	): string | undefined {
		if (json?.status !== 'invalid' && json?.status !== 'rejected') return undefined;
		if (sent > 0) {
			// rules the reference leaves to the service (e.g. the email format), answered on the event's own row
			tally.apiError++;
			return undefined;
		}
		tally.refusedBeforeSending++;
		const errors = json.errors as unknown[] | undefined;
		return json.reason || errors?.length
			? undefined
			: `${name}: answered ${String(json.status)} without saying why`;
	}

	/** Runs one case; returns what is wrong with how the node took it, if anything. */
	async function checkCase(badCase: BadInputCase): Promise<string | undefined> {
		const name = `${badCase.operation} ${badCase.path} = ${badCase.kind}`;
		const before = sim.requests.length;
		let run: Awaited<ReturnType<typeof runNode>>;
		try {
			run = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: withNewPhone(badCase.parameters),
				items: badCase.items,
				continueOnFail: true,
			});
		} catch (error) {
			// n8n's own check of the workflow, before any node runs (a required field the value hides or shows)
			const refused =
				(error as Error).name === 'WorkflowHasIssuesError' && sim.requests.length === before;
			if (refused) tally.refusedByN8n++;
			return refused ? undefined : `${name}: the engine threw: ${(error as Error).message}`;
		}
		const { items, error } = run;
		if (error) return `${name}: the run stopped although Continue On Fail is on: ${error.message}`;
		const failure = items.find((item) => item.json.error !== undefined);
		// those reads are checks only for the sends; for a list operation (Get Templates) the read is its request
		const checksBeforeSending = /\.send/.test(badCase.operation);
		const sent = sim.requests
			.slice(before)
			.filter((r) => !checksBeforeSending || !READS_BEFORE_SENDING.test(`${r.method} ${r.path}`));
		if (!failure) return eventAnswer(name, items[0]?.json, sent.length) ?? accept();
		const message = `${String(failure.json.error)} ${String(failure.json.description ?? '')}`.slice(
			0,
			600,
		);
		if (CRASH.test(message)) return `${name}: crashed: ${message}`;
		if (JSON.stringify(failure.pairedItem) !== '{"item":0}')
			return `${name}: error item not paired to its input`;
		if (sent.length === 0 && !REFUSED_BY_THE_HTTP_SERVER.test(message)) {
			tally.refusedBeforeSending++;
			return namesItemAndField(message, badCase.labels)
				? undefined
				: `${name}: refused without naming the item and ${badCase.labels.join(' / ')}: ${message}`;
		}
		tally.apiError++;
		if (!/HTTP \d{3}/.test(message)) return `${name}: the API's answer is not named: ${message}`;
		// a 400 is an invalid request the node could have seen, where the reference states the rule
		const field = badCase.path.split('.').at(-1)!;
		if (sent.some((r) => r.status === 400) && !API_OWNS_VALUES.has(field))
			return `${name}: sent although invalid (400): ${message}`;
		return undefined;
	}
});

/** The item and one of the names along the field's path ("X (JSON)" and "X Name or ID" may be named as X). */
function namesItemAndField(message: string, labels: string[]): boolean {
	const named = (label: string) =>
		message.toLowerCase().includes(label.replace(/ \(JSON\)$| Name or ID$/, '').toLowerCase());
	return /\bitem 0\b/i.test(message) && labels.some(named);
}
