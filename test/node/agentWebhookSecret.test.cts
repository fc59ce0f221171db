import { runNode } from '../../harness/engine.cts';
import { loadOptions } from '../../harness/editorLists.cts';
import { findSecret, registerSecret } from '../../harness/secrets.cts';
import { HIDDEN, urlWithoutSecrets } from '../../nodes/VoiceAgentCrm/actions/agent/webhookUrl';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { instantWorkflow } from '../trigger/instantHarness.cts';

/**
 * An agent's webhook URL as the nodes show it: the Instant Trigger's delivery secret (`?secret=`
 * on agents, the URL Secret as the manual URL's last segment) never appears in Agent → Get, Get
 * Many, Create, Update or the agents picker. The secrets are registered with the harness's key
 * scan, so every run through the engine also fails if any form of them shows.
 */
describe("Agent outputs hide the secrets of an agent's webhook URL", () => {
	let sim: Simulator;
	const credentials = () => ({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });
	const MANUAL_SECRET = 'Zq8vLm3Rt7Xw2Nb5Kp9Yc4Hd';
	beforeAll(async () => {
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		registerSecret(MANUAL_SECRET);
	});
	afterAll(() => sim.stop());

	it("Get, Get Many, Update, Create and the agents picker show where an agent's events go, never the trigger's secret", async () => {
		const [onAgents, onManual] = [...sim.org.agents.values()];
		const workflow = instantWorkflow(sim, {
			events: ['callFinished'],
			registration: 'agents',
			agentIds: [onAgents.id],
		});
		const trigger = workflow.n8nProcess();
		await trigger.activate();
		const secret = workflow.secret();
		registerSecret(secret);
		const triggerUrl = trigger.url();
		expect(onAgents.webhook_url).toBe(`${triggerUrl}?secret=${secret}`);
		onManual.webhook_url = `${triggerUrl}/${MANUAL_SECRET}`;
		const shown = {
			[onAgents.id]: `${triggerUrl}?secret=${HIDDEN}`,
			[onManual.id]: `${triggerUrl}/${HIDDEN}`,
		};

		const run = (parameters: object) =>
			runNode({ credentials: credentials(), parameters: { resource: 'agent', ...parameters } });
		for (const agent of [onAgents, onManual]) {
			const got = await run({
				operation: 'get',
				agentId: { __rl: true, mode: 'id', value: agent.id },
			});
			expect(got.error).toBeUndefined();
			expect(got.items[0].json).toMatchObject({ id: agent.id, webhook_url: shown[agent.id] });
		}
		const many = await run({ operation: 'getAll', returnAll: true });
		expect(many.error).toBeUndefined();
		const urls = Object.fromEntries(many.items.map((i) => [i.json.id, i.json.webhook_url]));
		expect(urls).toMatchObject(shown);
		const updated = await run({
			operation: 'update',
			agentId: { __rl: true, mode: 'id', value: onManual.id },
			updateFields: { name: 'Renamed while listening' },
		});
		expect(updated.items[0].json).toMatchObject({ webhook_url: shown[onManual.id] });
		// the service keeps the real URL: only the output hides its secret
		expect(onManual.webhook_url).toBe(`${triggerUrl}/${MANUAL_SECRET}`);
		const created = await run({
			operation: 'create',
			name: 'Copied agent',
			voice_id: onAgents.voice_id,
			timezone: 'America/Chicago',
			additionalFields: { webhook_url: `${triggerUrl}/${MANUAL_SECRET}` },
		});
		expect(created.error).toBeUndefined();
		expect(created.items[0].json.webhook_url).toBe(shown[onManual.id]);

		// a URL copied from such an output would lose every event: refused before any request
		const sent = sim.requestsTo().length;
		const copied = await run({
			operation: 'update',
			agentId: { __rl: true, mode: 'id', value: onManual.id },
			updateFields: { webhook_url: shown[onAgents.id] },
		});
		expect(copied.error?.message).toMatch(/Webhook URL.*holds \*\*\* where the output/);
		expect(sim.requestsTo().length).toBe(sent);

		const picker = await loadOptions(credentials(), 'getAgents', {});
		const descriptions = picker.map((option) => option.description ?? '').join('\n');
		expect(findSecret(descriptions)).toBeUndefined();
		expect(descriptions).toContain(`Webhook URL now: ${shown[onAgents.id]}`);
		expect(descriptions).toContain(`Webhook URL now: ${shown[onManual.id]}`);
		await trigger.deactivate();
	});

	it.each([
		[
			'the trigger on agents',
			'https://n8n.example.test/webhook/h/call-events?secret=AbC123',
			'https://n8n.example.test/webhook/h/call-events?secret=***',
		],
		[
			'the manual URL Secret',
			'https://n8n.example.test/webhook/h/call-events/AbC123',
			'https://n8n.example.test/webhook/h/call-events/***',
		],
		[
			'a token of another service, other parameters kept as given',
			'https://hooks.example.test/in?team=a%20b&api_key=XYZ&Token=Q#top',
			'https://hooks.example.test/in?team=a%20b&api_key=***&Token=***#top',
		],
		[
			'a password before the host',
			'https://user:pa55@hooks.example.test/in',
			'https://user:***@hooks.example.test/in',
		],
		[
			'a URL without a secret',
			'https://hooks.example.test/in?page=2',
			'https://hooks.example.test/in?page=2',
		],
	])('%s', (_, url, shown) => {
		expect(urlWithoutSecrets(url)).toBe(shown);
	});
});
