import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { ENDPOINTS, type EndpointName } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import type { FakeTime } from '../../harness/fakeTime.cts';
import type { Simulator } from '../../simulator/index.cts';
import { withSimulatorOnFakeTime } from '../setup/simulatorOnFakeTime.cts';
import { byId, eventsFromItems } from '../helpers/parameters.cts';
import { finishedCallsPoll } from '../helpers/polling.cts';

const ANY_ID = '[^/]+';

/** One operation of each class, and the endpoint its request goes to. */
interface KeyEchoCase {
	label: string;
	endpoint: EndpointName;
	parameters(sim: Simulator): INodeParameters;
	items?: IDataObject[];
}

const waba = (sim: Simulator) => [...sim.org.channels.values()].find((c) => c.type === 'WABA')!.id;
const maria = (sim: Simulator) =>
	[...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!.id;
const agent = (sim: Simulator) => [...sim.org.agents.values()][0].id;
const thread = (sim: Simulator) => [...sim.org.threads.values()][0].id;

const CASES: KeyEchoCase[] = [
	{
		label: 'read (Agent → Get)',
		endpoint: 'getAgent',
		parameters: (sim) => ({ resource: 'agent', operation: 'get', agentId: byId(agent(sim)) }),
	},
	{
		label: 'list (Tag → Get Many)',
		endpoint: 'listTags',
		parameters: () => ({ resource: 'tag', operation: 'getAll', returnAll: true }),
	},
	{
		label: 'update (Thread → Update)',
		endpoint: 'updateThread',
		parameters: (sim) => ({
			resource: 'thread',
			operation: 'update',
			threadId: byId(thread(sim)),
			status: 'closed',
		}),
	},
	{
		label: 'creation (Tag → Create)',
		endpoint: 'createTag',
		parameters: () => ({ resource: 'tag', operation: 'create', name: 'Key echo' }),
	},
	{
		label: 'call placement (Call → Place AI Call)',
		endpoint: 'placePhoneCall',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'placePhoneCall',
			agentId: byId(agent(sim)),
			fromNumber: byId('+14155550100'),
			toNumber: '+14155550777',
			fullName: 'Key Echo',
		}),
	},
	{
		label: 'WhatsApp send (Send Message)',
		endpoint: 'sendMessage',
		parameters: (sim) => ({
			resource: 'whatsapp',
			operation: 'sendMessage',
			channelId: byId(waba(sim)),
			contactId: byId(maria(sim)),
			content: 'Key echo',
		}),
	},
	{
		label: 'event batch (Event → Send)',
		endpoint: 'sendEvents',
		parameters: eventsFromItems,
		items: [
			{
				event_name: 'key_echo',
				event_id: 'key-echo-1',
				contact: { email: 'key-echo@example.com' },
			},
		],
	},
];

const pathOf = (endpoint: EndpointName) =>
	new RegExp(`^${ENDPOINTS[endpoint].path.replace(/\{\w+\}/g, ANY_ID)}$`);

/** Everything a run leaves that a user or a log could see, errors with their description, cause and context. */
function visible(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) => {
		if (!(v instanceof Error)) return v;
		const e = v as Error & {
			description?: unknown;
			cause?: unknown;
			context?: unknown;
			errorResponse?: unknown;
		};
		return {
			message: e.message,
			description: e.description,
			cause: e.cause,
			context: e.context,
			errorResponse: e.errorResponse,
		};
	});
}

describe('a service that quotes the API key in its error message: the key appears nowhere', () => {
	// on the fake clock: the repeats of a 500 and their backoff pass without waiting
	let time: FakeTime;
	let sim: Simulator;
	withSimulatorOnFakeTime((t, s) => {
		time = t;
		sim = s;
	});

	const statuses = [400, 401, 500];
	it.each(
		CASES.flatMap((c) =>
			statuses.map((status) => ({ ...c, status, name: `${c.label} × ${status}` })),
		),
	)('$name', async ({ endpoint, parameters, items, status }) => {
		const { method } = ENDPOINTS[endpoint];
		const echo = {
			status,
			body: { statusCode: status, message: 'Invalid API key' },
			quoteKey: true,
		};
		for (const continueOnFail of [false, true]) {
			sim.faults.clear();
			// every try, repeats included
			sim.faults.inject({ method, path: pathOf(endpoint), fault: echo, times: Infinity });
			const run = await time.runUntilSettled(
				runNode({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					parameters: parameters(sim),
					items,
					continueOnFail,
				}),
			);
			const seen = visible({
				items: run.items,
				error: run.error,
				resultData: run.run.data.resultData,
			});
			// the service did quote the key, and the node removed it
			expect(seen).toContain('[API key removed]');
			expect(seen).not.toContain(sim.apiKey);
		}
	});

	it('a poll of the trigger that meets the quoted key raises an error without it', async () => {
		const trigger = finishedCallsPoll(sim);
		sim.faults.inject({
			method: 'GET',
			path: pathOf('listCalls'),
			fault: { status: 401, body: { statusCode: 401, message: 'Invalid API key' }, quoteKey: true },
		});
		const failed = await time.runUntilSettled(trigger.poll()).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(visible(failed)).toContain('[API key removed]');
		expect(visible(failed)).not.toContain(sim.apiKey);
	});
});
