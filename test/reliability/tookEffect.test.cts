import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { ENDPOINTS, type EndpointName } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { insertCall, startSimulator, type Fault, type Simulator } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Writes that are safe to repeat, each with the endpoint it answers through. */
interface RepeatableWrite {
	label: string;
	endpoint: EndpointName;
	parameters(sim: Simulator): INodeParameters;
	items?: IDataObject[];
}

const WRITES: RepeatableWrite[] = [
	{
		label: 'Call → Stop',
		endpoint: 'stopCall',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'stop',
			callId: insertCall(sim, { phase: 'in_progress' }).id,
		}),
	},
	{
		label: 'Call → Cancel Scheduled Call',
		endpoint: 'cancelCall',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'cancel',
			callId: insertCall(sim, { phase: 'scheduled' }).id,
		}),
	},
	{
		label: 'Thread → Update',
		endpoint: 'updateThread',
		parameters: (sim) => ({
			resource: 'thread',
			operation: 'update',
			threadId: byId([...sim.org.threads.values()][0].id),
			status: 'closed',
		}),
	},
	{
		label: 'Contact → Update',
		endpoint: 'updateContact',
		parameters: (sim) => ({
			resource: 'contact',
			operation: 'update',
			contactId: byId([...sim.org.contacts.values()][0].id),
			updateFields: { fullName: 'Took Effect' },
		}),
	},
	{
		label: 'Event → Send (events with IDs)',
		endpoint: 'sendEvents',
		parameters: () => ({
			resource: 'event',
			operation: 'send',
			eventInput: 'json',
			eventJson: '={{ $json }}',
		}),
		items: [
			{
				event_name: 'took_effect',
				event_id: 'took-effect-1',
				contact: { email: 'te@example.com' },
			},
		],
	},
];

const pathOf = (endpoint: EndpointName) =>
	new RegExp(`^${ENDPOINTS[endpoint].path.replace(/\{\w+\}/g, '[^/]+')}$`);

/**
 * A write that is safe to repeat, answered 200 with a body the node cannot read after the service
 * carried it out: the headline says it took effect, not "a wrong Base URL". A web page is still
 * the wrong address.
 */
describe('a repeatable write answered 2xx with an unreadable body says it took effect', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const answerWith = async (write: RepeatableWrite, fault: Fault) => {
		const parameters = write.parameters(sim);
		sim.faults.inject({
			method: ENDPOINTS[write.endpoint].method,
			path: pathOf(write.endpoint),
			fault,
		});
		return await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			items: write.items,
		});
	};

	describe.each(WRITES)('$label', (write) => {
		it.each<[string, Fault]>([
			[
				'an unexpected JSON shape',
				{ status: 200, body: { unexpected: true }, afterHandling: true },
			],
			[
				'a JSON body cut short',
				{
					status: 200,
					contentType: 'application/json',
					rawBody: '{"statusCode":200,"data":{"id',
					afterHandling: true,
				},
			],
		])('%s: "the request took effect"', async (_label, fault) => {
			const { error } = await answerWith(write, fault);
			expect(error?.message).toContain(
				'the request took effect, but its answer could not be read. You can run the item again',
			);
			expect(error?.message).not.toMatch(/wrong Base URL/);
			expect(error?.description).not.toMatch(/may have taken effect/);
		});
	});

	it('a web page answering 200 to a write is still the wrong Base URL', async () => {
		const { error } = await answerWith(WRITES[2], {
			status: 200,
			contentType: 'text/html',
			rawBody: '<html><body>Welcome</body></html>',
		});
		expect(error?.message).toMatch(/This may be a wrong Base URL/);
	});
});
