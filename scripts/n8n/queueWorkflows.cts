/**
 * The workflows `test:n8n:queue` runs on the cluster. Executions start the way they do in
 * production queue mode: a Webhook node answered by the webhook process, the work done on a worker.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './lib.cts';
import { ACTION_NODE_TYPE, CREDENTIAL_ID, CREDENTIAL_NAME, TRIGGER_NODE_TYPE } from './shared.cts';

export const AGENT_ID = 'a9e47000-0000-4000-8000-000000000002';
export const FROM_NUMBER = '+14155550100';

export const PLACE_NODE = 'Place AI Call';
export const SEND_NODE = 'Send Events';
export const TRIGGER_NODE = 'Voice Agent CRM Trigger';
export const FIND_NODE = 'Calls of the Failed Execution';

export const WORKFLOW_IDS = {
	polling: 'QueuePlacePoll01',
	freeing: 'QueuePlaceFree01',
	events: 'QueueEventSync01',
	trigger: 'QueueTrigger0001',
	findCalls: 'QueueFindCalls01',
} as const;

export const WEBHOOK_PATHS = {
	polling: 'queue-place-polling',
	freeing: 'queue-place-freeing',
	events: 'queue-event-sync',
	findCalls: 'queue-find-calls',
} as const;

const credentials = { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

type Node = Record<string, unknown> & { name: string };

/** Node `n` of workflow `w`: a UUID, as n8n gives nodes. */
const nodeId = (w: number, n: number) =>
	`6f1e2d3c-4b5a-4978-8a6b-${String(w * 100 + n).padStart(12, '0')}`;

function webhookNode(
	webhookPath: string,
	webhookId: string,
	w: number,
	respond: Record<string, unknown> = { responseMode: 'onReceived' },
): Node {
	return {
		parameters: { httpMethod: 'POST', path: webhookPath, ...respond, options: {} },
		id: nodeId(w, 1),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
	};
}

/** A workflow of nodes connected one after the other. */
function chain(id: string, name: string, nodes: Node[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 1; i < nodes.length; i++)
		connections[nodes[i - 1].name] = { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] };
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/** Webhook body `{to, name}` → Place AI Call, waiting for the analysis by polling or freeing the worker. */
export function placeWorkflow(kind: 'polling' | 'freeing'): Record<string, unknown> {
	const w = kind === 'polling' ? 1 : 2;
	const webhookId = `6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0${w}`;
	return chain(WORKFLOW_IDS[kind], `test:n8n:queue place and wait (${kind})`, [
		webhookNode(WEBHOOK_PATHS[kind], webhookId, w),
		{
			parameters: {
				resource: 'call',
				operation: 'placePhoneCall',
				agentId: { __rl: true, mode: 'list', value: AGENT_ID },
				fromNumber: { __rl: true, mode: 'list', value: FROM_NUMBER },
				toNumber: '={{ $json.body.to }}',
				fullName: '={{ $json.body.name }}',
				// this part measures the wait's requests across workers (at most 1% answered 429); the
				// do-not-call lookup (a listing each, 40 at once against 20 a minute) is measured in the
				// engine tests (test/node/doNotCall.test.cts)
				additionalFields: { doNotCall: { lists: { organizationList: false } } },
				waitFor: 'analysis',
				waitOptions: kind === 'freeing' ? { resumeByWebhook: true } : {},
			},
			id: nodeId(w, 2),
			name: PLACE_NODE,
			type: ACTION_NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			credentials,
		},
	]);
}

/** Webhook body `{batch}` → 1,000 CRM rows → one item per row → Send Events (summary only). */
export function eventsWorkflow(rows: number): Record<string, unknown> {
	const webhookId = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a03';
	const rowsExpression = `={ "rows": {{ Array.from({ length: ${rows} }, (_, i) => ({ row: $json.body.batch + '-' + i, email: 'queue-' + $json.body.batch + '-' + i + '@example.test', amount: i % 100 })) }} }`;
	return chain(WORKFLOW_IDS.events, 'test:n8n:queue event sync', [
		webhookNode(WEBHOOK_PATHS.events, webhookId, 3),
		{
			parameters: { mode: 'raw', jsonOutput: rowsExpression, options: {} },
			id: nodeId(3, 2),
			name: 'CRM Rows',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
		},
		{
			parameters: { fieldToSplitOut: 'rows', options: {} },
			id: nodeId(3, 3),
			name: 'One Item per Row',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [440, 0],
		},
		{
			parameters: {
				resource: 'event',
				operation: 'send',
				eventName: 'Queue Sync Row',
				contactEmail: '={{ $json.email }}',
				params: { param: [{ key: 'row', value: '={{ $json.row }}' }] },
				additionalFields: { value: '={{ $json.amount }}', currency: 'EUR' },
				options: { output: 'summary' },
			},
			id: nodeId(3, 4),
			name: SEND_NODE,
			type: ACTION_NODE_TYPE,
			typeVersion: 1,
			position: [660, 0],
			credentials,
		},
	]);
}

/** The trigger on main, every minute (the shortest a user can choose), for finished calls. */
export function triggerWorkflow(): Record<string, unknown> {
	return chain(WORKFLOW_IDS.trigger, 'test:n8n:queue trigger: Call Finished', [
		{
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'callFinished' },
			id: nodeId(4, 1),
			name: TRIGGER_NODE,
			type: TRIGGER_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			credentials,
		},
		{
			parameters: {},
			id: nodeId(4, 2),
			name: 'Follow-up',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [220, 0],
		},
	]);
}

/**
 * The documented way to find a failed execution's calls, run on demand: the Get Many node of
 * examples/find-calls-of-failed-execution.json as shipped (Placed by Execution), its execution ID
 * taken from a webhook body shaped like the Error Trigger's item (`{execution: {id}}`); the
 * webhook answers with the calls found.
 */
export function findCallsWorkflow(): Record<string, unknown> {
	const example = JSON.parse(
		readFileSync(path.join(ROOT, 'examples', 'find-calls-of-failed-execution.json'), 'utf8'),
	) as { nodes: Node[] };
	const shipped = example.nodes.find((n) => n.name === FIND_NODE);
	const text = JSON.stringify(shipped ?? {});
	if (!text.includes('$json.execution.id'))
		throw new Error(`the example has no "${FIND_NODE}" node reading $json.execution.id`);
	const find = JSON.parse(text.replace('$json.execution.id', '$json.body.execution.id')) as Node;
	const webhookId = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a05';
	return chain(WORKFLOW_IDS.findCalls, 'test:n8n:queue find the calls of a failed execution', [
		webhookNode(WEBHOOK_PATHS.findCalls, webhookId, 5, {
			responseMode: 'lastNode',
			responseData: 'allEntries',
		}),
		{ ...find, id: nodeId(5, 2), position: [220, 0] },
	]);
}
