import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { IDataObject, INode, INodeExecutionData, IRun } from 'n8n-workflow';

import { BASE_NODE_STAND_INS, readFileStandIn } from './baseNodes.cts';
import {
	runWorkflow,
	runWorkflowFromPoll,
	type CredentialData,
	type RunStart,
	type WorkflowJson,
} from './engine.cts';
import { TRIGGER_NODE } from './nodeTypes.cts';
import { pollingTrigger, type PollingTrigger } from './poll.cts';

/**
 * The example workflows of `examples/`, run unchanged through n8n's engine: by the examples test
 * and by `npm run demo`. Their base nodes run as the stand-ins of `baseNodes.cts`.
 */

export const EXAMPLES_DIR = path.resolve(__dirname, '..', 'examples');

export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
}

/**
 * The folder, relative to n8n's working folder, that the examples read their files from: n8n 2.x
 * reads files only inside `~/.n8n-files` by default, and n8n's Docker image works in its home
 * folder, so `.n8n-files/<file>` is read there as shipped (README, "Example workflows").
 */
export const N8N_FILES = '.n8n-files';

/** The sample files beside the examples (what they read from `.n8n-files/`). */
export function exampleSamples(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => !file.endsWith('.json'))
		.sort();
}

let home: string | undefined;

/**
 * n8n's home and working folder for the examples run here: its `.n8n-files/` holds the samples,
 * where the README tells a user to put them. Made once per process, removed at its exit.
 */
export function exampleHome(): string {
	if (home) return home;
	const made = mkdtempSync(path.join(tmpdir(), 'voice-agent-crm-examples-'));
	mkdirSync(path.join(made, N8N_FILES));
	for (const file of exampleSamples())
		copyFileSync(path.join(EXAMPLES_DIR, file), path.join(made, N8N_FILES, file));
	process.once('exit', () => rmSync(made, { recursive: true, force: true }));
	home = made;
	return made;
}

/** The base nodes the examples use, Read/Write Files from Disk as in n8n's Docker image, at `exampleHome()`. */
export function exampleStandIns() {
	const folder = exampleHome();
	return {
		...BASE_NODE_STAND_INS,
		'n8n-nodes-base.readWriteFile': readFileStandIn(folder, path.join(folder, N8N_FILES)),
	};
}

export function loadExample(file: string): WorkflowJson {
	return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
}

/** The example's Voice Agent CRM Trigger, when it starts with one. */
export function triggerOf(workflow: WorkflowJson): INode | undefined {
	return workflow.nodes.find((node) => node.type === TRIGGER_NODE);
}

/** Run an example that starts with n8n's Manual Trigger, as "Execute workflow" does. */
export async function runExample(
	workflow: WorkflowJson,
	credentials: CredentialData,
	start: RunStart = {},
): Promise<IRun> {
	return await runWorkflow(workflow, credentials, exampleStandIns(), start);
}

/** The example's trigger in an active workflow: its parameters, polled through n8n-core's PollContext. */
export function activateTrigger(
	workflow: WorkflowJson,
	credentials: CredentialData,
	clock?: () => number,
): PollingTrigger {
	const trigger = triggerOf(workflow);
	if (!trigger) throw new Error(`the workflow "${workflow.name}" has no Voice Agent CRM Trigger`);
	return pollingTrigger({ credentials, parameters: trigger.parameters, clock });
}

/** Run the rest of a trigger example with one poll's items, as n8n does after a poll emitted. */
export async function runExampleAfterPoll(
	workflow: WorkflowJson,
	credentials: CredentialData,
	pollOutput: INodeExecutionData[][],
): Promise<IRun> {
	return await runWorkflowFromPoll(
		workflow,
		credentials,
		triggerOf(workflow)!.name,
		pollOutput,
		exampleStandIns(),
	);
}

/** Run an Error Workflow example as n8n does when a workflow fails: its Error Trigger gets `errorData`. */
export async function runExampleFromErrorTrigger(
	workflow: WorkflowJson,
	credentials: CredentialData,
	errorData: IDataObject,
): Promise<IRun> {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.errorTrigger');
	if (!trigger) throw new Error(`the workflow "${workflow.name}" has no Error Trigger`);
	return await runWorkflowFromPoll(
		workflow,
		credentials,
		trigger.name,
		[[{ json: errorData }]],
		BASE_NODE_STAND_INS,
	);
}

/** Output items (JSON) of a node's first run, first output unless told. */
export function outputOf(run: IRun, nodeName: string, output = 0): IDataObject[] {
	return (run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[output] ?? []).map(
		(item) => item.json,
	);
}

/** The error that stopped the run, as one line, or undefined when it succeeded. */
export function runFailure(run: IRun): string | undefined {
	const error = run.data.resultData.error as
		| (Error & { description?: string; node?: { name?: string } })
		| undefined;
	if (!error) return undefined;
	return [error.node?.name && `${error.node.name}:`, error.message, error.description]
		.filter(Boolean)
		.join(' ');
}
