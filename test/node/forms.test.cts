import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import type { Operation, Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import {
	descriptionsTooLong,
	kindsBelyingTheirRequest,
	listsBreakingTheirRule,
} from './operationRules.cts';
import { VoiceAgentCrmInstantTrigger } from '../../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node';
import { VoiceAgentCrmTrigger } from '../../nodes/VoiceAgentCrmTrigger/VoiceAgentCrmTrigger.node';
import { VoiceAgentCrmApi } from '../../credentials/VoiceAgentCrmApi.credentials';

/** What a user meets first in the editor: the operation list, its words, and the canvas subtitle. */

const OPERATIONS = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({
		resource,
		operation,
		key: `${resource.option.value}.${operation.option.value}`,
	})),
);

describe('The operation list', () => {
	it('has one-sentence operation descriptions of at most 120 characters', () => {
		expect(descriptionsTooLong(RESOURCES)).toEqual([]);
	});

	it('gives every list of a resource\'s own collection (kind list) the value getAll, shown "Get Many", with Return All, and nothing else that value', () => {
		expect(listsBreakingTheirRule(RESOURCES)).toEqual([]);
		// not kept by having no lists at all
		expect(OPERATIONS.filter(({ operation }) => operation.kind === 'list').length).toBeGreaterThan(
			1,
		);
	});

	it('declares for each operation a kind that agrees with its request: reads and lists GET, writes and sends not', () => {
		expect(kindsBelyingTheirRequest(RESOURCES)).toEqual([]);
	});

	it('defaults each resource to its operation that creates and can run first, or else to reading', () => {
		// creates: a write or send that needs no ID of the resource's own records (no update, delete, stop)
		const creates = (resource: Resource, op: Operation) =>
			(op.kind === 'write' || op.kind === 'send') &&
			!op.fields.some((field) => field.required && field.name === `${resource.option.value}Id`);
		const misplaced = RESOURCES.filter((resource) => {
			const chosen = resource.operations.find(
				(op) => op.option.value === resource.defaultOperation,
			);
			if (!chosen) return true;
			const creating = resource.operations.filter((op) => creates(resource, op));
			return creating.length
				? !creating.includes(chosen)
				: chosen.kind !== 'read' && chosen.kind !== 'list';
		});
		expect(misplaced.map((resource) => resource.option.value)).toEqual([]);
	});

	it('shows a subtitle a person reads on the canvas ("Call: Place AI Call")', () => {
		const subtitle = new VoiceAgentCrm().description.subtitle!;
		const expression = /^=\{\{([\s\S]*)\}\}$/.exec(subtitle)![1];

		const evaluate = new Function('$parameter', `return ${expression}`) as (
			$parameter: INodeParameters,
		) => string;
		expect(evaluate({ resource: 'call', operation: 'placePhoneCall' })).toBe('Call: Place AI Call');
		expect(evaluate({ resource: 'whatsapp', operation: 'sendTemplate' })).toBe(
			'WhatsApp (WABA): Send Template',
		);
		for (const { resource, operation } of OPERATIONS) {
			expect(evaluate({ resource: resource.option.value, operation: operation.option.value })).toBe(
				`${resource.option.name}: ${operation.option.name}`,
			);
		}
	});

	it("lists Wait for Outcome in the order of the wait: Don't Wait, Until the Call Ends, Until Its Analysis Is Ready", () => {
		const waitFor = new VoiceAgentCrm().description.properties.find(
			(p) => p.name === 'waitFor',
		) as INodeProperties;
		expect((waitFor.options as INodePropertyOptions[]).map((o) => o.name)).toEqual([
			"Don't Wait",
			'Until the Call Ends',
			'Until Its Analysis Is Ready',
		]);
	});
});

describe('Defaults that run', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('Thread → Update with only the thread chosen closes it', async () => {
		const thread = [...sim.org.threads.values()].find((t) => t.status === 'open')!;
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: {
				resource: 'thread',
				operation: 'update',
				threadId: { __rl: true, mode: 'id', value: thread.id },
			},
		});
		expect(error).toBeUndefined();
		expect(sim.requestsTo('PUT', `/v1/thread/${thread.id}`).at(-1)!.body).toEqual({
			status: 'closed',
		});
		expect(items[0].json).toMatchObject({ status: 'closed' });
	});
});

