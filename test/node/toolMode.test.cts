import type {
	INode,
	INodeParameterResourceLocator,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';

import { CREDENTIAL_REF, runWorkflow } from '../../harness/engine.cts';
import { ACTION_NODE, MANUAL_TRIGGER, TEST_ITEMS } from '../../harness/nodeTypes.cts';
import type { FakeTime } from '../../harness/fakeTime.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { addContact, planCalls, storedEvents, type Simulator } from '../../simulator/index.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { toolDescriptionOf } from '../../nodes/VoiceAgentCrm/shared/toolMode';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';

/**
 * The node as an AI Agent's tool. n8n makes the tool variant by adding "Tool" to the type name
 * (its `@tool` display option is true then); the model reads the tool's description and the
 * schema n8n-core builds from the `$fromAI()` calls in the node's parameters.
 */

const TOOL_TYPE = `${ACTION_NODE}Tool`;

/** Text that only makes sense in the editor, or developer words a person should not read. */
const EDITOR_ONLY = /from the list|choose from|specify an id|<a |expression|uuid/i;

/** The tool variant as n8n builds it: the same node under the name with "Tool" added. */
function toolVariant(): INodeType {
	const node = new VoiceAgentCrm();
	node.description = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
	};
	return node;
}

/** A node with its parameters as the editor saves them (defaults filled in, hidden ones dropped). */
function nodeOf(description: INodeTypeDescription, type: string, parameters: INodeParameters) {
	const node: INode = {
		id: 't',
		name: 'Voice Agent CRM',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	node.parameters = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description,
	)!;
	return node;
}

const toolNode = (parameters: INodeParameters) =>
	nodeOf(toolVariant().description, TOOL_TYPE, parameters);
const regularNode = (parameters: INodeParameters) =>
	nodeOf(new VoiceAgentCrm().description, ACTION_NODE, parameters);

const EVERY_OPERATION = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({
		label: `${resource.option.name} → ${operation.option.name}`,
		parameters: { resource: resource.option.value, operation: operation.option.value },
		operation,
	})),
);

/** The model's arguments, key → what it is told, as n8n-core builds them for the model. */
function argumentsOf(node: INode): Record<string, string> {
	const shape = getSchema(node).shape as Record<string, { description?: string }>;
	return Object.fromEntries(
		Object.entries(shape).map(([key, arg]) => [key, arg.description ?? '']),
	);
}

