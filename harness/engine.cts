import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IBinaryKeyData,
	IConnections,
	IDataObject,
	IExecuteData,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import './logScan.cts';
import './regexEngine.cts';
import { TestCredentialsHelper } from './credentials.cts';
import { assertNoSecret, registerSecret } from './secrets.cts';
import { ACTION_NODE, MANUAL_TRIGGER, TEST_ITEMS, TestNodeTypes } from './nodeTypes.cts';

export interface CredentialData {
	apiKey: string;
	baseUrl: string;
}

export const CREDENTIAL_REF = {
	voiceAgentCrmApi: { id: 'cred-1', name: 'Voice Agent CRM account' },
};

/** The execution context n8n gives a run; URLs must be absolute or expressions fail. */
export function additionalDataFor(
	credentials: CredentialData,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const base = 'http://localhost:5678';
	return {
		credentialsHelper: new TestCredentialsHelper({ voiceAgentCrmApi: { ...credentials } }),
		hooks,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used by these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * How n8n started the execution: `manual` (the editor), `trigger` (an active workflow's trigger) or
 * `retry` (a user's Retry of a failed execution: n8n runs the saved execution again, under a new
 * execution ID, from the node that failed).
 */
export type RunMode = 'manual' | 'trigger' | 'retry';

/** How one run is started: its mode and execution ID (n8n gives every execution its own). */
export interface RunStart {
	mode?: RunMode;
	executionId?: string;
}

export interface WorkflowJson {
	/** The workflow's ID as n8n would give it ('wf-test' when not set): a copy of a workflow has another. */
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowBase['settings'];
}

/** The hooks of an execution, on the workflow as n8n would have saved it. */
export function lifecycleHooks(
	mode: RunMode,
	executionId: string,
	workflow: WorkflowJson & { id: string; name: string },
): ExecutionLifecycleHooks {
	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		active: false,
		settings: {},
	} as unknown as IWorkflowBase;
	return new ExecutionLifecycleHooks(mode, executionId, workflowData);
}

/** Run a whole workflow through n8n-core's WorkflowExecute, from its manual trigger. */
export async function runWorkflow(
	json: WorkflowJson,
	credentials: CredentialData,
	extraTypes: Record<string, INodeType> = {},
	{ mode = 'manual', executionId = 'exec-1' }: RunStart = {},
): Promise<IRun> {
	const start = json.nodes.find((n) => n.type === MANUAL_TRIGGER);
	if (!start) throw new Error('the test workflow needs a manual trigger');
	return await execute(
		json,
		credentials,
		extraTypes,
		{ mode, executionId },
		startingWith({ node: start, data: { main: [[{ json: {} }]] }, source: null }),
	);
}

/**
 * Run a workflow the way n8n starts an active one after its polling trigger emitted: mode `trigger`,
 * the trigger node first on the stack with the poll's output as its data. WorkflowExecute then
 * passes that data on as the trigger's output without polling again.
 */
export async function runWorkflowFromPoll(
	json: WorkflowJson,
	credentials: CredentialData,
	triggerName: string,
	pollOutput: INodeExecutionData[][],
	extraTypes: Record<string, INodeType> = {},
): Promise<IRun> {
	const trigger = json.nodes.find((n) => n.name === triggerName);
	if (!trigger) throw new Error(`the workflow has no node "${triggerName}"`);
	return await execute(
		json,
		credentials,
		extraTypes,
		{ mode: 'trigger', executionId: 'exec-1' },
		startingWith({ node: trigger, data: { main: pollOutput }, source: null }),
	);
}

const startingWith = (start: IExecuteData): IRunExecutionData =>
	createRunExecutionData({ executionData: { nodeExecutionStack: [start] } });

async function execute(
	json: WorkflowJson,
	credentials: CredentialData,
	extraTypes: Record<string, INodeType>,
	{ mode, executionId }: Required<RunStart>,
	runExecutionData: IRunExecutionData,
): Promise<IRun> {
	const nodeTypes = new TestNodeTypes(extraTypes);
	const workflow = new Workflow({
		id: json.id ?? 'wf-test',
		name: json.name ?? 'test',
		nodes: json.nodes,
		connections: json.connections,
		active: mode === 'trigger',
		nodeTypes,
		settings: json.settings,
	});
	const hooks = lifecycleHooks(mode, executionId, {
		...json,
		id: json.id ?? 'wf-test',
		name: json.name ?? 'test',
	});
	registerSecret(credentials.apiKey);
	const workflowExecute = new WorkflowExecute(
		{ ...additionalDataFor(credentials, hooks), executionId },
		mode,
		runExecutionData,
	);
	const run = await workflowExecute.processRunExecutionData(workflow);
	assertNoSecret('The run (output items, errors)', run.data.resultData);
	return run;
}

export interface NodeRun {
	/** Output items of the Voice Agent CRM node (first output). */
	items: INodeExecutionData[];
	/** The error the node raised, when it stopped the run. */
	error?: ExecutionError;
	run: IRun;
}

/** The node under test, as `actionWorkflow` names it. */
export const ACTION_NODE_NAME = 'Voice Agent CRM';

export interface ActionWorkflowOptions {
	parameters: INodeParameters;
	/** Input items; without them the node gets the manual trigger's single empty item. */
	items?: IDataObject[];
	/** Binary data of the input items, by index (`null` for an item without); needs `items`. */
	binary?: Array<IBinaryKeyData | null>;
	continueOnFail?: boolean;
	/** The node's version, as a saved workflow stores it; 1 by default. */
	typeVersion?: number;
	/** The node's own Retry On Fail: its tries (n8n takes 2 to 5) and the wait between them. */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
	/** The workflow's ID ('wf-test' when not set; a waiting execution's workflow is 'wf-waiting'). */
	workflowId?: string;
}

/** Manual Trigger → (Test Items) → Voice Agent CRM. */
export function actionWorkflow(options: ActionWorkflowOptions): WorkflowJson {
	const nodes: INode[] = [
		{
			id: 'n1',
			name: 'Start',
			type: MANUAL_TRIGGER,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	const connections: IConnections = {};
	let previous = 'Start';
	if (options.items) {
		nodes.push({
			id: 'n2',
			name: 'Items',
			type: TEST_ITEMS,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				items: JSON.stringify(options.items),
				binary: JSON.stringify(options.binary ?? []),
			},
		});
		connections.Start = { main: [[{ node: 'Items', type: 'main', index: 0 }]] };
		previous = 'Items';
	}
	nodes.push({
		id: 'n3',
		name: ACTION_NODE_NAME,
		type: ACTION_NODE,
		typeVersion: options.typeVersion ?? 1,
		position: [400, 0],
		parameters: options.parameters,
		credentials: CREDENTIAL_REF,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, ...options.retryOnFail } : {}),
	});
	connections[previous] = { main: [[{ node: ACTION_NODE_NAME, type: 'main', index: 0 }]] };
	return { ...(options.workflowId ? { id: options.workflowId } : {}), nodes, connections };
}

export interface RunNodeOptions extends ActionWorkflowOptions, RunStart {
	credentials: CredentialData;
}

/** Manual Trigger → (Test Items) → Voice Agent CRM, run through the engine. */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	return nodeRunOf(await runWorkflow(actionWorkflow(options), options.credentials, {}, options));
}

