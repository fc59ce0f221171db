import { startSimulator, type Simulator } from '../index.cts';
import { api } from '../client.cts';

const validAgent = { name: 'Renewals', voice_id: 'voice-en-ava', timezone: 'America/New_York' };

const anError = { statusCode: 400, message: expect.any(String) };

describe('Agents', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	describe('POST /v1/agents', () => {
		it('creates an agent, publishes version 1 and answers 201 {statusCode, data: Agent}', async () => {
			const res = await api(sim, 'POST', '/v1/agents', {
				body: {
					...validAgent,
					person_name: 'Ava',
					prompt: 'Be brief.',
					volume: 1.2,
					interruption_sensitivity: 0.4,
					ambient_sound: 'call-center',
					boosted_keywords: ['renewal'],
					post_call_analysis_data: [{ name: 'renews', type: 'boolean', description: 'Will renew' }],
					tools: [{ name: 'book', type: 'function', description: 'Books a slot' }],
				},
			});
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				statusCode: 201,
				data: expect.objectContaining({
					id: expect.any(String),
					name: 'Renewals',
					language: 'en-US',
					timezone: 'America/New_York',
					voice_id: 'voice-en-ava',
					volume: 1.2,
					ambient_sound: 'call-center',
					boosted_keywords: ['renewal'],
					start_speaker: expect.any(String),
					webhook_url: null,
					created_at: expect.any(String),
					updated_at: expect.any(String),
					version: 1,
				}),
			});
			expect(sim.org.agents.has(res.body.data.id)).toBe(true);
		});

		it.each([
			['name', { voice_id: 'voice-en-ava', timezone: 'UTC' }],
			['voice_id', { name: 'x', timezone: 'UTC' }],
			['timezone', { name: 'x', voice_id: 'voice-en-ava' }],
		])('400 without the required %s', async (field, body) => {
			const res = await api(sim, 'POST', '/v1/agents', { body });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError);
			expect(res.body.message).toContain(field);
		});

		it.each([
			['voice_id', { voice_id: 'agent-not-a-voice' }],
			['timezone', { timezone: 'Mars/Olympus_Mons' }],
			['prompt', { prompt: 'x'.repeat(28_001) }],
			['volume', { volume: 0.4 }],
			['volume', { volume: 2.1 }],
			['volume', { volume: '1' }],
			['interruption_sensitivity', { interruption_sensitivity: 1.5 }],
			['ambient_sound', { ambient_sound: 'rain' }],
			['voice_speed', { voice_speed: 'fast' }],
			['max_call_duration_ms', { max_call_duration_ms: -1 }],
			['boosted_keywords', { boosted_keywords: 'a,b' }],
			['post_call_analysis_data', { post_call_analysis_data: ['summary'] }],
			['tools', { tools: {} }],
			['webhook_url', { webhook_url: 'ftp://example.test/hook' }],
			['colour', { colour: 'blue' }],
		])('400 naming %s when it is wrong', async (field, change) => {
			const res = await api(sim, 'POST', '/v1/agents', { body: { ...validAgent, ...change } });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(anError);
			expect(res.body.message).toContain(field);
		});

		it('accepts a prompt of exactly 28,000 characters and volume at both bounds', async () => {
			for (const change of [
				{ prompt: 'x'.repeat(28_000) },
				{ volume: 0.5 },
				{ volume: 2 },
				{ interruption_sensitivity: 0 },
			]) {
				expect(
					(await api(sim, 'POST', '/v1/agents', { body: { ...validAgent, ...change } })).status,
				).toBe(201);
			}
		});
	});

	describe('GET /v1/agents/{agentId}', () => {
		it('returns the published configuration in {statusCode, data}', async () => {
			const [agent] = sim.org.agents.values();
			const res = await api(sim, 'GET', `/v1/agents/${agent.id}`);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				statusCode: 200,
				data: expect.objectContaining({ id: agent.id, name: agent.name, language: agent.language }),
			});
		});

		it('400 with {error, message} for an id that is not a UUID', async () => {
			const res = await api(sim, 'GET', '/v1/agents/not-a-uuid');
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ error: 400, message: expect.any(String) });
		});

		it('404 for an unknown agent and for an agent of another organization', async () => {
			const unknown = await api(sim, 'GET', '/v1/agents/00000000-0000-4000-8000-000000000000');
			expect(unknown.status).toBe(404);
			expect(unknown.body).toEqual({ statusCode: 404, message: expect.any(String) });
			const [foreign] = sim.otherOrg.agents.values();
			expect((await api(sim, 'GET', `/v1/agents/${foreign.id}`)).status).toBe(404);
		});

		it('does not shadow the voices catalog', async () => {
			expect((await api(sim, 'GET', '/v1/agents/voices')).body.data[0]).toHaveProperty('accent');
		});
	});

	describe('GET /v1/agents (inferred)', () => {
		it('lists the organization agents in {statusCode, data} with limit and offset', async () => {
			const all = await api(sim, 'GET', '/v1/agents');
			expect(all.status).toBe(200);
			expect(all.body).toEqual({ statusCode: 200, data: expect.any(Array) });
			expect(all.body.data).toHaveLength(sim.org.agents.size);
			const foreignIds = [...sim.otherOrg.agents.keys()];
			expect(all.body.data.some((a: { id: string }) => foreignIds.includes(a.id))).toBe(false);
			const page = await api(sim, 'GET', '/v1/agents', { query: { limit: 1, offset: 1 } });
			expect(page.body.data).toEqual([all.body.data[1]]);
		});

		it('400 for a limit outside 1 to 1000 or a negative offset', async () => {
			for (const query of [
				{ limit: 0 },
				{ limit: 1001 },
				{ offset: -1 },
				{ limit: 'ten' },
			] as Array<Record<string, string | number>>) {
				const res = await api(sim, 'GET', '/v1/agents', { query });
				expect(res.status).toBe(400);
				expect(res.body).toEqual(anError);
			}
		});
	});

	describe('PATCH /v1/agents/{agentId} (inferred)', () => {
		it('changes only the supplied fields and publishes the next version', async () => {
			const created = (await api(sim, 'POST', '/v1/agents', { body: validAgent })).body.data;
			await sim.clock.advance(1_000);
			const res = await api(sim, 'PATCH', `/v1/agents/${created.id}`, {
				body: { prompt: 'New prompt', volume: 0.8 },
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				statusCode: 200,
				data: expect.objectContaining({
					id: created.id,
					name: 'Renewals',
					prompt: 'New prompt',
					volume: 0.8,
					version: 2,
				}),
			});
			expect(res.body.data.updated_at > created.updated_at).toBe(true);
			const read = await api(sim, 'GET', `/v1/agents/${created.id}`);
			expect(read.body.data).toMatchObject({ prompt: 'New prompt', version: 2 });
		});

		it('applies the create validation to the supplied fields', async () => {
			const [agent] = sim.org.agents.values();
			for (const body of [{ volume: 3 }, { timezone: 'Nowhere/City' }, { name: '' }, {}]) {
				const res = await api(sim, 'PATCH', `/v1/agents/${agent.id}`, { body });
				expect(res.status).toBe(400);
				expect(res.body).toEqual(anError);
			}
		});

		it('400 for a malformed id, 404 for an unknown or foreign agent', async () => {
			expect((await api(sim, 'PATCH', '/v1/agents/nope', { body: { name: 'x' } })).status).toBe(
				400,
			);
			const [foreign] = sim.otherOrg.agents.values();
			const res = await api(sim, 'PATCH', `/v1/agents/${foreign.id}`, { body: { name: 'x' } });
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ statusCode: 404, message: expect.any(String) });
		});
	});
});
