import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { runNode } from '../../harness/engine.cts';

const AGENT_ID = '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d';

describe('Agent operations through the engine', () => {
	let sim: Simulator;
	let credentials: { apiKey: string; baseUrl: string };
	beforeAll(async () => {
		sim = await startSimulator();
		credentials = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
	});
	afterAll(() => sim.stop());

	const seededAgent = () => [...sim.org.agents.values()][0];

	it('Create sends every setting and the simulator holds the agent as version 1', async () => {
		const before = sim.org.agents.size;
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'create',
				name: 'Renewals',
				voice_id: 'voice-en-ava',
				timezone: 'America/Chicago',
				additionalFields: {
					person_name: 'Ava',
					language: 'es-419',
					webhook_url: 'https://hooks.example.test/agent',
					conversation_purpose: 'Renew the yearly plan',
					prompt: 'You are Ava. Be brief.',
					volume: 1.5,
					voice_speed: 1.1,
					voice_temperature: 0.7,
					ambient_sound: 'coffee-shop',
					ambient_sound_volume: 0.4,
					responsiveness: 0.9,
					interruption_sensitivity: 0.3,
					begin_message: 'Hi, this is Ava.',
					begin_message_delay_ms: 500,
					max_call_duration_ms: 300000,
					boosted_keywords: ['Acme', 'Renewal'],
					post_call_analysis_data: {
						entries: [{ name: 'renews', type: 'boolean', description: 'Whether they renew' }],
					},
					tools: {
						entries: [{ name: 'book_meeting', type: 'function', description: 'Books a meeting' }],
					},
				},
			},
		});
		expect(error).toBeUndefined();
		expect(sim.org.agents.size).toBe(before + 1);
		const stored = sim.org.agents.get(items[0].json.id as string)!;
		expect(stored).toMatchObject({
			name: 'Renewals',
			voice_id: 'voice-en-ava',
			timezone: 'America/Chicago',
			language: 'es-419',
			volume: 1.5,
			ambient_sound: 'coffee-shop',
			interruption_sensitivity: 0.3,
			boosted_keywords: ['Acme', 'Renewal'],
			post_call_analysis_data: [
				{ name: 'renews', type: 'boolean', description: 'Whether they renew' },
			],
			tools: [{ name: 'book_meeting', type: 'function', description: 'Books a meeting' }],
			version: 1,
		});
		expect(items[0].json).toMatchObject({ name: 'Renewals', id: stored.id });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const body = sim.requestsTo('POST', '/v1/agents').at(-1)!.body as Record<string, unknown>;
		expect(Object.keys(body).sort()).toEqual(
			[
				'name',
				'voice_id',
				'timezone',
				'person_name',
				'language',
				'webhook_url',
				'conversation_purpose',
				'prompt',
				'volume',
				'voice_speed',
				'voice_temperature',
				'ambient_sound',
				'ambient_sound_volume',
				'responsiveness',
				'interruption_sensitivity',
				'begin_message',
				'begin_message_delay_ms',
				'max_call_duration_ms',
				'boosted_keywords',
				'post_call_analysis_data',
				'tools',
			].sort(),
		);
	});

	it('Create takes the definition lists as JSON too', async () => {
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'create',
				name: 'Survey',
				voice_id: 'voice-es-lucia',
				timezone: 'Europe/Madrid',
				additionalFields: {
					post_call_analysis_data_json:
						'[{"name": "score", "type": "enum", "description": "Score", "choices": ["low", "high"]}]',
				},
			},
		});
		expect(error).toBeUndefined();
		expect(sim.org.agents.get(items[0].json.id as string)!.post_call_analysis_data).toEqual([
			{ name: 'score', type: 'enum', description: 'Score', choices: ['low', 'high'] },
		]);
	});

	it('Get returns the agent the simulator holds', async () => {
		const agent = seededAgent();
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'get',
				agentId: { __rl: true, mode: 'list', value: agent.id },
			},
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: agent.id,
			name: agent.name,
			voice_id: agent.voice_id,
			prompt: agent.prompt,
		});
	});

	it('Get Many returns one item per agent, and stops at the limit', async () => {
		const all = await runNode({
			credentials,
			parameters: { resource: 'agent', operation: 'getAll', returnAll: true },
		});
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.id)).toEqual([...sim.org.agents.keys()]);

		const sentBefore = sim.requestsTo('GET', '/v1/agents').length;
		const limited = await runNode({
			credentials,
			parameters: { resource: 'agent', operation: 'getAll', returnAll: false, limit: 2 },
		});
		expect(limited.items.map((i) => i.json.id)).toEqual([...sim.org.agents.keys()].slice(0, 2));
		const sent = sim.requestsTo('GET', '/v1/agents').slice(sentBefore);
		expect(sent).toHaveLength(1);
		expect(sent[0].query).toMatchObject({ limit: '2', offset: '0' });
	});

	it('Update changes only the given settings and publishes version 2', async () => {
		const { items: created } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'create',
				name: 'Follow-up',
				voice_id: 'voice-en-ava',
				timezone: 'America/New_York',
				additionalFields: { prompt: 'Old prompt', webhook_url: 'https://hooks.example.test/a' },
			},
		});
		const id = created[0].json.id as string;
		const { items, error } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'update',
				agentId: { __rl: true, mode: 'id', value: id },
				updateFields: { prompt: 'New prompt', volume: 0.8, webhook_url: '' },
			},
		});
		expect(error).toBeUndefined();
		const stored = sim.org.agents.get(id)!;
		expect(stored).toMatchObject({
			version: 2,
			prompt: 'New prompt',
			volume: 0.8,
			webhook_url: null,
			name: 'Follow-up',
			timezone: 'America/New_York',
		});
		expect(items[0].json).toMatchObject({ id, prompt: 'New prompt' });
		const sent = sim.requestsTo('PATCH', `/v1/agents/${id}`);
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual({ prompt: 'New prompt', volume: 0.8, webhook_url: null });
	});

	it('Update of an agent that does not exist fails the item with a 404 that says so', async () => {
		const { error } = await runNode({
			credentials,
			parameters: {
				resource: 'agent',
				operation: 'update',
				agentId: { __rl: true, mode: 'id', value: AGENT_ID },
				updateFields: { prompt: 'x' },
			},
		});
		expect(error?.message).toMatch(/Not found/);
		expect(JSON.stringify(error)).not.toContain(sim.apiKey);
	});
});