/** The Voice Agent CRM node's last run in the execution. */
function nodeRunOf(run: IRun): NodeRun {
	const task = run.data.resultData.runData[ACTION_NODE_NAME]?.at(-1);
	return {
		items: task?.data?.main?.[0] ?? [],
		error: task?.error ?? run.data.resultData.error,
		run,
	};
}

/**
 * A user's Retry of a failed `runNode` run, as n8n's ExecutionService.retry makes it: the failed
 * execution's data as saved (custom data included), without its error and the failed node's last
 * run, run on from the failed node in mode `retry` under a new execution ID.
 */
export async function retryNode(
	failed: NodeRun,
	options: RunNodeOptions & { executionId: string },
): Promise<NodeRun> {
	const saved = JSON.parse(JSON.stringify(failed.run.data)) as IRunExecutionData;
	const { lastNodeExecuted } = saved.resultData;
	delete saved.resultData.error;
	const runs = lastNodeExecuted ? saved.resultData.runData[lastNodeExecuted] : undefined;
	if (runs?.at(-1)?.error !== undefined) runs.pop();
	const json = actionWorkflow(options);
	const run = await execute(
		json,
		options.credentials,
		{},
		{ mode: 'retry', executionId: options.executionId },
		saved,
	);
	return nodeRunOf(run);
}
