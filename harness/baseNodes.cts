import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { jsonParse, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Stand-ins for the few n8n-nodes-base nodes the example workflows use, so that the engine tests
 * and the demo run the examples unchanged without installing all of n8n-nodes-base (about 800 MB).
 * Each implements only the parameters the examples use, with the real node's parameter names,
 * defaults and semantics, and fails loudly on anything else, so that an example drifting away
 * from them is noticed here. `npm run test:n8n` runs the same examples with the real nodes.
 */

function description(
	name: string,
	displayName: string,
	version: number,
	outputs: number,
	properties: INodeTypeDescription['properties'],
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version,
		description: `Stand-in for n8n's ${displayName}`,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: Array.from({ length: outputs }, () => NodeConnectionTypes.Main),
		properties,
	};
}

function unsupported(context: IExecuteFunctions, what: string): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The test stand-in of this node does not implement ${what}; see harness/baseNodes.cts`,
	);
}

/** `{{ … }}` pieces of a text, as n8n's Set node finds them (non-greedy, so no `}}` inside). */
function resolvables(text: string): string[] {
	return text.match(/{{[\s\S]*?}}/g) ?? [];
}

/**
 * Edit Fields (Set) 3.4, "JSON Output" mode without other input fields: like the real node, the
 * `{{ … }}` pieces of the JSON text are evaluated one by one (objects written as JSON) and the
 * result is parsed as the new item.
 */
class EditFieldsStandIn implements INodeType {
	description = description('set', 'Edit Fields (Set)', 3.4, 1, [
		{
			displayName: 'Mode',
			name: 'mode',
			type: 'options',
			options: [
				{ name: 'Manual Mapping', value: 'manual' },
				{ name: 'JSON Output', value: 'raw' },
			],
			default: 'manual',
		},
		{ displayName: 'JSON Output', name: 'jsonOutput', type: 'json', default: '{}' },
		{
			displayName: 'Include Other Input Fields',
			name: 'includeOtherFields',
			type: 'boolean',
			default: false,
		},
		{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('mode', 0) !== 'raw')
			throw unsupported(this, 'the Manual Mapping mode');
		if (this.getNodeParameter('includeOtherFields', 0))
			throw unsupported(this, 'Include Other Input Fields');
		const raw = String(this.getNodeParameter('jsonOutput', 0, '', { rawExpressions: true }));
		return [
			this.getInputData().map((_, i) => {
				let text = raw.replace(/^=+/, '');
				if (raw.startsWith('=')) {
					for (const piece of resolvables(text)) {
						const value = this.evaluateExpression(piece, i);
						text = text.replace(
							piece,
							typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
						);
					}
				}
				const json = jsonParse<IDataObject>(text);
				if (typeof json !== 'object' || json === null || Array.isArray(json)) {
					throw new NodeOperationError(
						this.getNode(),
						`'JSON Output' in item ${i + 1} is not a valid JSON object`,
					);
				}
				return { json, pairedItem: { item: i } };
			}),
		];
	}
}

/** Split Out 1: one field holding a list of objects, each becoming an item; no other fields. */
class SplitOutStandIn implements INodeType {
	description = description('splitOut', 'Split Out', 1, 1, [
		{ displayName: 'Fields To Split Out', name: 'fieldToSplitOut', type: 'string', default: '' },
		{
			displayName: 'Include',
			name: 'include',
			type: 'options',
			options: [{ name: 'No Other Fields', value: 'noOtherFields' }],
			default: 'noOtherFields',
		},
		{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			const field = String(this.getNodeParameter('fieldToSplitOut', i))
				.trim()
				.replace(/^\$json\./, '');
			if (field.includes(',') || field.includes('.'))
				throw unsupported(this, 'several or nested fields');
			if (this.getNodeParameter('include', i) !== 'noOtherFields')
				throw unsupported(this, 'other fields than "No Other Fields"');
			const list = item.json[field];
			for (const element of Array.isArray(list) ? list : []) {
				if (typeof element !== 'object' || element === null)
					throw unsupported(this, 'lists of values that are not objects');
				output.push({ json: { ...(element as IDataObject) }, pairedItem: { item: i } });
			}
		}
		return [output];
	}
}

/**
 * If 2.2: the conditions are a `filter` parameter, which n8n-core itself evaluates when the node
 * reads it with `extractValue` (as the real node does), so the conditions' semantics are n8n's own.
 */
class IfStandIn implements INodeType {
	description = description('if', 'If', 2.2, 2, [
		{
			displayName: 'Conditions',
			name: 'conditions',
			type: 'filter',
			default: {},
			typeOptions: {
				filter: {
					caseSensitive: '={{!$parameter.options.ignoreCase}}',
					typeValidation: 'strict',
					version: 2,
				},
			},
		},
		{
			displayName: 'Convert Types Where Required',
			name: 'looseTypeValidation',
			type: 'boolean',
			default: false,
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			default: {},
			options: [{ displayName: 'Ignore Case', name: 'ignoreCase', type: 'boolean', default: true }],
		},
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('looseTypeValidation', 0))
			throw unsupported(this, 'Convert Types Where Required');
		const pass: INodeExecutionData[] = [];
		const fail: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			const matches = this.getNodeParameter('conditions', i, false, {
				extractValue: true,
			}) as boolean;
			(matches ? pass : fail).push({ ...item, pairedItem: item.pairedItem ?? { item: i } });
		}
		return [pass, fail];
	}
}

/**
 * Error Trigger: n8n starts an Error Workflow with the failed execution's data as this node's
 * input (`execution.id`, `execution.error`, `workflow.id`, ...), which it passes on unchanged.
 */
class ErrorTriggerStandIn implements INodeType {
	description = { ...description('errorTrigger', 'Error Trigger', 1, 1, []), inputs: [] };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * Read/Write Files from Disk 1.1, reading one file, as n8n 2.x reads it: a relative path from n8n's
 * working folder, and only a file inside the allowed folder (N8N_RESTRICT_FILE_ACCESS_TO, by default
 * `~/.n8n-files`). The errors are the real node's; the file is the binary field `data`, its details
 * in the JSON.
 */
export function readFileStandIn(workingFolder: string, allowedFolder: string): INodeType {
	return {
		description: description('readWriteFile', 'Read/Write Files from Disk', 1.1, 1, [
			{ displayName: 'File(s) Selector', name: 'fileSelector', type: 'string', default: '' },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		]),
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const selector = this.getNodeParameter('fileSelector', 0) as string;
			if (/[*?[\]{}]/.test(selector)) throw unsupported(this, 'path patterns');
			if (Object.keys(this.getNodeParameter('options', 0) as IDataObject).length)
				throw unsupported(this, 'its options');
			const file = path.resolve(workingFolder, selector);
			if (!existsSync(file))
				throw new NodeOperationError(this.getNode(), 'No file(s) found', {
					description: `No file matching the selector "${selector}" found`,
				});
			const fromAllowed = path.relative(allowedFolder, file);
			if (fromAllowed.startsWith('..') || path.isAbsolute(fromAllowed))
				throw new NodeOperationError(this.getNode(), 'Access to the file is not allowed.');
			const binary = await this.helpers.prepareBinaryData(readFileSync(file), file);
			const { mimeType, fileType, fileName, fileExtension, fileSize } = binary;
			return [
				[
					{
						json: { mimeType, fileType, fileName, fileExtension, fileSize },
						binary: { data: binary },
						pairedItem: { item: 0 },
					},
				],
			];
		},
	};
}

/** The stand-ins by node type, as `runWorkflow`'s extra node types. */
export const BASE_NODE_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.set': new EditFieldsStandIn(),
	'n8n-nodes-base.splitOut': new SplitOutStandIn(),
	'n8n-nodes-base.if': new IfStandIn(),
	'n8n-nodes-base.errorTrigger': new ErrorTriggerStandIn(),
};
