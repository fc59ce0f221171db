import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { VoiceAgentCrm } from '../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import { VoiceAgentCrmInstantTrigger } from '../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node';
import { VoiceAgentCrmTrigger } from '../nodes/VoiceAgentCrmTrigger/VoiceAgentCrmTrigger.node';

export const PACKAGE = 'n8n-nodes-voice-agent-crm';
export const ACTION_NODE = `${PACKAGE}.voiceAgentCrm`;
export const TRIGGER_NODE = `${PACKAGE}.voiceAgentCrmTrigger`;
export const INSTANT_TRIGGER_NODE = `${PACKAGE}.voiceAgentCrmInstantTrigger`;
export const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
export const TEST_ITEMS = 'test.items';

/** Stand-in for n8n's Manual Trigger: one empty item, as the editor's "Execute workflow" gives. */
class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button',
		defaults: { name: 'When clicking "Execute workflow"' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

/**
 * Test source of items: the `items` parameter (a JSON array) becomes the output items; the
 * optional `binary` parameter (a JSON array, by item index) gives items their binary data.
 */
class TestItems implements INodeType {
	description = {
		displayName: 'Test Items',
		name: 'items',
		group: ['transform'],
		version: 1,
		description: 'Emits the items given as a parameter',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
			{ displayName: 'Binary', name: 'binary', type: 'json', default: '[]' },
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		const rawBinary = this.getNodeParameter('binary', 0, '[]') as string | unknown[];
		const binary = (
			typeof rawBinary === 'string' ? JSON.parse(rawBinary) : rawBinary
		) as Array<IBinaryKeyData | null>;
		return [
			list.map((json, index) => ({
				json,
				...(binary[index] && { binary: binary[index] }),
				pairedItem: { item: 0 },
			})),
		];
	}
}

let loaded: Record<string, INodeType> | undefined;

/**
 * One instance of each node type for the whole process, as n8n loads them once at start: the
 * action node builds its description of 35 operations when it is made.
 */
function loadedNodeTypes(): Record<string, INodeType> {
	loaded ??= {
		[ACTION_NODE]: new VoiceAgentCrm(),
		[TRIGGER_NODE]: new VoiceAgentCrmTrigger(),
		[INSTANT_TRIGGER_NODE]: new VoiceAgentCrmInstantTrigger(),
		[MANUAL_TRIGGER]: new ManualTrigger(),
		[TEST_ITEMS]: new TestItems(),
	};
	return loaded;
}

export class TestNodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType>;

	constructor(extra: Record<string, INodeType> = {}) {
		this.types = { ...loadedNodeTypes(), ...extra };
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.types).map((name) => [name, {}]));
	}
}
