import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeParameterValueType,
} from 'n8n-workflow';

import { isObject } from './rules';

/** A node parameter's value for one item. */
export type ParameterReader = (
	name: string,
	itemIndex: number,
	fallback: NodeParameterValueType | object,
) => unknown;

type PerItem = (itemIndex: number) => unknown;

/**
 * `getNodeParameter` for thousands of items at the cost of what actually varies per item. Each
 * parameter is looked at once: without an expression its value is read once for all items; an
 * expression that only names the item or a field of it (`{{ $json }}`, `{{ $json.email }}`,
 * `{{ $json["First Name"] }}`, what dragging a field in the editor writes) is read from the item's JSON, which is what n8n
 * would compute; any other expression is left to n8n, item by item. Values shared by all items
 * are never changed by the node.
 */
export function parameterReader(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): ParameterReader {
	const saved = context.getNode().parameters;
	const compiled = new Map<string, PerItem>();
	return (name, itemIndex, fallback) => {
		let read = compiled.get(name);
		if (!read) {
			const raw = name
				.split('.')
				.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), saved);
			read = holdsExpression(raw)
				? perItem(context, items, name, raw)
				: once(context.getNodeParameter(name, 0, fallback as NodeParameterValueType));
			compiled.set(name, read);
		}
		return read(itemIndex);
	};
}

const once =
	(value: unknown): PerItem =>
	() =>
		value;

function perItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	path: string,
	raw: unknown,
): PerItem {
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const keys = itemFieldPath(raw);
		return keys
			? (itemIndex) => fieldOf(items[itemIndex].json, keys)
			: (itemIndex) => context.getNodeParameter(path, itemIndex);
	}
	if (!holdsExpression(raw)) return once(raw);
	if (Array.isArray(raw)) {
		const parts = raw.map((value, index) => perItem(context, items, `${path}[${index}]`, value));
		return (itemIndex) => parts.map((part) => part(itemIndex));
	}
	const entries = Object.entries(raw as IDataObject).map(
		([key, value]) => [key, perItem(context, items, `${path}.${key}`, value)] as const,
	);
	return (itemIndex) => Object.fromEntries(entries.map(([key, part]) => [key, part(itemIndex)]));
}

export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	return isObject(value) && Object.values(value).some(holdsExpression);
}

const WHOLE_ITEM_FIELD =
	/^=\{\{\s*\$json((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*(?:'[^'\\]*'|"[^"\\]*")\s*\])*)\s*\}\}$/;
const PATH_STEP = /\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\]/g;

/** The field path of an expression that is only `$json`, `$json.a.b` or `$json["a"]`; undefined otherwise. */
export function itemFieldPath(expression: string): string[] | undefined {
	const match = WHOLE_ITEM_FIELD.exec(expression);
	if (!match) return undefined;
	return [...match[1].matchAll(PATH_STEP)].map((step) => step[1] ?? step[2] ?? step[3]);
}

function fieldOf(json: IDataObject, keys: string[]): unknown {
	let value: unknown = json;
	for (const key of keys) {
		if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
		value = value[key];
	}
	return value;
}
