import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { MAIN_ORG_IDS, startSimulator, type Simulator } from '../../simulator/index.cts';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';

/**
 * n8n 2.38's editor labels a resource-locator mode named `id` "By ID", whatever its displayName
 * says (`resourceLocator.mode.id`), so the modes whose value is not an ID have names of their own:
 * From Number's `number` ("By Number", a phone number) and Time Zone's `zone` ("By Name"). n8n
 * saves the mode's name with the value; a value saved under `id` before the rename still runs,
 * since n8n reads a value whose mode is no longer declared as it is.
 */

function locators(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		...(property.type === 'resourceLocator' ? [property] : []),
		...locators(
			((property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap(
				(option) => ('type' in option ? [option] : (option.values ?? [])),
			),
		),
	]);
}

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

describe('Resource-locator modes as the editor shows them', () => {
	const all = locators(new VoiceAgentCrm().description.properties);

	it('a mode named id is always an ID: From Number and Time Zone name theirs by what they take', () => {
		const typedModes = all.flatMap((property) =>
			(property.modes ?? []).filter((mode) => mode.type === 'string'),
		);
		for (const mode of typedModes.filter((m) => m.name === 'id'))
			expect(mode.displayName).toBe('By ID');
		const typedOf = (name: string) =>
			all.find((property) => property.name === name)!.modes!.find((m) => m.type === 'string');
		expect(typedOf('fromNumber')).toMatchObject({ name: 'number', displayName: 'By Number' });
		expect(typedOf('timezone')).toMatchObject({ name: 'zone', displayName: 'By Name' });
	});

	describe('saved workflows', () => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await startSimulator({ seed: true, limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		});
		afterAll(() => sim.stop());
		const run = (parameters: INodeParameters) =>
			runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters });
		const lastBody = (path: string) =>
			sim.requestsTo('POST', path).at(-1)!.body as Record<string, unknown>;

		it.each(['id', 'number'])(
			'Place AI Call sends From Number saved under the mode %s',
			async (mode) => {
				const { error } = await run({
					resource: 'call',
					operation: 'placePhoneCall',
					agentId: rl('id', MAIN_ORG_IDS.agents.salesFollowUp),
					fromNumber: rl(mode, '+1 415 555 0100'),
					toNumber: '+14155550199',
					fullName: 'Jane Doe',
				});
				expect(error).toBeUndefined();
				expect(lastBody('/v1/calls/single-phone-call').from_number).toBe('+14155550100');
			},
		);

		it.each(['id', 'zone'])(
			'Agent → Create sends the Time Zone saved under the mode %s',
			async (mode) => {
				const { error } = await run({
					resource: 'agent',
					operation: 'create',
					name: `Renewals ${mode}`,
					voice_id: 'voice-en-ava',
					timezone: rl(mode, 'Europe/Madrid'),
				});
				expect(error).toBeUndefined();
				expect(lastBody('/v1/agents').timezone).toBe('Europe/Madrid');
			},
		);
	});
});
