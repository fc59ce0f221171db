import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/**
 * No default sends data the user did not choose: examples go in placeholders. Every write
 * operation of every resource (derived from the resources, so a new one is covered) is checked
 * two ways: its free-text defaults are empty, and run with its defaults alone, in each of its
 * modes, it sends nothing.
 */
const WRITES = RESOURCES.flatMap((resource) =>
	resource.operations
		.filter((operation) => ENDPOINTS[operation.endpoint].method !== 'GET')
		.map((operation) => ({
			name: `${resource.option.name} → ${operation.option.name}`,
			resource: resource.option.value,
			operation,
		})),
);

/**
 * Non-empty free-text defaults that are not data: each names why. Anything else non-empty fails.
 */
const NOT_DATA: Record<string, string> = {
	binaryPropertyName: "the name of the item's binary property to read, never sent",
	recordingBinaryProperty: "the name of the item's binary property to fill, never sent",
	// in entries the user adds, beside the value they type: the kind of that value
	'additionalData.entries.type': 'the kind of the value typed in the same entry',
	'components.component.parameters.parameter.type': 'the kind of the value typed in the same entry',
};

const isNotData = (path: string) =>
	Object.keys(NOT_DATA).some((name) => path === name || path.endsWith(`.${name}`));

/** Free text: what a user types. Options, booleans, numbers and colours are choices shown as chosen. */
const FREE_TEXT = new Set(['string', 'json']);

function isEmpty(value: unknown): boolean {
	if (value === '' || value === undefined || value === null) return true;
	if (typeof value === 'object') return Object.keys(value).length === 0;
	return typeof value === 'string' && /^\s*(\[\s*\]|\{\s*\})?\s*$/.test(value);
}

/** Every free-text field with a non-empty default, by its path inside collections and entries. */
function filledDefaults(properties: INodeProperties[], prefix = ''): string[] {
	const found: string[] = [];
	for (const property of properties) {
		const path = `${prefix}${property.name}`;
		if (FREE_TEXT.has(property.type) && !isEmpty(property.default) && !isNotData(path))
			found.push(`${path} = ${JSON.stringify(property.default)}`);
		if (property.type === 'collection')
			found.push(...filledDefaults((property.options ?? []) as INodeProperties[], `${path}.`));
		if (property.type === 'fixedCollection')
			for (const group of (property.options ?? []) as Array<{
				name: string;
				values: INodeProperties[];
			}>)
				found.push(...filledDefaults(group.values, `${path}.${group.name}.`));
	}
	return found;
}

/** Each mode of the operation: every value of each top-level choice, one at a time. */
function modesOf(fields: INodeProperties[]): INodeParameters[] {
	const modes: INodeParameters[] = [{}];
	for (const field of fields) {
		if (field.type === 'options')
			for (const option of (field.options ?? []) as Array<{ value: string }>)
				modes.push({ [field.name]: option.value });
		if (field.type === 'boolean') modes.push({ [field.name]: !field.default });
	}
	return modes;
}

describe('no default sends data the user did not choose', () => {
	it('finds the write operations of every resource', () => {
		expect(WRITES.length).toBeGreaterThanOrEqual(15);
		expect(WRITES.map((w) => w.name)).toContain('Event → Send');
	});

	it.each(WRITES)('$name: its free-text defaults are empty', ({ operation }) => {
		expect(filledDefaults(operation.fields)).toEqual([]);
	});

	describe('run with its defaults alone, in each mode, nothing is written', () => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await startSimulator();
		});
		afterAll(() => sim.stop());

		const run = (resource: string, operation: string, parameters: INodeParameters) =>
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { resource, operation, ...parameters },
				continueOnFail: true,
			});

		it('(the check sees a sample value that is sent: the old Event JSON default)', async () => {
			const before = sim.requests.length;
			await run('event', 'send', {
				eventInput: 'json',
				eventJson: '{"event_name": "Purchase Completed", "contact": {"email": "ana@example.com"}}',
			});
			expect(sim.requests.slice(before).filter((r) => r.method !== 'GET')).toHaveLength(1);
		});

		it.each(WRITES)('$name', async ({ resource, operation }) => {
			for (const mode of modesOf(operation.fields)) {
				const before = sim.requests.length;
				// n8n itself refuses to run a node whose required parameters are empty
				await run(resource, operation.option.value, mode).catch(() => undefined);
				const writes = sim.requests.slice(before).filter((r) => r.method !== 'GET');
				expect({
					mode,
					writes: writes.map((w) => `${w.method} ${w.path} ${JSON.stringify(w.body)}`),
				}).toEqual({
					mode,
					writes: [],
				});
			}
		});
	});
});
