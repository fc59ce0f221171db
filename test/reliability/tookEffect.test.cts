import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { ENDPOINTS, type EndpointName } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { onFakeTime } from '../../harness/fakeTime.cts';
import {
	insertCall,
	startSimulator,
	storedEvents,
	type Fault,
	type Simulator,
} from '../../simulator/index.cts';
import { FAULTS } from './matrix.cts';
import { byId, eventsFromItems } from '../helpers/parameters.cts';

const CALL_ID = '7f3c2a10-0000-4000-8000-000000000e01';

/** Writes that are safe to repeat, each with the endpoint it answers through. */
interface RepeatableWrite {
	label: string;
	endpoint: EndpointName;
	parameters(sim: Simulator): INodeParameters;
	items?: IDataObject[];
	/** Whether the write took effect, read from the simulator's store after the run. */
	tookEffect(sim: Simulator): boolean;
	/** Stop and Cancel read the call's status when the answer is not the API's, and output what it shows. */
	provesByRead?: RegExp;
}

const WRITES: RepeatableWrite[] = [
	{
		label: 'Call → Stop',
		endpoint: 'stopCall',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'stop',
			callId: insertCall(sim, { phase: 'in_progress', id: CALL_ID }).id,
		}),
		tookEffect: (sim) => sim.org.calls.get(CALL_ID)?.disconnection_reason === 'user_hangup',
		provesByRead:
			/"stopped":true.*"stopped_how":"The stop request was answered with HTTP 2xx but not with the API's answer/,
	},
	{
		label: 'Call → Cancel Scheduled Call',
		endpoint: 'cancelCall',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'cancel',
			callId: insertCall(sim, { phase: 'scheduled', id: CALL_ID }).id,
		}),
		tookEffect: (sim) => sim.org.calls.get(CALL_ID)?.phase === 'canceled',
		provesByRead:
			/"canceled":true.*"canceled_how":"The cancel request was answered with HTTP 2xx but not with the API's answer/,
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
		tookEffect: (sim) => [...sim.org.threads.values()][0].status === 'closed',
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
		tookEffect: (sim) => [...sim.org.contacts.values()][0].full_name === 'Took Effect',
	},
	{
		label: 'Event → Send (events with IDs)',
		endpoint: 'sendEvents',
		parameters: eventsFromItems,
		items: [
			{
				event_name: 'took_effect',
				event_id: 'took-effect-1',
				contact: { email: 'te@example.com' },
			},
		],
		tookEffect: (sim) => storedEvents(sim.org, { event_name: 'took_effect' }).length === 1,
	},
];

const pathOf = (endpoint: EndpointName) =>
	new RegExp(`^${ENDPOINTS[endpoint].path.replace(/\{\w+\}/g, '[^/]+')}$`);

/** The API's own answer of the endpoint's shape, cut short: the API answered, so the write took effect. */
const API_OWN_CUT: Record<string, string> = {
	envelope: '{"statusCode":200,"data":{"id',
	bare: '{"id":"5f0c',
};

const matrixFault = (key: string) => FAULTS.find((fault) => fault.key === key)!.fault;

/** 2xx answers that are not the API's own: another server's JSON, plain text. */
const NOT_THE_API: Array<[string, Fault]> = [
	["the matrix's 200 with an unexpected shape", matrixFault('unexpectedShape')],
	['other JSON', { status: 200, body: { unexpected: true } }],
	['plain text', { status: 200, contentType: 'text/plain', rawBody: 'OK' }],
];

const UNKNOWN =
	/^Whether the request took effect is unknown: .*not the API's own answer.*Running the item again is safe/;

/**
 * "Took effect" only with proof (issue 31, point 5), both ways, for every write that is safe to
 * repeat: a 2xx that is the API's own answer, cut or changed, says it took effect; a 2xx from
 * another server (JSON of another shape, plain text) says the outcome is unknown, whether the
 * request reached the API or not, unless a read proves it (Stop, Cancel); and a write whose every
 * try lost its answer says it may have taken effect and that repeating it is safe.
 */
describe('"took effect" only with proof', () => {
	let sim: Simulator;
	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim.stop());

	const answerWith = async (write: RepeatableWrite, fault: Fault, times = 1) => {
		const parameters = write.parameters(sim);
		sim.faults.inject({
			method: ENDPOINTS[write.endpoint].method,
			path: pathOf(write.endpoint),
			fault,
			times,
		});
		const run = await onFakeTime(() =>
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters,
				items: write.items,
			}),
		);
		const sent = sim.requestsTo(ENDPOINTS[write.endpoint].method, pathOf(write.endpoint)).length;
		return { ...run, sent, tookEffect: write.tookEffect(sim) };
	};

	describe.each(WRITES)('$label', (write) => {
		it('the API\'s own answer cut short, after it took effect: "the request took effect"', async () => {
			const { error, tookEffect, sent } = await answerWith(write, {
				status: 200,
				contentType: 'application/json',
				rawBody: API_OWN_CUT[ENDPOINTS[write.endpoint].answer],
				afterHandling: true,
			});
			expect(tookEffect).toBe(true);
			expect(sent).toBe(1);
			expect(error?.message).toContain(
				'the request took effect, but its answer could not be read. You can run the item again',
			);
			expect(error?.description).not.toMatch(/may have taken effect/);
		});

		it.each(NOT_THE_API)(
			'%s, the API never reached: not "took effect"; unknown, or disproved by a read',
			async (_label, fault) => {
				const { error, tookEffect, sent } = await answerWith(write, {
					...fault,
					afterHandling: false,
				});
				expect(tookEffect).toBe(false);
				expect(sent).toBe(1);
				expect(error?.message).not.toMatch(/took effect, but|wrong Base URL \(a web page/);
				expect(error?.message).toMatch(UNKNOWN);
			},
		);

		it.each(NOT_THE_API)(
			'%s after the API carried it out: proved by a read (Stop, Cancel), else unknown',
			async (_label, fault) => {
				const { error, items, tookEffect } = await answerWith(write, {
					...fault,
					afterHandling: true,
				});
				expect(tookEffect).toBe(true);
				if (write.provesByRead) {
					expect(error).toBeUndefined();
					expect(JSON.stringify(items[0].json)).toMatch(write.provesByRead);
				} else {
					expect(error?.message).toMatch(UNKNOWN);
				}
			},
		);

		it('every try lost its answer after it took effect: "may have taken effect", safe to repeat', async () => {
			const { error, tookEffect, sent } = await answerWith(write, matrixFault('drop'), 3);
			expect(tookEffect).toBe(true);
			expect(sent).toBe(3);
			expect(error?.message).toMatch(
				/^The (request may have taken effect|events may have been stored): the connection was dropped after it was sent on its last try, and no try got a clear answer\. Running the item again is safe/,
			);
			expect(error?.message).not.toMatch(/Check the Base URL|service failed/);
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
