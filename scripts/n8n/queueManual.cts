/**
 * A manual execution offloaded to a worker (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS, what n8n 3.0
 * always does): the editor's *Test step* on Place AI Call with a polling wait, started the way the
 * editor starts it, runs on a worker and ends with the call's record.
 *
 * The workflow is saved through the REST API as the editor saves it (`POST /rest/workflows`), then
 * run as the editor's Test step runs a node of a workflow that has not run yet:
 * `POST /rest/workflows/:id/run` with `{destinationNode: {nodeName, mode: 'inclusive'}}` (n8n's
 * ManualRunDto, "full execution from an unknown trigger"). With offloading on, main enqueues the
 * execution and a worker runs it: the worker's log names the execution, main's does not.
 */
import type { Simulator } from '../../simulator/index.cts';
import { check, CheckFailure, log, sleep } from './lib.cts';
import type { N8nProcess, QueueN8n } from './queueCluster.cts';
import { AGENT_ID, FROM_NUMBER, PLACE_NODE } from './queueWorkflows.cts';
import { ACTION_NODE_TYPE, CREDENTIAL_ID, CREDENTIAL_NAME, FINISHED_STATUSES } from './shared.cts';
import { executionsOf } from './trigger.cts';

const TO_NUMBER = '+14155569001';

interface ManualCluster {
	n8n: QueueN8n;
	main: N8nProcess;
	workers: N8nProcess[];
}

/** Manual Trigger → Place AI Call, waiting for the analysis by polling. */
function manualPlaceWorkflow(): Record<string, unknown> {
	return {
		name: 'test:n8n:queue manual Test step (Place AI Call, polling wait)',
		nodes: [
			{
				parameters: {},
				id: '6f1e2d3c-4b5a-4978-8a6b-000000000901',
				name: 'When clicking ‘Execute workflow’',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					resource: 'call',
					operation: 'placePhoneCall',
					agentId: { __rl: true, mode: 'list', value: AGENT_ID },
					fromNumber: { __rl: true, mode: 'list', value: FROM_NUMBER },
					toNumber: TO_NUMBER,
					fullName: 'Manual Test Step',
					additionalFields: {},
					waitFor: 'analysis',
					waitOptions: {},
				},
				id: '6f1e2d3c-4b5a-4978-8a6b-000000000902',
				name: PLACE_NODE,
				type: ACTION_NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				credentials: { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		],
		connections: {
			'When clicking ‘Execute workflow’': {
				main: [[{ node: PLACE_NODE, type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

export async function manualTestStepOnWorker(
	cluster: ManualCluster,
	sim: Simulator,
): Promise<void> {
	const { n8n } = cluster;
	const saved = await n8n.restOk<{ data: { id: string } }>(
		'POST',
		'/workflows',
		manualPlaceWorkflow(),
	);
	const workflowId = saved.data.id;
	const placementsBefore = sim.requestsTo('POST', '/v1/calls/single-phone-call').length;
	const started = await n8n.restOk<{ data: { executionId?: string; waitingForWebhook?: boolean } }>(
		'POST',
		`/workflows/${workflowId}/run`,
		{ destinationNode: { nodeName: PLACE_NODE, mode: 'inclusive' } },
	);
	const executionId = started.data.executionId;
	check(
		typeof executionId === 'string',
		`manual Test step: n8n started execution ${executionId} (not waiting for a webhook)`,
	);
	const status = await finalStatus(n8n, executionId!, 4 * 60_000);
	const [execution] = (await executionsOf(n8n, workflowId)).filter(
		(e) => e.summary.id === executionId,
	);
	const record = execution?.items[PLACE_NODE]?.[0]?.json;
	const call = sim.org.calls.get(String(record?.id));
	const placements =
		sim.requestsTo('POST', '/v1/calls/single-phone-call').length - placementsBefore;
	check(
		status === 'success' && execution?.summary.mode === 'manual',
		`manual Test step: execution ${executionId} ended ${status}, mode ${execution?.summary.mode}`,
	);
	check(
		placements === 1 &&
			call?.contact.phone_number === TO_NUMBER &&
			!!record?.call_analysis &&
			typeof record.call_analysis === 'object',
		`manual Test step: one call placed, and the execution ended with its record and analysis (${placements} placed, call ${String(record?.id)})`,
	);
	const startedBy = (p: N8nProcess) => p.log().includes(`started execution ${executionId} `);
	const onWorkers = cluster.workers.filter(startedBy).map((w) => w.name);
	check(
		onWorkers.length === 1 && !startedBy(cluster.main),
		`manual Test step: run on a worker (${onWorkers.join(', ') || 'none'}), not on main (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS)`,
	);
	log(
		`manual Test step: ${record?.call_status ?? ''} call ${String(record?.id)} on ${onWorkers[0]}`,
	);
}

/** The execution's status once it is done, read as the editor reads it. */
async function finalStatus(n8n: QueueN8n, executionId: string, timeoutMs: number): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { data } = await n8n.restOk<{ data: { status: string } }>(
			'GET',
			`/executions/${executionId}`,
		);
		if (FINISHED_STATUSES.has(data.status)) return data.status;
		if (Date.now() > deadline)
			throw new CheckFailure(`timed out: manual execution ${executionId} is still ${data.status}`);
		await sleep(2_000);
	}
}
