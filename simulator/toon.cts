/**
 * A small encoder of TOON (Token-Oriented Object Notation), the "token-efficient text encoding"
 * the reference offers as `transcript_format=toon`. It covers what transcripts hold: arrays of
 * objects are written as a table (`[N]{role,content}:` then one comma-separated row per item)
 * when every item has the same primitive fields, and as `- ` list items otherwise (entries that
 * carry `words`). Strings are quoted only when they would be ambiguous.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const INDENT = '  ';

export function encodeToon(value: unknown): string {
	return encode(undefined, value as Json, 0).join('\n');
}

function encode(key: string | undefined, value: Json, depth: number): string[] {
	const pad = INDENT.repeat(depth);
	const label = key === undefined ? '' : encodeKey(key);
	if (Array.isArray(value)) return encodeArray(label, value, depth);
	if (isObject(value)) {
		const fields = Object.entries(value).flatMap(([k, v]) =>
			encode(k, v, key === undefined ? depth : depth + 1),
		);
		return key === undefined ? fields : [`${pad}${label}:`, ...fields];
	}
	return [`${pad}${label}: ${primitive(value)}`];
}

function encodeArray(label: string, items: Json[], depth: number): string[] {
	const pad = INDENT.repeat(depth);
	const header = `${pad}${label}[${items.length}]`;
	if (items.length === 0) return [`${header}:`];
	if (items.every(isPrimitive)) return [`${header}: ${items.map(primitive).join(',')}`];
	const fields = tableFields(items);
	if (fields) {
		const rows = items.map(
			(item) =>
				pad + INDENT + fields.map((f) => primitive((item as Record<string, Json>)[f])).join(','),
		);
		return [`${header}{${fields.map(encodeKey).join(',')}}:`, ...rows];
	}
	return [`${header}:`, ...items.flatMap((item) => listItem(item, depth + 1))];
}

/** A `- ` item; an object's fields continue under its first one, aligned after the dash. */
function listItem(item: Json, depth: number): string[] {
	const pad = INDENT.repeat(depth);
	if (isPrimitive(item)) return [`${pad}- ${primitive(item)}`];
	const lines = Array.isArray(item)
		? encodeArray('', item, depth + 1)
		: encode(undefined, item, depth + 1);
	if (!lines.length) return [`${pad}-`];
	return [`${pad}- ${lines[0].trimStart()}`, ...lines.slice(1)];
}

function tableFields(items: Json[]): string[] | undefined {
	if (!items.every(isObject)) return undefined;
	const fields = Object.keys(items[0] as object);
	const uniform = items.every((item) => {
		const keys = Object.keys(item as object);
		return (
			keys.length === fields.length &&
			fields.every((f) => f in (item as object) && isPrimitive((item as Record<string, Json>)[f]))
		);
	});
	return uniform ? fields : undefined;
}

function isObject(value: Json): value is { [key: string]: Json } {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: Json): value is null | boolean | number | string {
	return value === null || typeof value !== 'object';
}

function encodeKey(key: string): string {
	return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) ? key : quote(key);
}

function primitive(value: Json | undefined): string {
	if (value === null || value === undefined) return 'null';
	if (typeof value !== 'string') return String(value);
	const ambiguous =
		value === '' ||
		value !== value.trim() ||
		/[,:"\\\n\r\t[\]{}]/.test(value) ||
		value.startsWith('- ') ||
		/^(true|false|null|-?\d+(\.\d+)?(e[+-]?\d+)?)$/i.test(value);
	return ambiguous ? quote(value) : value;
}

function quote(value: string): string {
	return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}
