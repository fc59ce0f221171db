import { runNode } from '../../harness/engine.cts';
import { MAIN_ORG_IDS, startSimulator, type Simulator } from '../../simulator/index.cts';

/** Phone Number → Get Many and WhatsApp → Get Templates: the lists the pickers read, as operations. */
describe('Phone Number → Get Many and WhatsApp → Get Templates', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());
	const run = (parameters: Record<string, unknown>) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: parameters as never,
		});
	const waba = { __rl: true, mode: 'id', value: MAIN_ORG_IDS.channels.whatsappSales };

	it('lists every phone number, one item each, or up to the limit', async () => {
		const numbers = [...sim.org.phoneNumbers.values()];
		expect(numbers.length).toBeGreaterThan(1);
		const all = await run({ resource: 'phoneNumber', operation: 'getAll', returnAll: true });
		expect(all.items.map((i) => i.json.phone_number)).toEqual(numbers.map((n) => n.phone_number));
		const one = await run({
			resource: 'phoneNumber',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
		});
		expect(one.items).toHaveLength(1);
		expect(sim.requestsTo('GET', '/v1/phone-numbers')).toHaveLength(2);
	});

	it("lists a channel's templates, asking for that channel only", async () => {
		const { items, error } = await run({
			resource: 'whatsapp',
			operation: 'getTemplates',
			channelId: waba,
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.name)).toEqual(['appointment_reminder', 'welcome_offer']);
		expect(sim.requestsTo('GET', '/v1/waba/templates').at(-1)!.query).toEqual({
			channel_id: MAIN_ORG_IDS.channels.whatsappSales,
		});
	});

	it('refuses an empty channel before any request, naming the field', async () => {
		const before = sim.requestsTo('GET', '/v1/waba/templates').length;
		const { error } = await run({
			resource: 'whatsapp',
			operation: 'getTemplates',
			channelId: { __rl: true, mode: 'id', value: ' ' },
			returnAll: true,
		});
		expect(error?.message).toMatch(/Channel/);
		expect(sim.requestsTo('GET', '/v1/waba/templates')).toHaveLength(before);
	});
});
