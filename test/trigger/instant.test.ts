import { HookContext, WebhookContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters, IWebhookData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, CREDENTIAL_REF } from '../../harness/engine';
import { INSTANT_TRIGGER_NODE, TestNodeTypes } from '../../harness/nodeTypes';
import { assertNoSecret, registerSecret } from '../../harness/secrets';
import {
	driveCallToEnd,
	insertCall,
	planCalls,
	startSimulator,
	type Simulator,
} from '../../simulator';

/**
 * The Instant Trigger through n8n-core's HookContext (activation, deactivation) and WebhookContext
 * (one context per delivery, as n8n builds them), against the simulator. The real-n8n proof of
 * the same (latency, executions, REST deactivation) is in scripts/n8n/instantTrigger.ts.
 */
describe('Voice Agent CRM Instant Trigger', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
		registerSecret(sim.apiKey);
	});
	afterAll(() => sim.stop());

	function instantTrigger(parameters: INodeParameters) {
		const nodeTypes = new TestNodeTypes();
		const nodeType = nodeTypes.getByNameAndVersion(INSTANT_TRIGGER_NODE);
		const credentials = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
		const node: INode = {
			id: 'instant-1',
			name: 'Instant',
			type: INSTANT_TRIGGER_NODE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
			credentials: CREDENTIAL_REF,
			webhookId: 'hook-1',
		};
		const workflow = new Workflow({
			id: `wf-${Math.random()}`,
			name: 'instant',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: {},
		});
		const additionalData = additionalDataFor(credentials);
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: 'hook-1/call-events',
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: 'hook-1',
		};
		const hook = () =>
			new HookContext(workflow, node, additionalData, 'trigger', 'activate', webhookData);
		const methods = nodeType.webhookMethods!.default!;
		return {
			url: () => hook().getNodeWebhookUrl('default')!,
			activate: async () => {
				if (!(await methods.checkExists.call(hook()))) await methods.create.call(hook());
			},
			deactivate: () => methods.delete.call(hook()),
			staticData: () => workflow.getStaticData('node', node),
			async deliver(body: IDataObject) {
				const data = {
					...additionalData,
					httpRequest: { body, headers: {}, query: {}, params: {} },
				} as never;
				const context = new WebhookContext(workflow, node, data, 'trigger', webhookData, [], null);
				const result = await nodeType.webhook!.call(context);
				assertNoSecret('The webhook answer', result);
				return result.workflowData?.[0] ?? [];
			},
		};
	}

	const agents = () => [...sim.org.agents.values()];
	const ended = (callId: string) => ({ event: 'call_ended', call_id: callId, finished: true });

	it("activation points the chosen agents at the trigger; deactivation puts each agent's previous URL back", async () => {
		const [a, b] = agents();
		a.webhook_url = 'https://crm.example.test/previous';
		b.webhook_url = null;
		const trigger = instantTrigger({
			events: ['callFinished'],
			registration: 'agents',
			agentIds: [a.id, b.id],
		});
		await trigger.activate();
		expect([a.webhook_url, b.webhook_url]).toEqual([trigger.url(), trigger.url()]);
		const patches = sim.requestsTo('PATCH').length;
		await trigger.activate(); // already pointing here: nothing changes
		expect(sim.requestsTo('PATCH')).toHaveLength(patches);
		await trigger.deactivate();
		expect([a.webhook_url, b.webhook_url]).toEqual(['https://crm.example.test/previous', null]);
	});

	it('leaves an agent alone on deactivation when somebody re-pointed it meanwhile', async () => {
		const [a] = agents();
		a.webhook_url = null;
		const trigger = instantTrigger({
			events: ['callFinished'],
			registration: 'agents',
			agentIds: [a.id],
		});
		await trigger.activate();
		a.webhook_url = 'https://crm.example.test/chosen-later';
		await trigger.deactivate();
		expect(a.webhook_url).toBe('https://crm.example.test/chosen-later');
	});

	it('emits a finished call once, however often and in whatever order its events come, two at once included', async () => {
		const trigger = instantTrigger({ events: ['callFinished'], registration: 'manual' });
		const call = insertCall(sim, { phase: 'ended' });
		const first = await trigger.deliver(ended(call.id));
		expect(first.map((i) => i.json)).toEqual([
			expect.objectContaining({ id: call.id, event: 'callFinished', call_status: 'completed' }),
		]);
		expect(await trigger.deliver(ended(call.id))).toEqual([]);
		expect(await trigger.deliver({ event: 'transcript_ready', call_id: call.id })).toEqual([]);
		const other = insertCall(sim, { phase: 'ended' });
		const together = await Promise.all([
			trigger.deliver(ended(other.id)),
			trigger.deliver({ event: 'transcript_ready', call_id: other.id }),
		]);
		expect(together.flat()).toHaveLength(1);
		expect(Object.keys(trigger.staticData().emitted as IDataObject)).toEqual([
			`callFinished:${call.id}`,
			`callFinished:${other.id}`,
		]);
	});

	it('never trusts the body: a forged, unknown or missing call ID, or a live call said to have ended, emits nothing', async () => {
		const trigger = instantTrigger({ events: ['callFinished'], registration: 'manual' });
		const live = insertCall(sim, { phase: 'in_progress' });
		expect(await trigger.deliver(ended('00000000-0000-4000-8000-000000000000'))).toEqual([]);
		expect(await trigger.deliver(ended('not-a-call'))).toEqual([]);
		expect(await trigger.deliver({ event: 'call_ended' })).toEqual([]);
		expect(await trigger.deliver({ ...ended(live.id), call_status: 'ended' })).toEqual([]);
		const otherOrg = insertCall(sim, { phase: 'ended' }, sim.otherOrg);
		expect(await trigger.deliver(ended(otherOrg.id))).toEqual([]);
	});

	it('Call Started and Call Finished of a real call, with Wait for Analysis: emitted on the events that make them true', async () => {
		const [agent] = agents();
		const trigger = instantTrigger({
			events: ['callStarted', 'callFinished'],
			registration: 'agents',
			agentIds: [agent.id],
			waitForAnalysis: true,
			downloadRecording: true,
		});
		await trigger.activate();
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
		// the simulator posted its events to the trigger's URL; replay them in order, as n8n would receive them
		const events = sim.webhooks
			.filter((w) => w.payload.call_id === callId && w.url === trigger.url())
			.map((w) => w.payload);
		expect(events.map((e) => e.event)).toEqual(['call_started', 'call_ended', 'transcript_ready']);
		const emitted = [];
		for (const event of events) emitted.push(...(await trigger.deliver(event as IDataObject)));
		// read after the call ended: started and finished both show in the record by then, the analysis too
		expect(emitted.map((i) => i.json.event)).toEqual(['callStarted', 'callFinished']);
		const finished = emitted[1];
		expect(finished.json).toMatchObject({ id: callId, analysis_ready: true });
		expect(finished.binary?.recording).toMatchObject({
			mimeType: 'audio/wav',
			fileName: `call-${callId}.wav`,
		});
		await trigger.deactivate();
	});

	it('with Wait for Analysis, a call-ended event before the analysis emits nothing; the transcript-ready event emits the call', async () => {
		const trigger = instantTrigger({
			events: ['callFinished'],
			registration: 'manual',
			waitForAnalysis: true,
		});
		const call = insertCall(sim, { phase: 'ended', call_analysis: null, chat_history: null });
		expect(await trigger.deliver(ended(call.id))).toEqual([]);
		call.call_analysis = { summary: 'Spoke', sentiment: 'positive' };
		call.chat_history = [{ role: 'agent', content: 'Hello' }] as never;
		const items = await trigger.deliver({ event: 'transcript_ready', call_id: call.id });
		expect(items.map((i) => i.json)).toEqual([
			expect.objectContaining({ id: call.id, analysis_ready: true }),
		]);
	});
});