describe('The node as an AI Agent tool', () => {
	it.each(EVERY_OPERATION)(
		'$label: the tool description is the operation sentence, with no editor-only text',
		({ parameters, operation }) => {
			const description = toolVariant().description;
			const told = NodeHelpers.getToolDescriptionForNode(toolNode(parameters), {
				description,
			} as INodeType);
			expect(told).toBe(toolDescriptionOf(operation));
			expect(told).toBe(operation.toolDescription ?? `${operation.option.description}.`);
			expect(told).not.toMatch(EDITOR_ONLY);
		},
	);

	it.each(EVERY_OPERATION)(
		'$label: every argument the model fills says what it is, without editor-only text',
		({ parameters }) => {
			for (const [key, says] of Object.entries(argumentsOf(toolNode(parameters)))) {
				expect({ key, says }).toEqual({ key, says: expect.stringMatching(/\w{3,}.*\w{3,}/) });
				expect(says).not.toMatch(EDITOR_ONLY);
			}
		},
	);

	it("Place AI Call: the model gives the number and the name, each with its format; the agent and the From Number stay the user's", () => {
		const node = toolNode({ resource: 'call', operation: 'placePhoneCall' });
		const args = argumentsOf(node);
		expect(Object.keys(args).sort()).toEqual(['Full_Name', 'To_Number']);
		expect(args.To_Number).toMatch(/\+14155550123/);
		expect(args.Full_Name).toMatch(/name of the person/i);
		// the parameter holds what n8n's editor shows as "Defined automatically by the model"
		expect(node.parameters.toNumber).toMatch(
			/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('To_Number', `.+`, 'string'\) \}\}$/,
		);
		expect((node.parameters.agentId as INodeParameterResourceLocator).mode).toBe('list');
		expect((node.parameters.fromNumber as INodeParameterResourceLocator).mode).toBe('list');
	});

	it('the record an operation acts on is an ID the model gives, with an example of its form', () => {
		const args = argumentsOf(toolNode({ resource: 'call', operation: 'getStatus' }));
		expect(args).toEqual({ Call: expect.stringMatching(/^ID of the call, e\.g\. [0-9a-f-]{36}$/) });
		const send = argumentsOf(toolNode({ resource: 'whatsapp', operation: 'sendMessage' }));
		expect(Object.keys(send).sort()).toEqual(['Contact', 'Message_Text']);
	});

	it('the regular node is unchanged: no model arguments, no tool description', () => {
		for (const { parameters } of EVERY_OPERATION) {
			const node = regularNode(parameters);
			expect(argumentsOf(node)).toEqual({});
			expect(node.parameters.toolDescription).toBeUndefined();
		}
		expect(regularNode({ resource: 'call', operation: 'placePhoneCall' }).parameters.toNumber).toBe(
			'',
		);
	});

	it.each(['placePhoneCall', 'placeContactCall'])(
		'%s offers no wait in the tool form: Wait for Outcome and its options are not there',
		(operation) => {
			const tool = toolNode({ resource: 'call', operation, waitFor: 'analysis' });
			for (const name of ['waitFor', 'waitOptions', 'transcriptOptions'])
				expect(tool.parameters).not.toHaveProperty(name);
			const regular = regularNode({ resource: 'call', operation, waitFor: 'analysis' });
			expect(regular.parameters).toMatchObject({ waitFor: 'analysis', waitOptions: {} });
		},
	);

	it('Contact → Get Many: the model may give the search, each filter an optional argument saying what it matches', () => {
		const node = toolNode({ resource: 'contact', operation: 'getAll' });
		const args = argumentsOf(node);
		expect(Object.keys(args).sort()).toEqual(['Email', 'Full_Name', 'Phone_Number']);
		expect(args.Full_Name).toMatch(/full name contains/i);
		expect(args.Email).toMatch(/email address contains.*e\.g\. @example\.com/i);
		expect(args.Phone_Number).toMatch(/phone number .*contains.*e\.g\. \+3460/i);
		// none is required: a model with only a name gives only the name
		expect(getSchema(node).parse({ Full_Name: 'García' })).toEqual({
			Email: '',
			Full_Name: 'García',
			Phone_Number: '',
		});
		expect(node.parameters).toMatchObject({ returnAll: false, limit: 50 });
	});

	it("Event → Send: the model gives the event's name (required) and the contact the conversation names (optional)", () => {
		const node = toolNode({ resource: 'event', operation: 'send' });
		const args = argumentsOf(node);
		expect(Object.keys(args).sort()).toEqual([
			'Contact_Email',
			'Contact_Name',
			'Contact_Phone',
			'Event_Name',
		]);
		expect(args.Event_Name).toMatch(/what happened.*e\.g\. Purchase Completed/i);
		expect(args.Contact_Email).toMatch(/email of the contact.*e\.g\. ana@example\.com/i);
		expect(args.Contact_Phone).toMatch(/phone number of the contact.*e\.g\. \+14155550123/i);
		const schema = getSchema(node);
		expect(schema.safeParse({ Contact_Email: 'ana@example.com' }).success).toBe(false);
		expect(schema.parse({ Event_Name: 'Demo Requested' })).toEqual({
			Event_Name: 'Demo Requested',
			Contact_Email: '',
			Contact_Phone: '',
			Contact_Name: '',
		});
		// the way events are given and the options stay the user's
		expect(node.parameters).toMatchObject({ eventInput: 'fields', options: {} });
	});

	it("Contact → Create or Update: the model gives the phone or the email, the name and the details, each optional and described; Match On stays the user's", () => {
		const parameters = { resource: 'contact', operation: 'upsert' };
		const node = toolNode(parameters);
		const args = argumentsOf(node);
		expect(Object.keys(args).sort()).toEqual([
			'Country',
			'Description',
			'Email',
			'Full_Name',
			'Phone_Number',
		]);
		expect(args.Phone_Number).toMatch(/phone number of the contact.*e\.g\. \+14155550123/i);
		expect(args.Email).toMatch(/email address of the contact.*e\.g\. ana@example\.com/i);
		expect(args.Full_Name).toMatch(/full name of the contact/i);
		expect(args.Country).toMatch(/country code.*e\.g\. US/i);
		expect(getSchema(node).parse({ Email: 'ana@example.com' })).toEqual({
			Phone_Number: '',
			Email: 'ana@example.com',
			Full_Name: '',
			Country: '',
			Description: '',
		});
		expect(node.parameters).toMatchObject({ matchOn: 'phone', contactSource: 'items' });
		// the model is told what finds the contact, not n8n's generic upsert sentence
		const told = NodeHelpers.getToolDescriptionForNode(node, {
			description: toolVariant().description,
		} as INodeType);
		expect(told).toMatch(/same phone number.*same email.*a detail left out is not changed/i);
		expect(told.length).toBeLessThan(300);
	});

	describe('run through the engine', () => {
		let time: FakeTime;
		let sim: Simulator;
		withSimulatorOnFakeTime((t, s) => {
			time = t;
			sim = s;
		});

		/**
		 * The tool run as an AI Agent runs it: the model's arguments, read by the tool's schema as
		 * n8n's tool wrapper reads them (missing optional ones become their default), reach the node
		 * as its input item, where its `$fromAI()` parameters read them.
		 */
		async function runAsTool(parameters: INodeParameters, modelArguments: Record<string, string>) {
			const args = getSchema(toolNode(parameters)).parse(modelArguments) as Record<string, string>;
			const workflow = {
				nodes: [
					{
						id: 's',
						name: 'Start',
						type: MANUAL_TRIGGER,
						typeVersion: 1,
						position: [0, 0] as [number, number],
						parameters: {},
					},
					{
						id: 'm',
						name: 'Model',
						type: TEST_ITEMS,
						typeVersion: 1,
						position: [100, 0] as [number, number],
						parameters: { items: JSON.stringify([args]), binary: '[]' },
					},
					{
						id: 't',
						name: 'Voice Agent CRM',
						type: TOOL_TYPE,
						typeVersion: 1,
						position: [200, 0] as [number, number],
						parameters,
						credentials: CREDENTIAL_REF,
					},
				],
				connections: {
					Start: { main: [[{ node: 'Model', type: 'main' as const, index: 0 }]] },
					Model: { main: [[{ node: 'Voice Agent CRM', type: 'main' as const, index: 0 }]] },
				},
			};
			return await time.runUntilSettled(
				runWorkflow(
					workflow,
					{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					{ [TOOL_TYPE]: toolVariant() },
				),
			);
		}

		const outputOf = (run: Awaited<ReturnType<typeof runAsTool>>) =>
			run.data.resultData.runData['Voice Agent CRM'][0].data!.main[0]!;

		it("places the call with the model's arguments and answers at once, even with a wait left in saved parameters", async () => {
			planCalls(sim).next({ talkMs: 60_000 });
			const parameters: INodeParameters = {
				...toolNode({ resource: 'call', operation: 'placePhoneCall' }).parameters,
				agentId: { __rl: true, mode: 'list', value: [...sim.org.agents.values()][0].id },
				fromNumber: { __rl: true, mode: 'list', value: '+14155550100' },
				waitFor: 'ended',
				waitOptions: { resumeByWebhook: true },
			};
			const run = await runAsTool(parameters, {
				To_Number: '+1 415 555 0199',
				Full_Name: 'Jane Doe',
			});
			expect(run.status).not.toBe('waiting');
			const output = outputOf(run);
			expect(output).toHaveLength(1);
			const call = sim.org.calls.get(String(output[0].json.call_id))!;
			expect(call).toMatchObject({ to: '+14155550199', contact: { full_name: 'Jane Doe' } });
			// answered with the placement, not a waited record; the call's webhook is not a resume URL
			expect(output[0].json).not.toHaveProperty('call_status');
			expect(call.webhook_url ?? null).toBeNull();
		});

		it('Run Campaign is refused as a tool, before any request, pointing to Place AI Call: a tool call never starts a campaign', async () => {
			const parameters: INodeParameters = {
				...toolNode({ resource: 'call', operation: 'runCampaign' }).parameters,
				agentId: { __rl: true, mode: 'list', value: [...sim.org.agents.values()][0].id },
				fromNumber: { __rl: true, mode: 'list', value: '+14155550100' },
				callDays: [1, 2, 3, 4, 5, 6, 7],
				callFrom: '00:00',
				callUntil: '24:00',
			};
			const run = await runAsTool(parameters, { To_Number: '+14155550199', Full_Name: 'Jane Doe' });
			const task = run.data.resultData.runData['Voice Agent CRM'][0];
			expect(task.error?.message).toBe(
				'Run Campaign is not offered to an AI Agent: a tool call must not start a campaign that calls people for days',
			);
			expect(task.error?.description).toMatch(/Call → Place AI Call to call one person/);
			expect(sim.requests).toHaveLength(0);
			expect(sim.org.calls.size).toBe(0);
			// and the agent is told so, before it tries
			const told = NodeHelpers.getToolDescriptionForNode(toolNode(parameters), {
				description: toolVariant().description,
			} as INodeType);
			expect(told).toMatch(
				/^Not available to an AI Agent: refuses every call\. To call one person use Place AI Call/,
			);
		});

		it('Cancel Campaign as a tool: the model gives the campaign key, and the campaign is halted', async () => {
			const parameters: INodeParameters = {
				...toolNode({ resource: 'call', operation: 'cancelCampaign' }).parameters,
				agentId: { __rl: true, mode: 'list', value: [...sim.org.agents.values()][0].id },
			};
			expect(Object.keys(argumentsOf(toolNode(parameters)))).toEqual(['Campaign']);
			const run = await runAsTool(parameters, { Campaign: '0123456789abcdef' });
			expect(outputOf(run)[0].json).toMatchObject({
				campaign: '0123456789abcdef',
				halted_by_tag: 'n8n-campaign-halted-0123456789abcdef',
				calls_canceled: 0,
			});
			expect([...sim.org.tags.values()].map((tag) => tag.name)).toContain(
				'n8n-campaign-halted-0123456789abcdef',
			);
		});

		it('Contact → Get Many searches by what the model gave, and only by that', async () => {
			const garcia = addContact(sim.org, {
				full_name: 'Lucía Quintanilla',
				email: 'lucia@acme.test',
			});
			addContact(sim.org, { full_name: 'Ana Quintanilla', email: 'ana@other.test' });
			addContact(sim.org, { full_name: 'Ben Stone', email: 'ben@acme.test' });
			const parameters = toolNode({ resource: 'contact', operation: 'getAll' }).parameters;

			const byNameAndEmail = await runAsTool(parameters, {
				Full_Name: 'quintanilla',
				Email: '@acme.test',
			});
			expect(outputOf(byNameAndEmail).map((item) => item.json.id)).toEqual([garcia.id]);
			const search = sim.requests.filter((r) => r.path === '/v1/contacts').at(-1)!;
			expect(search.query).toMatchObject({ full_name: 'quintanilla', email: '@acme.test' });
			expect(search.query).not.toHaveProperty('phone_number');

			const byNameOnly = await runAsTool(parameters, { Full_Name: 'Quintanilla' });
			expect(
				outputOf(byNameOnly)
					.map((item) => item.json.full_name)
					.sort(),
			).toEqual(['Ana Quintanilla', 'Lucía Quintanilla']);
		});

		it('Contact → Create or Update creates the contact the model described, then updates it with what a later call adds, leaving out what it did not say', async () => {
			const parameters = toolNode({ resource: 'contact', operation: 'upsert' }).parameters;
			const contactsBefore = sim.org.contacts.size;
			const first = await runAsTool(parameters, {
				Phone_Number: '+1 415 555 0199',
				Full_Name: 'Jane Doe',
				Country: 'US',
			});
			const [created] = outputOf(first);
			expect(created.json).toMatchObject({ status: 'created' });
			const contact = () => sim.org.contacts.get(String(created.json.contact_id));
			expect(contact()).toMatchObject({
				phone_number: '+14155550199',
				full_name: 'Jane Doe',
				country: 'US',
			});

			const later = await runAsTool(parameters, {
				Phone_Number: '+14155550199',
				Email: 'jane@example.com',
				Description: 'Asked for a callback on Monday',
			});
			expect(outputOf(later)[0].json).toMatchObject({
				status: 'updated',
				contact_id: created.json.contact_id,
			});
			expect(contact()).toMatchObject({
				full_name: 'Jane Doe',
				country: 'US',
				email: 'jane@example.com',
				description: 'Asked for a callback on Monday',
			});
			expect(sim.org.contacts.size).toBe(contactsBefore + 1);
		});

		it('Event → Send records the event the model named on the contact the conversation named', async () => {
			const ana = addContact(sim.org, { full_name: 'Ana Ruiz', email: 'ana@example.com' });
			const parameters = toolNode({ resource: 'event', operation: 'send' }).parameters;

			const known = await runAsTool(parameters, {
				Event_Name: 'Demo Requested',
				Contact_Email: 'ANA@example.com',
			});
			expect(outputOf(known)).toHaveLength(1);
			expect(storedEvents(sim.org, { event_name: 'demo_requested' })).toEqual([
				expect.objectContaining({ contact_id: ana.id, status: 'created' }),
			]);

			// a caller not in the CRM yet: the event creates the contact with the name the model gave
			await runAsTool(parameters, {
				Event_Name: 'Callback Requested',
				Contact_Phone: '+34600123456',
				Contact_Name: 'Marta Vidal',
			});
			const [callback] = storedEvents(sim.org, { event_name: 'callback_requested' });
			const created = [...sim.org.contacts.values()].find((c) => c.id === callback.contact_id);
			expect(created).toMatchObject({ full_name: 'Marta Vidal', phone_number: '+34600123456' });
		});
	});
});
