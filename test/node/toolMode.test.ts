import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CREDENTIAL_REF, runWorkflow } from '../../harness/engine';
import { ACTION_NODE, MANUAL_TRIGGER } from '../../harness/nodeTypes';
import type { FakeTime } from '../../harness/fakeTime';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime';
import { planCalls, type Simulator } from '../../simulator';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { toolDescriptionOf } from '../../nodes/VoiceAgentCrm/shared/operation';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';

/**
 * The node as an AI Agent's tool. n8n makes the tool variant by adding "Tool" to the type name
 * (its `@tool` display option is true then), and tells the model the tool's description and the
 * names of the fields it fills.
 */

const TOOL_TYPE = `${ACTION_NODE}Tool`;

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

function toolNode(parameters: INodeParameters): INode {
	const description = toolVariant().description as INodeTypeDescription;
	const node: INode = {
		id: 't',
		name: 'Voice Agent CRM',
		type: TOOL_TYPE,
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

describe('The node as an AI Agent tool', () => {
	it('tells the model what each operation does and the format of its fields (E.164, UUIDs), not n8n\'s "Place AI call in Voice Agent CRM"', () => {
		const description = toolVariant().description;
		const told = NodeHelpers.getToolDescriptionForNode(
			toolNode({ resource: 'call', operation: 'placePhoneCall' }),
			{ description } as INodeType,
		);
		expect(told).toMatch(/^Have a voice AI agent call a phone number/);
		expect(told).toContain('To Number: Phone number to call, in international E.164 format');
		expect(told).toContain('Agent: The voice AI agent');
		expect(told).toContain('a UUID');
		for (const resource of RESOURCES) {
			for (const operation of resource.operations) {
				const node = toolNode({
					resource: resource.option.value,
					operation: operation.option.value,
				});
				expect(NodeHelpers.getToolDescriptionForNode(node, { description } as INodeType)).toBe(
					toolDescriptionOf(operation),
				);
			}
		}
		// the regular node shows no tool description
		const regular = new VoiceAgentCrm().description;
		expect(
			NodeHelpers.getNodeParameters(
				regular.properties,
				{ resource: 'call', operation: 'get' },
				true,
				false,
				null,
				regular,
			)!.toolDescription,
		).toBeUndefined();
	});

	it('does not wait by default, and does not offer Free the Worker While Waiting', () => {
		const node = toolNode({ resource: 'call', operation: 'placePhoneCall' });
		expect(node.parameters.waitFor).toBe('none');
		const description = toolVariant().description;
		const waitOptions = description.properties.find((p) => p.name === 'waitOptions')!;
		const resume = (waitOptions.options as INodeProperties[]).find(
			(o) => o.name === 'resumeByWebhook',
		)!;
		const shown = (variant: INodeTypeDescription) =>
			NodeHelpers.displayParameter({ waitFor: 'ended' }, resume, toolNode({}), variant);
		expect(shown(description)).toBe(false);
		expect(shown(new VoiceAgentCrm().description)).toBe(true);
	});

	describe('run through the engine', () => {
		let time: FakeTime;
		let sim: Simulator;
		withSimulatorOnFakeTime((t, s) => {
			time = t;
			sim = s;
		});

		it('a Free the Worker While Waiting left in saved parameters is dropped: the tool answers with the record, the execution never waits', async () => {
			planCalls(sim).next({ talkMs: 60_000 });
			const parameters: INodeParameters = {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: { __rl: true, mode: 'list', value: [...sim.org.agents.values()][0].id },
				fromNumber: { __rl: true, mode: 'list', value: '+14155550100' },
				toNumber: '+14155550199',
				fullName: 'Jane Doe',
				additionalFields: {},
				waitFor: 'ended',
				waitOptions: { resumeByWebhook: true },
			};
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
					Start: { main: [[{ node: 'Voice Agent CRM', type: 'main' as const, index: 0 }]] },
				},
			};
			const run = await time.runUntilSettled(
				runWorkflow(
					workflow,
					{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					{ [TOOL_TYPE]: toolVariant() },
				),
			);
			expect(run.status).not.toBe('waiting');
			const output = run.data.resultData.runData['Voice Agent CRM'][0].data!.main[0]!;
			expect(output[0].json).toMatchObject({
				call_id: expect.any(String),
				call_status: 'completed',
			});
			// the call's webhook is not the execution's resume URL
			expect(sim.org.calls.get(String(output[0].json.call_id))!.webhook_url ?? null).toBeNull();
		});
	});
});
