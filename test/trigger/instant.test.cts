import type { IDataObject } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { VoiceAgentCrmInstantTrigger } from '../../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node';

import { registerSecret } from '../../harness/secrets.cts';
import {
	driveCallToEnd,
	insertCall,
	planCalls,
	startSimulator,
	type Simulator,
} from '../../simulator/index.cts';
import { finishedCallsTrigger, instantWorkflow } from './instantHarness.cts';

/**
 * The Instant Trigger through n8n-core's HookContext (activation, deactivation) and WebhookContext
 * (one per delivery, the static data loaded and saved as n8n does), against the simulator. The
 * real-n8n proof (latency, executions, restarts, queue mode) is in scripts/n8n/instantTrigger.cts
 * and scripts/n8n/queueInstant.cts; several processes and the recovery in instant.recovery.test.cts.
 */
describe('Voice Agent CRM Instant Trigger', () => {
	let sim: Simulator;
	beforeAll(async () => {
		// budgets are not what these tests are about: the node's pacing would wait in real time
		sim = await startSimulator({ limits: { org: 1e6, listing: 1e6, ip: 1e6 } });
		registerSecret(sim.apiKey);
	});
	afterAll(() => sim.stop());

	const agents = () => [...sim.org.agents.values()];
	const ended = (callId: string) => ({ event: 'call_ended', call_id: callId, finished: true });
	const MANUAL = { registration: 'manual', urlSecret: 'k3Yp9vQm2Lx7Rt4Wz8Nb' };
	/** A manual-mode trigger, its one process, deliveries reaching it as n8n routes them. */
	function manualTrigger(parameters: IDataObject = {}) {
		const process = instantWorkflow(sim, {
			events: ['callFinished'],
			...MANUAL,
			...parameters,
		}).n8nProcess();
		return { ...process, deliver: (body: IDataObject) => process.deliver(body, {}) };
	}
	const itemsOf = async (delivery: Promise<{ items: Array<{ json: IDataObject }> }>) =>
		(await delivery).items.map((i) => i.json);

	it("activation points the chosen agents at the trigger's URL with its secret; deactivation puts each agent's previous URL back", async () => {
		const [a, b] = agents();
		a.webhook_url = 'https://crm.example.test/previous';
		b.webhook_url = null;
		const workflow = finishedCallsTrigger(sim, [a.id, b.id]);
		const process = workflow.n8nProcess();
		await process.activate();
		const secret = workflow.secret();
		expect(secret).toMatch(/^[A-Za-z0-9]{40}$/);
		const registered = `${process.url()}?secret=${secret}`;
		expect([a.webhook_url, b.webhook_url]).toEqual([registered, registered]);
		const patches = sim.requestsTo('PATCH').length;
		await workflow.n8nProcess().activate(); // a restart: already pointing here, nothing changes
		expect(sim.requestsTo('PATCH')).toHaveLength(patches);
		await process.deactivate();
		expect([a.webhook_url, b.webhook_url]).toEqual(['https://crm.example.test/previous', null]);
		await process.activate(); // the secret survives deactivation and activation
		expect(workflow.secret()).toBe(secret);
		expect(a.webhook_url).toBe(registered);
		await process.deactivate();
	});

	it('an agent still on an older URL of this trigger (no secret) is moved to the new one, and its previous URL is kept', async () => {
		const [a] = agents();
		const workflow = finishedCallsTrigger(sim, [a.id]);
		const process = workflow.n8nProcess();
		a.webhook_url = process.url();
		await process.activate();
		expect(a.webhook_url).toBe(`${process.url()}?secret=${workflow.secret()}`);
		await process.deactivate();
		expect(a.webhook_url).toBeNull();
	});

	it('leaves an agent alone on deactivation when somebody re-pointed it meanwhile', async () => {
		const [a] = agents();
		a.webhook_url = null;
		const process = finishedCallsTrigger(sim, [a.id]).n8nProcess();
		await process.activate();
		a.webhook_url = 'https://crm.example.test/chosen-later';
		await process.deactivate();
		expect(a.webhook_url).toBe('https://crm.example.test/chosen-later');
	});

	it('a flood of forged deliveries is answered 401 before any request: the API budget is untouched', async () => {
		const [a] = agents();
		const workflow = finishedCallsTrigger(sim, [a.id]);
		const process = workflow.n8nProcess();
		await process.activate();
		const call = insertCall(sim, { phase: 'ended', agent_id: a.id });
		const before = sim.requestsTo().length;
		const secret = workflow.secret();
		const forged = [
			{},
			{ secret: '' },
			{ secret: 'guessed' },
			{ secret: secret.slice(0, -1) },
			{ secret: `${secret}x` },
			{ secret: secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase() },
		];
		const answers = await Promise.all(
			Array.from({ length: 120 }, (_, n) =>
				process.deliver(ended(call.id), forged[n % forged.length]),
			),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(120).fill(401));
		expect(answers.flatMap((a) => a.items)).toEqual([]);
		expect(sim.requestsTo().length - before).toBe(0);
		// the real URL still works: the call's read, and the first delivery's sweep for lost ones
		expect(await itemsOf(process.deliver(ended(call.id)))).toEqual([
			expect.objectContaining({ call_id: call.id, event: 'callFinished' }),
		]);
		expect(
			sim
				.requestsTo()
				.slice(before)
				.map((r) => `${r.method} ${r.path}`),
		).toEqual([`GET /v1/calls/${call.id}`, 'GET /v1/calls']);
		await process.deactivate();
	});

	it('manual mode: the URL Secret is the last part of the URL to copy; without one every delivery is refused', async () => {
		const trigger = manualTrigger();
		expect(trigger.url()).toMatch(/\/webhook\/hook-1\/call-events\/k3Yp9vQm2Lx7Rt4Wz8Nb$/);
		const unset = manualTrigger({ urlSecret: '' });
		expect(unset.url()).toMatch(/\/webhook\/hook-1\/call-events$/);
		const call = insertCall(sim, { phase: 'ended' });
		const before = sim.requestsTo().length;
		expect((await unset.deliver(ended(call.id))).status).toBe(401);
		expect(sim.requestsTo().length).toBe(before);
	});

	it('manual mode: a URL Secret with a character that breaks the URL (#, ?, %, /, a space…) is refused at activation and flagged in the form; letters, digits, - and _ work', async () => {
		const description = new VoiceAgentCrmInstantTrigger().description;
		const notice = description.properties.find((p) => p.name === 'urlSecretNotice')!;
		const flagged = (urlSecret: string) =>
			NodeHelpers.displayParameter(
				{ registration: 'manual', urlSecret },
				notice,
				null,
				description,
			);
		for (const urlSecret of ['ab#cd', 'ab?cd', 'ab%41cd', 'ab/cd', 'ab cd', '#', 'ab=cd', 'abcé']) {
			const trigger = manualTrigger({ urlSecret });
			await expect(trigger.activate()).rejects.toThrow(
				'The URL Secret may hold only letters, digits, "-" and "_"',
			);
			expect(flagged(urlSecret)).toBe(true);
		}
		const good = 'Ab9_-k3Yp9vQm2Lx7Rt4Wz8Nb';
		const trigger = manualTrigger({ urlSecret: good });
		await trigger.activate();
		expect(trigger.url()).toMatch(new RegExp(`/call-events/${good}$`));
		expect(flagged(good)).toBe(false);
		// an expression is checked once resolved, at activation
		expect(flagged('={{ $vars.secret }}')).toBe(false);
		const call = insertCall(sim, { phase: 'ended' });
		expect((await itemsOf(trigger.deliver(ended(call.id)))).map((j) => j.call_id)).toEqual([
			call.id,
		]);
	});

	it('a call of an agent not chosen emits nothing, whatever the filters', async () => {
		const [a, b] = agents();
		const workflow = instantWorkflow(sim, {
			events: ['callStarted', 'callFinished'],
			registration: 'agents',
			agentIds: [a.id],
			// hidden with registration on agents; an old workflow may still carry it
			agentId: { __rl: true, mode: 'id', value: b.id },
		});
		const process = workflow.n8nProcess();
		await process.activate();
		const ofB = insertCall(sim, { phase: 'ended', agent_id: b.id });
		expect(await itemsOf(process.deliver({ event: 'call_started', call_id: ofB.id }))).toEqual([]);
		expect(await itemsOf(process.deliver(ended(ofB.id)))).toEqual([]);
		const ofA = insertCall(sim, { phase: 'ended', agent_id: a.id });
		expect((await itemsOf(process.deliver(ended(ofA.id)))).map((j) => j.call_id)).toEqual([ofA.id]);
		await process.deactivate();
	});

	it('emits a finished call once, however often and in whatever order its events come, two at once included', async () => {
		const trigger = manualTrigger();
		const call = insertCall(sim, { phase: 'ended' });
		expect(await itemsOf(trigger.deliver(ended(call.id)))).toEqual([
			expect.objectContaining({
				call_id: call.id,
				event: 'callFinished',
				emission_key: `callFinished:${call.id}`,
				call_status: 'completed',
			}),
		]);
		expect(await itemsOf(trigger.deliver(ended(call.id)))).toEqual([]);
		expect(await itemsOf(trigger.deliver({ event: 'transcript_ready', call_id: call.id }))).toEqual(
			[],
		);
		const other = insertCall(sim, { phase: 'ended' });
		const together = await Promise.all([
			trigger.deliver(ended(other.id)),
			trigger.deliver(ended(other.id)),
			trigger.deliver({ event: 'transcript_ready', call_id: other.id }),
		]);
		expect(together.flatMap((d) => d.items)).toHaveLength(1);
	});

	it('never trusts the body: an unknown or missing call ID, or a live call said to have ended, emits nothing', async () => {
		const trigger = manualTrigger();
		const live = insertCall(sim, { phase: 'in_progress' });
		expect(await itemsOf(trigger.deliver(ended('00000000-0000-4000-8000-000000000000')))).toEqual(
			[],
		);
		expect(await itemsOf(trigger.deliver(ended('not-a-call')))).toEqual([]);
		expect(await itemsOf(trigger.deliver({ event: 'call_ended' }))).toEqual([]);
		expect(await itemsOf(trigger.deliver({ ...ended(live.id), call_status: 'ended' }))).toEqual([]);
		const otherOrg = insertCall(sim, { phase: 'ended' }, sim.otherOrg);
		expect(await itemsOf(trigger.deliver(ended(otherOrg.id)))).toEqual([]);
	});

	it('an authentic delivery whose body is not a JSON object (null, an array, text, a number, none) is answered 400 with the reason, without an error or a request', async () => {
		const trigger = manualTrigger();
		insertCall(sim, { phase: 'ended' });
		const before = sim.requestsTo().length;
		for (const body of [null, [], ['call_ended'], 'call_ended', 42, undefined]) {
			const answer = await trigger.deliver(body as never);
			expect(answer).toEqual({ status: 400, items: [] });
		}
		expect(sim.requestsTo().length).toBe(before);
		// on agents, a forged one is refused first, as forged
		const [a] = agents();
		const onAgents = finishedCallsTrigger(sim, [a.id]).n8nProcess();
		await onAgents.activate();
		expect((await onAgents.deliver(null as never, { secret: 'guessed' })).status).toBe(401);
		expect((await onAgents.deliver(null as never)).status).toBe(400);
		await onAgents.deactivate();
	});

	it('without Wait for Analysis, a call emitted before its analysis says which fields come later', async () => {
		const trigger = manualTrigger();
		const call = insertCall(sim, { phase: 'ended', call_analysis: null, chat_history: null });
		const [item] = await itemsOf(trigger.deliver(ended(call.id)));
		expect(item.analysis_note).toMatch(
			/^call_analysis, chat_history and call_record .* Wait for Analysis/,
		);
		const analysed = insertCall(sim, { phase: 'ended' });
		const [complete] = await itemsOf(trigger.deliver(ended(analysed.id)));
		expect(complete).not.toHaveProperty('analysis_note');
	});

	it('Call Started and Call Finished of a real call, with Wait for Analysis: each emitted by the event that makes it true', async () => {
		const [agent] = agents();
		const workflow = instantWorkflow(sim, {
			events: ['callStarted', 'callFinished'],
			registration: 'agents',
			agentIds: [agent.id],
			waitForAnalysis: true,
			downloadRecording: true,
		});
		const process = workflow.n8nProcess();
		await process.activate();
		planCalls(sim).next({ result: 'answered' });
		const placed = await fetch(`${sim.baseUrl}/v1/calls/single-phone-call`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
			body: JSON.stringify({
				agent_id: agent.id,
				from_number: '+14155550100',
				to_number: '+14155550142',
				full_name: 'Ann Instant',
			}),
		});
		const callId = ((await placed.json()) as { data: { call_id: string } }).data.call_id;
		await driveCallToEnd(sim, callId);
		// the simulator posted its events to the URL set on the agent; they reach the node in order
		const posted = sim.webhooks.filter((w) => w.payload.call_id === callId);
		expect(new Set(posted.map((w) => w.url))).toEqual(new Set([agent.webhook_url]));
		expect(posted.map((w) => w.payload.event)).toEqual([
			'call_started',
			'call_ended',
			'transcript_ready',
		]);
		const emitted: IDataObject[] = [];
		for (const { payload } of posted) {
			const delivery = await process.deliver(payload as IDataObject);
			emitted.push(
				...delivery.items.map((i) => ({
					...i.json,
					by: String(payload.event),
					binary: i.binary as IDataObject,
				})),
			);
		}
		expect(emitted.map((j) => [j.event, j.by])).toEqual([
			['callStarted', 'call_started'],
			['callFinished', 'transcript_ready'],
		]);
		expect(emitted[1]).toMatchObject({ call_id: callId, analysis_ready: true });
		expect((emitted[1].binary as IDataObject).recording).toMatchObject({
			mimeType: 'audio/wav',
			fileName: `call-${callId}.wav`,
		});
		await process.deactivate();
	});

	it('with Wait for Analysis, a call-ended event before the analysis emits nothing; the transcript-ready event emits the call', async () => {
		const trigger = manualTrigger({ waitForAnalysis: true });
		const call = insertCall(sim, { phase: 'ended', call_analysis: null, chat_history: null });
		expect(await itemsOf(trigger.deliver(ended(call.id)))).toEqual([]);
		call.call_analysis = { summary: 'Spoke', sentiment: 'positive' };
		call.chat_history = [{ role: 'agent', content: 'Hello' }] as never;
		expect(await itemsOf(trigger.deliver({ event: 'transcript_ready', call_id: call.id }))).toEqual(
			[expect.objectContaining({ call_id: call.id, analysis_ready: true })],
		);
		// a call nobody picked up has no transcript to wait for: its call-ended event emits it
		const unanswered = insertCall(sim, { phase: 'no_answer' });
		expect(await itemsOf(trigger.deliver(ended(unanswered.id)))).toEqual([
			expect.objectContaining({ call_id: unanswered.id, event: 'callFinished' }),
		]);
	});
});
