import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';

import type { OperationKind, Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import { filled, type Samples } from '../helpers/samples.cts';

/**
 * Bad values generated for every parameter of every operation, from the node's own description:
 * each field's type picks its bad values, and every value reaches the node through an expression
 * (`={{ $json.value }}`), as it does in real workflows and because n8n's editor already refuses a
 * literal empty required field or an ID its locator pattern rejects.
 */

export const LONG_TEXT = 'x'.repeat(100_000);
/** Accents, emoji, right-to-left text, a direction override, a NUL, astral letters. */
export const UNICODE_TEXT = 'Zoë 🚀 مرحبا ‮ \u0000 𝓤𝓷𝓲 — 東京';

interface BadValue {
	/** What kind of bad value, for the test name. */
	kind: string;
	/** The item's `value`, read by the expression; `expression` replaces the expression instead. */
	value?: unknown;
	expression?: string;
}

const asText: BadValue[] = [
	{ kind: 'null', value: null },
	{ kind: 'a number', value: 42 },
	{ kind: 'an object', value: { a: 1 } },
	{ kind: 'blank', value: '   ' },
	{ kind: 'very long', value: LONG_TEXT },
	{ kind: 'unicode', value: UNICODE_TEXT },
];

const BAD_VALUES: Record<string, BadValue[]> = {
	string: asText,
	number: [
		{ kind: 'null', value: null },
		{ kind: 'text', value: 'abc' },
		{ kind: 'negative', value: -1 },
		{ kind: 'huge', value: 1e21 },
		{ kind: 'infinite', expression: '={{ 1 / 0 }}' },
		{ kind: 'an object', value: { a: 1 } },
	],
	boolean: [
		{ kind: 'null', value: null },
		{ kind: 'text', value: 'yes' },
		{ kind: 'a number', value: 2 },
	],
	options: [
		{ kind: 'null', value: null },
		{ kind: 'not an option', value: 'not-an-option' },
		{ kind: 'a number', value: 7 },
	],
	resourceLocator: [
		{ kind: 'null', value: null },
		{ kind: 'empty', value: '' },
		{ kind: 'malformed', value: 'not a valid id' },
		{ kind: 'a path', value: '../../v1/contacts' },
		{ kind: 'a number', value: 12345 },
		{ kind: 'very long', value: LONG_TEXT },
		{ kind: 'unicode', value: UNICODE_TEXT },
	],
	json: [
		{ kind: 'null', value: null },
		{ kind: 'not JSON', value: '{not json' },
		{ kind: 'a string', value: '"just text"' },
		{ kind: 'a number', value: 42 },
		{ kind: 'very long', value: `[${'"x",'.repeat(20_000)}"x"]` },
	],
	dateTime: [
		{ kind: 'null', value: null },
		{ kind: 'not a date', value: 'next tuesday-ish' },
		{ kind: 'out of range', value: '2024-13-45T25:61:00' },
		{ kind: 'a number', value: 1e15 },
	],
	color: [
		{ kind: 'null', value: null },
		{ kind: 'not a color', value: 'bluish' },
		{ kind: 'a number', value: 42 },
	],
	/** A whole collection or fixed collection that resolves to something that is not one. */
	collection: [
		{ kind: 'null', value: null },
		{ kind: 'text', value: 'oops' },
	],
};
BAD_VALUES.fixedCollection = BAD_VALUES.collection;

export interface BadInputCase {
	/** `resource.operation`. */
	operation: string;
	operationKind: OperationKind;
	/** The parameter's path, e.g. `additionalFields.schedule.at.dateTime`. */
	path: string;
	/** The names the user sees along that path; the error must name one of them. */
	labels: string[];
	kind: string;
	parameters: INodeParameters;
	items: IDataObject[];
}

const FROM_ITEM = '={{ $json.value }}';

/** A field is shown when the base parameters satisfy its displayOptions (resource and operation aside). */
function isShown(field: INodeProperties, base: INodeParameters): boolean {
	const show = field.displayOptions?.show ?? {};
	return Object.entries(show).every(
		([name, values]) => !(name in base) || (values as unknown[]).includes(base[name]),
	);
}

function valueOf(bad: BadValue, locator: boolean): unknown {
	const expression = bad.expression ?? FROM_ITEM;
	return locator ? { __rl: true, mode: 'id', value: expression } : expression;
}

function casesFor(
	operation: Pick<BadInputCase, 'operation' | 'operationKind'>,
	path: string[],
	labels: string[],
	type: string,
	place: (value: unknown) => INodeParameters,
): BadInputCase[] {
	return (BAD_VALUES[type] ?? []).map((bad) => ({
		...operation,
		path: path.join('.'),
		labels,
		kind: bad.kind,
		parameters: place(valueOf(bad, type === 'resourceLocator')),
		items: [{ value: bad.value as IDataObject[keyof IDataObject] }],
	}));
}

/** Bad values for one field, and for each field inside a collection or fixed collection. */
function fieldCases(
	operation: Pick<BadInputCase, 'operation' | 'operationKind'>,
	base: INodeParameters,
	field: INodeProperties,
): BadInputCase[] {
	const own = casesFor(
		operation,
		[field.name],
		[field.displayName],
		field.type,
		(value) => ({ ...base, [field.name]: value }) as INodeParameters,
	);
	if (field.type === 'collection') {
		const inner = (field.options ?? []) as INodeProperties[];
		return [
			...own,
			...inner.flatMap((sub) =>
				casesFor(
					operation,
					[field.name, sub.name],
					[field.displayName, sub.displayName],
					sub.type,
					(value) =>
						({
							...base,
							[field.name]: { ...(base[field.name] as IDataObject), [sub.name]: value },
						}) as INodeParameters,
				),
			),
		];
	}
	if (field.type === 'fixedCollection') {
		const groups = (field.options ?? []) as INodePropertyCollection[];
		const multiple = field.typeOptions?.multipleValues === true;
		return [
			...own,
			...groups.flatMap((group) =>
				(group.values ?? []).flatMap((sub) =>
					casesFor(
						operation,
						[field.name, group.name, sub.name],
						[field.displayName, group.displayName, sub.displayName],
						sub.type,
						(value) => {
							const entry = { [sub.name]: value };
							return {
								...base,
								[field.name]: { [group.name]: multiple ? [entry] : entry },
							} as INodeParameters;
						},
					),
				),
			),
		];
	}
	return own;
}

/**
 * Fields left out: the call wait of the Place operations waits for the call to end in real time
 * (up to its Max Wait), so its bad values need the fake clock of `harness/fakeTime.cts`.
 */
const WAITS_FOR_THE_CALL = new Set(['waitFor', 'waitOptions']);

/**
 * Every generated case of every operation, on the base of its own example (`Operation.example`):
 * an operation brings its cases with it.
 */
export function generateBadInputs(resources: Resource[], samples: Samples): BadInputCase[] {
	return resources.flatMap((resource) =>
		resource.operations.flatMap((op) => {
			const operation = {
				operation: `${resource.option.value}.${op.option.value}`,
				operationKind: op.kind,
			};
			const base = {
				resource: resource.option.value,
				operation: op.option.value,
				...(filled(op.example, samples) as INodeParameters),
			};
			return op.fields
				.filter(
					(field) =>
						field.type !== 'notice' && !WAITS_FOR_THE_CALL.has(field.name) && isShown(field, base),
				)
				.flatMap((field) => fieldCases(operation, base, field));
		}),
	);
}
