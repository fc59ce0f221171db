import { WorkflowExecute } from 'n8n-core';
import type { IRun } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import {
	ACTION_NODE_NAME,
	actionWorkflow,
	additionalDataFor,
	lifecycleHooks,
	type RunNodeOptions,
} from '../../harness/engine.cts';
import { TestNodeTypes } from '../../harness/nodeTypes.cts';
import { assertNoSecret, registerSecret } from '../../harness/secrets.cts';

/** A run of Manual Trigger → (Test Items) → Voice Agent CRM with the execution's Stop at hand. */
export interface StoppableRun {
	/** What n8n does on a Stop in the editor: aborts the execution's signal, marks it canceled. */
	stop(): void;
	/** The run once the node has returned (or thrown) after the Stop. */
	done: Promise<{ run: IRun; message?: string; description?: string }>;
	/**
	 * The execution's custom data as n8n saves a stopped execution: the snapshot its
	 * `workflowExecuteAfter` hook is given at the Stop, before the node returns (n8n 2.38.7 saves
	 * that snapshot and skips the node's later output; conventions.md).
	 */
	customDataAtStop(): Record<string, string> | undefined;
}

export function startStoppableRun(options: RunNodeOptions): StoppableRun {
	const json = actionWorkflow(options);
	const start = json.nodes[0];
	const workflow = new Workflow({
		id: 'wf-stop',
		nodes: json.nodes,
		connections: json.connections,
		active: false,
		nodeTypes: new TestNodeTypes(),
	});
	const hooks = lifecycleHooks('manual', 'exec-stop', { ...json, id: 'wf-stop', name: 'stop' });
	let atStop: Record<string, string> | undefined;
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => {
		atStop ??= structuredClone(fullRunData.data.resultData.metadata ?? {});
	});
	registerSecret(options.credentials.apiKey);
	const running = new WorkflowExecute(
		additionalDataFor(options.credentials, hooks),
		'manual',
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }],
			},
		}),
	).processRunExecutionData(workflow);
	const done = (running as Promise<IRun>).then((run) => {
		assertNoSecret('The stopped run', run.data.resultData);
		const task = run.data.resultData.runData[ACTION_NODE_NAME]?.[0];
		const error = task?.error ?? run.data.resultData.error;
		return { run, message: error?.message, description: error?.description ?? undefined };
	});
	return { stop: () => running.cancel(), done, customDataAtStop: () => atStop };
}
