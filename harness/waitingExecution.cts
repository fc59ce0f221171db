import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	IDataObject,
	INode,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import {
	ACTION_NODE_NAME as NODE,
	actionWorkflow,
	additionalDataFor,
	lifecycleHooks,
	type ActionWorkflowOptions,
	type CredentialData,
} from './engine.cts';
import { TestNodeTypes } from './nodeTypes.cts';
import { assertNoSecret, registerSecret } from './secrets.cts';

/**
 * An execution that waits, then resumes, the way n8n does it, with n8n-core alone:
 *
 * - `start()` runs Manual Trigger → Items → Voice Agent CRM through `WorkflowExecute` until the
 *   node puts it to wait, then keeps the run data as JSON, as n8n saves a waiting execution.
 * - A loopback server stands in for n8n's waiting-webhooks endpoint (`webhookWaitingBaseUrl`,
 *   so `$execution.resumeUrl` points at it). Each POST does what n8n's `WaitingWebhooks` does
 *   (packages/cli/src/webhooks/waiting-webhooks.ts and webhook-helpers.ts): load the saved
 *   execution, flag the waiting node disabled, clear `waitTill`, drop the node's last run, find
 *   its restart webhook (POST, empty path), run the node's `webhook()` in n8n-core's
 *   `WebhookContext`; when it returns no workflow data, answer and leave the saved execution as
 *   it was (still waiting); otherwise put the data on the waiting node's stack entry and resume
 *   with `WorkflowExecute.processRunExecutionData`, whose disabled node passes it on.
 * - `resumeAtTimeout()` does what n8n's `WaitTracker` does when `waitTill` passes: resume the saved
 *   execution as is; n8n-core then disables the waiting node and passes its stack input on.
 *
 * Not reproduced: the database, the HTTP routing and express request of n8n's CLI (the request
 * handed to the webhook carries body, headers and query), the signature check that n8n applies
 * only to send-and-wait operations, and the queue-mode hand-off to a worker.
 */

export interface WebhookCall {
	payload: IDataObject;
	resumed: boolean;
	response: unknown;
}

export interface WaitingExecutionOptions extends ActionWorkflowOptions {
	credentials: CredentialData;
	items: IDataObject[];
	/** Default `exec-waiting-1`: two executions of one workflow need their own. */
	executionId?: string;
}

export class WaitingExecution {
	readonly executionId: string;
	readonly webhookCalls: WebhookCall[] = [];
	/** The run data as saved while the execution waits; undefined once it has resumed. */
	saved?: string;
	firstRun?: IRun;
	resumedRun?: IRun;
	private server?: http.Server;
	private waitingBaseUrl = '';
	private readonly nodeTypes = new TestNodeTypes();
	private readonly nodes: INode[];
	private readonly connections: IConnections;

	constructor(private readonly options: WaitingExecutionOptions) {
		this.executionId = options.executionId ?? 'exec-waiting-1';
		registerSecret(options.credentials.apiKey);
		({ nodes: this.nodes, connections: this.connections } = actionWorkflow(options));
	}

	get resumeUrl(): string {
		return `${this.waitingBaseUrl}/${this.executionId}`;
	}

	/** Output items of the node in a run. */
	static nodeItems(run: IRun | undefined): IDataObject[] {
		return (run?.data.resultData.runData[NODE]?.at(-1)?.data?.main?.[0] ?? []).map(
			(item) => item.json,
		);
	}

