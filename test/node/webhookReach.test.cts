import { runNode } from '../../harness/engine.cts';
import { MAIN_ORG_IDS, startSimulator, type Simulator } from '../../simulator/index.cts';
import { isLocalHost } from '../../nodes/VoiceAgentCrm/shared/webhookReach';
import { instantWorkflow } from '../trigger/instantHarness.cts';

/**
 * n8n builds its webhook URLs from its Webhook URL setting (N8N_WEBHOOK_URL), and without it from
 * its own host: `http://localhost:5678/`, which is what the engine here gives (harness/engine.cts).
 * A service on the internet can never call such an address, so the Instant Trigger refuses to
 * point agents at it and Free the Worker refuses to wait on it, before any request, when the
 * Base URL is a public one. The simulator on loopback with n8n on loopback still works (the
 * Instant Trigger's and Free the Worker's own tests run that way).
 */

/** A public Base URL no request can reach: a request sent there would fail as "did not answer". */
const PUBLIC_BASE_URL = 'https://api.voice-agent-crm.invalid';
const ADVICE = /N8N_WEBHOOK_URL/;

describe('A webhook URL the service cannot reach is refused before it is used', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: true, limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
	});
	afterAll(() => sim.stop());

	it.each([
		['localhost', true],
		['127.0.0.1', true],
		['10.1.2.3', true],
		['172.20.0.5', true],
		['192.168.1.10', true],
		['169.254.1.1', true],
		['[::1]', true],
		['[fd12::1]', true],
		['n8n', true],
		['n8n.local', true],
		['n8n.internal', true],
		['n8n.example.com', false],
		['8.8.8.8', false],
		['172.32.0.1', false],
		['[2001:db8::1]', false],
	])('%s is local: %s', (host, local) => {
		expect(isLocalHost(host)).toBe(local);
	});

	it('Instant Trigger: activation with agents chosen names the setting and leaves every agent as it was', async () => {
		const agent = [...sim.org.agents.values()][0];
		agent.webhook_url = 'https://crm.example.test/previous';
		const publicService = Object.create(sim, { baseUrl: { value: PUBLIC_BASE_URL } }) as Simulator;
		const workflow = instantWorkflow(publicService, {
			events: ['callFinished'],
			registration: 'agents',
			agentIds: [agent.id],
		});
		const error = await workflow
			.n8nProcess()
			.activate()
			.then(
				() => undefined,
				(e: Error) => e,
			);
		expect(error?.message).toBe(
			"n8n's webhook address http://localhost:5678 cannot be reached by the service at api.voice-agent-crm.invalid, so the agents' call events would never arrive",
		);
		expect((error as { description?: string }).description).toMatch(ADVICE);
		// the URL's secret is not in the words
		expect(`${error?.message} ${(error as { description?: string }).description}`).not.toContain(
			workflow.secret() || 'no secret',
		);
		expect(workflow.staticData().registered).toBeUndefined();
		expect(agent.webhook_url).toBe('https://crm.example.test/previous');
	});

	it('Instant Trigger: the simulator on loopback with n8n on loopback is pointed at as before', async () => {
		const agent = [...sim.org.agents.values()][1];
		const workflow = instantWorkflow(sim, {
			events: ['callFinished'],
			registration: 'agents',
			agentIds: [agent.id],
		});
		await workflow.n8nProcess().activate();
		expect(agent.webhook_url).toMatch(/^http:\/\/localhost:5678\/webhook\/.*\?secret=/);
		await workflow.n8nProcess().deactivate();
	});

	it('Place AI Call with Free the Worker: refused before any call is placed, naming the setting', async () => {
		const { error, items } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: PUBLIC_BASE_URL },
			parameters: {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: { __rl: true, mode: 'id', value: MAIN_ORG_IDS.agents.salesFollowUp },
				fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
				toNumber: '+14155550199',
				fullName: 'Jane Doe',
				// the public Base URL does not resolve here: no do-not-call look-up can be sent to it
				additionalFields: { doNotCall: { lists: { organizationList: false } } },
				waitFor: 'ended',
				waitOptions: { resumeByWebhook: true, maxWaitMinutes: 3 },
			},
		});
		expect(items).toEqual([]);
		expect(error?.message).toBe(
			"n8n's webhook address http://localhost:5678 cannot be reached by the service at api.voice-agent-crm.invalid, so the call's events would never arrive",
		);
		expect(error?.description).toMatch(ADVICE);
	});
});
