/**
 * Call → Cancel Campaign from a second workflow, in the real n8n (issue 40): a Run Campaign that
 * holds its worker (4 people, 2 live calls at most) is under way, its first two calls talking, when
 * another workflow's Cancel Campaign (by Workflow and Node) halts it. Afterwards: no call placed
 * after the cancel, and the campaign's execution ends by itself, without waiting for the talking
 * calls, with one item per person, all `halted`, the two on the phone naming their calls.
 *
 * It runs on the campaign part's simulator, whose clock is real time (campaignRestart.cts), after
 * that part: the campaign schedules its calls on n8n's clock.
 */
import { randomUUID } from 'node:crypto';

import { planCalls, type Simulator } from '../../simulator/index.cts';
import { campaignPeople, SHORT_CALL } from './campaign.cts';
import { CAMPAIGN_CREDENTIAL } from './campaignRestart.cts';
import { check, log, type N8nInstance, waitFor } from './lib.cts';
import { ACTION_NODE_TYPE, FINISHED_STATUSES } from './shared.cts';
import { createWorkflow, oneItemPerPerson, savedExecution, TRIGGER } from './stop.cts';
import { executionDetail } from './trigger.cts';

const CAMPAIGN_NODE = 'Run Campaign';
const PEOPLE = campaignPeople(101, 4);
/** Long enough for the cancel to come, and the campaign to end, while both first calls talk. */
const TALK_MS = 120_000;

export async function runCancelFromAnotherWorkflow(
	n8n: N8nInstance,
	sim: Simulator,
): Promise<void> {
	const agentId = [...sim.org.agents.keys()][0];
	const numbers = PEOPLE.map((person) => person.to);
	const ownCalls = () =>
		[...sim.org.calls.values()].filter((call) => numbers.includes(call.contact.phone_number));
	planCalls(sim)
		.next({ ...SHORT_CALL, talkMs: TALK_MS })
		.next({ ...SHORT_CALL, talkMs: TALK_MS });

	const campaignId = await createWorkflow(n8n, 'Cancel test: the campaign', [
		...oneItemPerPerson(PEOPLE),
		voiceAgentCrmNode(CAMPAIGN_NODE, {
			operation: 'runCampaign',
			agentId: { __rl: true, mode: 'id', value: agentId },
			fromNumber: {
				__rl: true,
				mode: 'id',
				value: [...sim.org.phoneNumbers.values()][0].phone_number,
			},
			toNumber: '={{ $json.to }}',
			fullName: '={{ $json.name }}',
			maxLiveCalls: 2,
			callDays: [1, 2, 3, 4, 5, 6, 7],
			callFrom: '00:00',
			callUntil: '24:00',
			personTimeZone: 'UTC',
			redialOn: [],
		}),
	]);
	const cancelId = await createWorkflow(n8n, 'Cancel test: Cancel Campaign', [
		voiceAgentCrmNode('Cancel Campaign', {
			operation: 'cancelCampaign',
			agentId: { __rl: true, mode: 'id', value: agentId },
			campaignBy: 'node',
			workflowId: campaignId,
			nodeName: CAMPAIGN_NODE,
		}),
	]);

	const campaignRun = await run(n8n, campaignId);
	await waitFor(
		() => ownCalls().length === 2 && ownCalls().every((call) => call.phase === 'in_progress'),
		120_000,
		'the campaign to have its first two calls talking',
	);
	const cancelRun = await run(n8n, cancelId);
	const cancel = await savedExecution(n8n, cancelRun, (e) => FINISHED_STATUSES.has(e.status));
	const canceledAt = Date.now();
	const answer = (
		await executionDetail(n8n, { id: cancelRun, status: '', mode: '', workflowId: '' })
	).items['Cancel Campaign']?.[0]?.json;
	check(
		cancel.status === 'success' &&
			answer?.calls_canceled === 0 &&
			answer.calls_rang === 2 &&
			answer.people_never_called === 2,
		'Cancel test: Cancel Campaign in a second workflow answered: 0 calls to cancel, 2 rang, 2 people never called',
		() => `${cancel.status} ${JSON.stringify(answer)}`,
	);

	// a halted campaign ends without waiting for its live calls: its next look sees the halt
	const ended = await savedExecution(
		n8n,
		campaignRun,
		(e) => FINISHED_STATUSES.has(e.status),
		120_000,
	);
	const items =
		(await executionDetail(n8n, { id: campaignRun, status: '', mode: '', workflowId: '' })).items[
			CAMPAIGN_NODE
		] ?? [];
	const talking = ownCalls().map((call) => call.id);
	log(
		`Cancel test: the campaign ended "${ended.status}" ${Math.round((Date.now() - canceledAt) / 1000)} s after the cancel: ${items.map((item) => `${String(item.json.campaign_status)} ${String(item.json.call_id)}`).join(', ')}`,
	);
	check(
		ended.status === 'success' &&
			items.length === PEOPLE.length &&
			items.every(
				(item) =>
					item.json.campaign_status === 'halted' &&
					/^Cancel Campaign halted/.test(String(item.json.reason)),
			) &&
			items.every(
				(item) =>
					item.json.call_id ===
					(ownCalls().find((call) => call.contact.phone_number === item.json.to_number)?.id ??
						null),
			) &&
			items.filter((item) => item.json.call_id !== null).length === 2,
		'Cancel test: the running campaign ended by itself with one item per person, all halted, the 2 people on the phone with their calls',
		() => `${ended.status} ${JSON.stringify(items.map((item) => item.json))}`,
	);
	check(
		talking.length === 2 && ownCalls().every((call) => Date.parse(call.created_at) < canceledAt),
		`Cancel test: the simulator's call log holds the 2 calls placed before the cancel and none after (${talking.length} calls)`,
	);
}

/** Runs a workflow from its Manual Trigger as the editor's button does; the execution's ID. */
async function run(n8n: N8nInstance, workflowId: string): Promise<string> {
	const { data } = await n8n.restOk<{ data: { executionId: string } }>(
		'POST',
		`/workflows/${workflowId}/run`,
		{ triggerToStartFrom: { name: TRIGGER } },
	);
	return data.executionId;
}

function voiceAgentCrmNode(name: string, parameters: Record<string, unknown>): object {
	return {
		parameters: { resource: 'call', ...parameters },
		id: randomUUID(),
		name,
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [440, 0],
		credentials: { voiceAgentCrmApi: CAMPAIGN_CREDENTIAL },
	};
}