	async start(): Promise<IRun> {
		await this.listen();
		const start = this.nodes[0];
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }],
			},
		});
		this.firstRun = await this.execute(runExecutionData);
		if (this.firstRun.waitTill) this.saved = JSON.stringify(this.firstRun.data);
		return this.firstRun;
	}

	/** n8n's WaitTracker at `waitTill`: the saved execution runs on from its waiting node. */
	async resumeAtTimeout(): Promise<IRun> {
		const runExecutionData = this.load();
		this.saved = undefined;
		this.resumedRun = await this.execute(runExecutionData);
		return this.resumedRun;
	}

	/** The process that ran it is gone (a worker killed): its resume URL answers nothing from now on. */
	async crash(): Promise<void> {
		this.server?.closeAllConnections();
		await this.stop();
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	private workflow(): Workflow {
		// a fresh copy of the nodes, as n8n builds the workflow from the saved execution each time
		const nodes = JSON.parse(JSON.stringify(this.nodes)) as INode[];
		return new Workflow({
			id: 'wf-waiting',
			name: 'waiting',
			nodes,
			connections: this.connections,
			active: false,
			nodeTypes: this.nodeTypes,
		});
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		const hooks = lifecycleHooks('manual', this.executionId, {
			id: 'wf-waiting',
			name: 'waiting',
			nodes: this.nodes,
			connections: this.connections,
		});
		return {
			...additionalDataFor(this.options.credentials, hooks),
			executionId: this.executionId,
			webhookWaitingBaseUrl: this.waitingBaseUrl,
			...extra,
		};
	}

	private async execute(runExecutionData: IRunExecutionData): Promise<IRun> {
		const run = await new WorkflowExecute(
			this.additionalData(),
			'manual',
			runExecutionData,
		).processRunExecutionData(this.workflow());
		assertNoSecret('The run (output items, errors)', run.data.resultData);
		return run;
	}

	private load(): IRunExecutionData {
		if (!this.saved) throw new Error('the execution is not waiting');
		return JSON.parse(this.saved) as IRunExecutionData;
	}

	private async listen(): Promise<void> {
		this.server = http.createServer((req, res) => void this.receive(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.waitingBaseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook-waiting`;
	}

	private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const payload = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as IDataObject;
		const url = new URL(req.url ?? '/', 'http://localhost');
		if (
			req.method !== 'POST' ||
			url.pathname !== `/webhook-waiting/${this.executionId}` ||
			!this.saved
		) {
			// n8n answers 404 for an unknown execution and 409 for one that is not waiting
			res.writeHead(this.saved ? 404 : 409).end();
			return;
		}
		try {
			const { response, resumed } = await this.runWebhook(
				payload,
				req,
				Object.fromEntries(url.searchParams),
			);
			this.webhookCalls.push({ payload, resumed, response });
			res
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify(response ?? { message: 'Webhook call received' }));
		} catch (error) {
			this.webhookCalls.push({
				payload,
				resumed: false,
				response: { error: (error as Error).message },
			});
			res.writeHead(500).end();
		}
	}

	private async runWebhook(
		body: IDataObject,
		req: IncomingMessage,
		query: IDataObject,
	): Promise<{ response: unknown; resumed: boolean }> {
		const runExecutionData = this.load();
		// WaitingWebhooks.getWebhookExecutionData
		const stackEntry = runExecutionData.executionData!.nodeExecutionStack[0];
		stackEntry.node.disabled = true;
		runExecutionData.waitTill = undefined;
		const lastNode = runExecutionData.resultData.lastNodeExecuted!;
		runExecutionData.resultData.runData[lastNode].pop();
		const workflow = this.workflow();
		const node = workflow.getNode(lastNode)!;
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type);
		const webhookDescription = nodeType.description.webhooks?.find(
			(w) => w.restartWebhook === true && w.httpMethod === 'POST' && w.path === '',
		);
		if (!webhookDescription || !nodeType.webhook)
			throw new Error('the node has no restart webhook for POST');
		const additionalData = this.additionalData({
			httpRequest: { body, headers: req.headers, query, params: {} } as never,
		});
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: '',
			webhookDescription,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			'manual',
			webhookData,
			[],
			runExecutionData,
		);
		const result: IWebhookResponseData = await nodeType.webhook.call(context);
		assertNoSecret('The webhook answer', result);
		if (result.workflowData === undefined)
			return { response: result.webhookResponse, resumed: false };
		// webhook-helpers.prepareExecutionData for a restarted execution
		stackEntry.data.main = result.workflowData;
		this.saved = undefined;
		this.resumedRun = await new WorkflowExecute(
			additionalData,
			'manual',
			runExecutionData,
		).processRunExecutionData(workflow);
		assertNoSecret('The resumed run (output items, errors)', this.resumedRun.data.resultData);
		return { response: result.webhookResponse, resumed: true };
	}
}