describe('Agent → Tools', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());
	const create = (additionalFields: INodeParameters) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: {
				resource: 'agent',
				operation: 'create',
				name: 'Booker',
				voice_id: 'voice-en-ava',
				timezone: 'Europe/Madrid',
				additionalFields,
			},
			continueOnFail: true,
		});
	const schema = { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] };

	it('has its own help, not the help of Post-Call Analysis Fields', () => {
		const create = RESOURCES.find((r) => r.option.value === 'agent')!.operations.find(
			(o) => o.option.value === 'create',
		)!;
		const settings = create.fields.find((f) => f.name === 'additionalFields')!
			.options as INodeProperties[];
		const entryHelp = (name: string) =>
			(
				settings.find((f) => f.name === name)!.options as Array<{ values: INodeProperties[] }>
			)[0].values.map((v) => v.description);
		expect(entryHelp('tools').join(' ')).toMatch(/function/);
		expect(entryHelp('tools')).not.toEqual(
			expect.arrayContaining(entryHelp('post_call_analysis_data')),
		);
	});

	it('sends a function tool with its parameters schema, from the list and from the JSON mode', async () => {
		const fromList = await create({
			tools: {
				entries: [
					{
						name: 'book_meeting',
						type: 'function',
						description: 'Books a meeting',
						parameters: JSON.stringify(schema),
					},
				],
			},
		});
		expect(fromList.items[0].json.error).toBeUndefined();
		const complete = {
			name: 'book_meeting',
			type: 'function',
			description: 'Books a meeting',
			parameters: schema,
		};
		expect(sim.requestsTo('POST', '/v1/agents').at(-1)!.body).toMatchObject({ tools: [complete] });
		const fromJson = await create({ tools_json: JSON.stringify([complete]) });
		expect(fromJson.items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/agents').at(-1)!.body).toMatchObject({ tools: [complete] });
	});

	it('refuses parameters that are not a JSON object before sending', async () => {
		const before = sim.requests.length;
		const { items } = await create({
			tools: { entries: [{ name: 'book_meeting', type: 'function', parameters: '{"type": ' }] },
		});
		expect(sim.requests.length).toBe(before);
		expect(items[0].json.error).toMatch(
			/Item 0: Tools → Parameters \(JSON Schema\): must be a JSON Schema object/,
		);
	});
});

/** Every text a person reads in the three nodes and the credential, with where it is. */
function textsOf(value: unknown, path: string, found: Array<{ path: string; text: string }>) {
	if (Array.isArray(value))
		value.forEach((entry, index) => textsOf(entry, `${path}[${index}]`, found));
	else if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		for (const key of ['description', 'hint', 'placeholder', 'displayName', 'action'])
			if (typeof record[key] === 'string')
				found.push({ path: `${path}.${key}`, text: record[key] });
		for (const [key, entry] of Object.entries(record))
			if (key !== 'default' && typeof entry === 'object') textsOf(entry, `${path}.${key}`, found);
	}
	return found;
}

describe('The words of the forms', () => {
	const texts = [
		...textsOf(new VoiceAgentCrm().description, 'action', []),
		...textsOf(new VoiceAgentCrmTrigger().description, 'trigger', []),
		...textsOf(new VoiceAgentCrmInstantTrigger().description, 'instant', []),
		...textsOf(new VoiceAgentCrmApi().properties, 'credential', []),
	];

	it('hold no developer words: UUID, endpoint, payload, snake_case, binary property', () => {
		expect(texts.length).toBeGreaterThan(500);
		const developerWords = /\buuids?\b|endpoint|payload|snake_case|binary property|status words/i;
		expect(texts.filter(({ text }) => developerWords.test(text))).toEqual([]);
	});

	it('word actions as n8n asks: sentence case, no articles', () => {
		const actions = texts.filter(({ path }) => path.endsWith('.action'));
		expect(actions).toHaveLength(OPERATIONS.length);
		expect(actions.filter(({ text }) => /\b(a|an|the)\b/i.test(text))).toEqual([]);
		expect(
			actions.filter(({ text }) => /^[A-Z][^A-Z]*(AI|WhatsApp)?[^A-Z]*$/.test(text) === false),
		).toEqual([]);
	});

	it('keep tooltips short: no description over 300 characters', () => {
		expect(texts.filter(({ text }) => text.length > 300).map(({ path }) => path)).toEqual([]);
	});

	it('start placeholders with "e.g."', () => {
		const placeholders = texts.filter(({ path }) => path.endsWith('.placeholder'));
		// not examples: collections' "Add …" buttons, list search boxes, the credential's address,
		// JSON skeletons, and the email placeholder n8n's lint asks for
		const notExamples = /^(Add |Search|https?:|[[{]|name@email\.com$)/;
		const examples = placeholders.filter(({ text }) => !notExamples.test(text));
		expect(examples.filter(({ text }) => !text.startsWith('e.g. '))).toEqual([]);
	});

	it('name the instant trigger so that it still reads as a name where n8n drops "Trigger"', () => {
		const { displayName, defaults } = new VoiceAgentCrmInstantTrigger().description;
		expect(displayName.replace(/ trigger/i, '')).toBe('Voice Agent CRM Call Events');
		expect(defaults.name).toBe(displayName);
	});
});
