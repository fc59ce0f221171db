import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { endpointPath, type EndpointName } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** A write operation run over three items, and what the store holds of each item's write. */
interface WriteClass {
	label: string;
	endpoint: EndpointName;
	parameters(sim: Simulator): INodeParameters;
	items: IDataObject[];
	/** The IDs the store holds for this run's writes, by the item's value. */
	stored(sim: Simulator): Map<string, string>;
	/** What the error calls a record of this class. */
	record: string;
}

const PHONES = ['+14155550701', '+14155550702', '+14155550703'];
const items = PHONES.map((phone) => ({ phone }));

const CLASSES: WriteClass[] = [
	{
		label: 'Call → Place AI Call',
		endpoint: 'placePhoneCall',
		record: 'call',
		parameters: (sim) => ({
			resource: 'call',
			operation: 'placePhoneCall',
			agentId: byId([...sim.org.agents.values()][0].id),
			fromNumber: byId('+14155550100'),
			toNumber: '={{ $json.phone }}',
			fullName: 'Partial Run',
		}),
		items,
		stored: (sim) =>
			new Map(
				[...sim.org.calls.values()].filter((c) => PHONES.includes(c.to)).map((c) => [c.to, c.id]),
			),
	},
	{
		label: 'Contact → Create',
		endpoint: 'createContact',
		record: 'contact',
		parameters: () => ({
			resource: 'contact',
			operation: 'create',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { fullName: 'Partial Run' },
		}),
		items,
		stored: (sim) =>
			new Map(
				[...sim.org.contacts.values()]
					.filter((c) => PHONES.includes(c.phone_number))
					.map((c) => [c.phone_number, c.id]),
			),
	},
	{
		label: 'WhatsApp → Send Message',
		endpoint: 'sendMessage',
		record: 'WhatsApp message',
		parameters: (sim) => ({
			resource: 'whatsapp',
			operation: 'sendMessage',
			channelId: byId([...sim.org.channels.values()].find((c) => c.type === 'WABA')!.id),
			contactId: byId(
				[...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!.id,
			),
			content: '={{ "Partial run " + $json.phone }}',
		}),
		items,
		stored: (sim) =>
			new Map(
				[...sim.org.messages.values()]
					.filter((m) => String(m.content).startsWith('Partial run '))
					.map((m) => [String(m.content).replace('Partial run ', ''), m.id]),
			),
	},
];

describe('a run that stops part-way (Continue On Fail off) names the writes that went through and the items not sent', () => {
	let sim: Simulator;
	afterEach(() => sim.stop());

	it.each(CLASSES)(
		'$label: 3 items, the answer to the second is lost after it took effect',
		async (writeClass) => {
			sim = await startSimulator();
			// item 0 goes through; item 1's request takes effect but its answer is lost
			sim.faults.inject({
				method: 'POST',
				path: endpointPath(writeClass.endpoint),
				skip: 1,
				fault: { drop: true, afterHandling: true },
			});
			const { error } = await runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: writeClass.parameters(sim),
				items: writeClass.items,
			});
			const stored = writeClass.stored(sim);
			// the store: item 0's write and item 1's (whose answer was lost), never item 2's
			expect([...stored.keys()].sort()).toEqual([PHONES[0], PHONES[1]]);
			const said = `${error?.message} ${error?.description}`;
			expect(error?.message).toMatch(/may have been/);
			expect(said).toContain(`item 0 → ${writeClass.record} ${stored.get(PHONES[0])}`);
			expect(said).toMatch(/Not sent: item 2\./);
			// item 1's record is unknown to the node: the headline says to check for it
			expect(said).not.toContain(stored.get(PHONES[1])!);
		},
	);
});
