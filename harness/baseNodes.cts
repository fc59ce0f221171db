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
import { isDeepStrictEqual } from 'node:util';

/**
 * Stand-ins for the few n8n-nodes-base nodes the example workflows and the benchmarks' baselines
 * use, so that the engine tests, the benchmarks and the demo run them unchanged without installing all of n8n-nodes-base (about 800 MB).
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

/**
 * Compare Datasets 2.3 (n8n-nodes-base's `findMatches`), as a sync workflow uses it: Fields to Match
 * (one pair of top-level fields), When There Are Differences (`preferInput1`, `preferInput2`, or
 * `mix` with Prefer and For Everything Except) and Fuzzy Compare. Each Input A item meets the first
 * Input B item with an equal key (n8n scans Input B; an index finds the same one). Matched pairs are
 * compared on every field (Fields to Skip Comparing left out), or with Fuzzy Compare on Input A's
 * fields only, where null, '' and a missing field are equal and a number equals its text. Outputs:
 * In A only, Same (the Input A item), Different, In B only.
 */
class CompareDatasetsStandIn implements INodeType {
	description = {
		...description('compareDatasets', 'Compare Datasets', 2.3, 4, [
			{
				displayName: 'Fields to Match',
				name: 'mergeByFields',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: { values: [{ field1: '', field2: '' }] },
				options: [
					{
						displayName: 'Values',
						name: 'values',
						values: [
							{ displayName: 'Input A Field', name: 'field1', type: 'string', default: '' },
							{ displayName: 'Input B Field', name: 'field2', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'When There Are Differences',
				name: 'resolve',
				type: 'options',
				options: [
					{ name: 'Use Input A Version', value: 'preferInput1' },
					{ name: 'Use Input B Version', value: 'preferInput2' },
					{ name: 'Use a Mix of Versions', value: 'mix' },
				],
				default: 'preferInput2',
			},
			{ displayName: 'Fuzzy Compare', name: 'fuzzyCompare', type: 'boolean', default: false },
			{
				displayName: 'Prefer',
				name: 'preferWhenMix',
				type: 'options',
				options: [
					{ name: 'Input A Version', value: 'input1' },
					{ name: 'Input B Version', value: 'input2' },
				],
				default: 'input1',
				displayOptions: { show: { resolve: ['mix'] } },
			},
			{
				displayName: 'For Everything Except',
				name: 'exceptWhenMix',
				type: 'string',
				default: '',
				displayOptions: { show: { resolve: ['mix'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{
						displayName: 'Fields to Skip Comparing',
						name: 'skipFields',
						type: 'string',
						default: '',
					},
				],
			},
		]),
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		inputNames: ['Input A', 'Input B'],
		outputNames: ['In A only', 'Same', 'Different', 'In B only'],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const pairs = this.getNodeParameter('mergeByFields.values', 0, []) as Array<{
			field1: string;
			field2: string;
		}>;
		if (pairs.length !== 1 || !pairs[0].field1 || !pairs[0].field2)
			throw unsupported(this, 'other than one pair of Fields to Match');
		const [{ field1, field2 }] = pairs;
		const resolve = this.getNodeParameter('resolve', 0) as string;
		const fuzzy = this.getNodeParameter('fuzzyCompare', 0, false) as boolean;
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const skip = String(options.skipFields ?? '')
			.split(',')
			.map((field) => field.trim())
			.filter(Boolean);
		const inputA = this.getInputData(0);
		const inputB = this.getInputData(1);
		const firstOfKey = new Map<unknown, number>();
		inputB.forEach((item, index) => {
			const key = keyOf(this, item.json[field2], fuzzy);
			if (!firstOfKey.has(key)) firstOfKey.set(key, index);
		});
		const [onlyA, same, different, onlyB] = [[], [], [], []] as INodeExecutionData[][];
		const matchedB = new Set<number>();
		for (const [index, item] of inputA.entries()) {
			const pairedItem = { item: index, input: 0 };
			const value = item.json[field1];
			const matchIndex =
				value === undefined ? undefined : firstOfKey.get(keyOf(this, value, fuzzy));
			if (matchIndex === undefined) {
				onlyA.push({ json: item.json, pairedItem });
				continue;
			}
			matchedB.add(matchIndex);
			const match = inputB[matchIndex].json;
			if (itemsEqual(item.json, match, skip, fuzzy)) same.push({ json: item.json, pairedItem });
			else different.push({ json: resolved(this, item.json, match, resolve), pairedItem });
		}
		inputB.forEach((item, index) => {
			if (!matchedB.has(index))
				onlyB.push({ json: item.json, pairedItem: { item: index, input: 1 } });
		});
		return [onlyA, same, different, onlyB];
	}
}

/** A match key as the comparison sees it: with Fuzzy Compare a number and its text are one key. */
function keyOf(context: IExecuteFunctions, value: unknown, fuzzy: boolean): unknown {
	if (value !== null && typeof value === 'object')
		throw unsupported(context, 'matching on objects or lists');
	return fuzzy && typeof value === 'number' ? String(value) : value;
}

/** n8n's fuzzy equality for the values a contact has: text, numbers, booleans and blanks. */
function fuzzyEqual(a: unknown, b: unknown): boolean {
	const blank = (v: unknown) => v === undefined || v === null || v === '';
	if (blank(a) && blank(b)) return true;
	if (typeof a === 'number' || typeof b === 'number') return String(a) === String(b);
	return isDeepStrictEqual(a, b);
}

function itemsEqual(a: IDataObject, b: IDataObject, skip: string[], fuzzy: boolean): boolean {
	const kept = (json: IDataObject) =>
		Object.fromEntries(Object.entries(json).filter(([key]) => !skip.includes(key)));
	const [left, right] = [kept(a), kept(b)];
	if (!fuzzy) return isDeepStrictEqual(left, right);
	return Object.keys(left).every((key) => fuzzyEqual(left[key], right[key]));
}

/** The Different output's item: one version, or Prefer's version with the listed fields of the other. */
function resolved(
	context: IExecuteFunctions,
	a: IDataObject,
	b: IDataObject,
	resolve: string,
): IDataObject {
	if (resolve === 'preferInput1') return a;
	if (resolve === 'preferInput2') return b;
	if (resolve !== 'mix') throw unsupported(context, `When There Are Differences "${resolve}"`);
	const preferA = context.getNodeParameter('preferWhenMix', 0) === 'input1';
	const [entry, other] = preferA ? [a, b] : [b, a];
	const except = String(context.getNodeParameter('exceptWhenMix', 0, ''))
		.split(',')
		.map((field) => field.trim())
		.filter(Boolean);
	if (except.some((field) => field.includes('.'))) throw unsupported(context, 'nested fields');
	// as n8n's combineItems: an empty value of the other version becomes null
	return { ...entry, ...Object.fromEntries(except.map((field) => [field, other[field] || null])) };
}

/** The stand-ins by node type, as `runWorkflow`'s extra node types. */
export const BASE_NODE_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.set': new EditFieldsStandIn(),
	'n8n-nodes-base.splitOut': new SplitOutStandIn(),
	'n8n-nodes-base.if': new IfStandIn(),
	'n8n-nodes-base.errorTrigger': new ErrorTriggerStandIn(),
	'n8n-nodes-base.compareDatasets': new CompareDatasetsStandIn(),
};
