import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { sendFields } from '../../nodes/VoiceAgentCrm/actions/event/send.fields';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

describe('Event → Send: what the editor tells', () => {
	it("Map Automatically's texts name the fields as the node reads them", () => {
		const input = sendFields.find((field) => field.name === 'eventInput')!;
		const automatic = (input.options as INodePropertyOptions[]).find(
			(option) => option.value === 'autoMapInputData',
		)!;
		for (const name of ['event_id', 'contact_id', 'external_id', 'session_id'])
			expect(automatic.description).toContain(name);
		const texts = sendFields
			.filter((field) => field.displayOptions?.show?.eventInput?.includes('autoMapInputData'))
			.flatMap((field) => [
				field.displayName,
				field.description ?? '',
				...((field.options ?? []) as Array<{ description?: string }>).map((o) => o.description),
			]);
		expect([automatic.description, ...texts].join(' ')).not.toMatch(/[a-z]_ID\b/);
	});

	describe('a run where no row was accepted shows an execution hint', () => {
		let sim: Simulator;
		beforeAll(async () => {
			sim = await startSimulator({ limits: { events: 10_000, ip: 10_000 } });
		});
		afterAll(() => sim.stop());
		const run = (items: IDataObject[]) =>
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: { resource: 'event', operation: 'send', eventInput: 'autoMapInputData' },
				items,
			});
		const hintsOf = (execution: Awaited<ReturnType<typeof run>>['run']) =>
			execution.data.resultData.runData['Voice Agent CRM'][0].hints ?? [];

		it('with how many rows were invalid and the first reason; nothing is sent', async () => {
			const before = sim.requestsTo('POST', '/v1/events').length;
			const {
				run: execution,
				error,
				items,
			} = await run([
				{ email: 'no-name@example.com' },
				{ event_name: 'cs_reserved', email: 'x@example.com' },
				{ event_name: 'Signup' },
			]);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.status)).toEqual(['invalid', 'invalid', 'rejected']);
			expect(hintsOf(execution)).toEqual([
				{
					message:
						'No event was accepted: 2 invalid, 1 rejected. First, item 0: event_name is required and must be a string',
					type: 'warning',
					location: 'outputPane',
				},
			]);
			expect(sim.requestsTo('POST', '/v1/events').length).toBe(before);
		});

		it('none when one row was accepted', async () => {
			const { run: execution, items } = await run([
				{ email: 'no-name@example.com' },
				{ event_name: 'Signup', email: 'hint-ok@example.com' },
			]);
			expect(items.map((item) => item.json.status)).toEqual(['invalid', 'created']);
			expect(hintsOf(execution)).toEqual([]);
		});
	});
});
