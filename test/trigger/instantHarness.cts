import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, CREDENTIAL_REF } from '../../harness/engine.cts';
import { INSTANT_TRIGGER_NODE, TestNodeTypes } from '../../harness/nodeTypes.cts';
import { assertNoSecret } from '../../harness/secrets.cts';
import type { Simulator } from '../../simulator/index.cts';

/**
 * The Instant Trigger as n8n runs it (live-webhooks.ts and the trigger activator of n8n 2.38.7):
 * for each activation and each delivery, the workflow is built from the database with its static
 * data, the node's hook or webhook method runs in n8n-core's HookContext or WebhookContext, and
 * the static data is saved whole when it changed, once the delivery is answered: by the node
 * itself, or by n8n after it handed the run over (which resets the static data's changed mark). The database is shared by every process; each
 * process has its own copy of the node's module (`n8nProcess`), as separate n8n processes have.
 */
export interface Database {
	staticData: string;
}

export interface Delivery {
	status: number;
	items: INodeExecutionData[];
}

const NODE_NAME = 'Instant';
const WEBHOOK_ID = 'hook-1';

const INSTANT_TRIGGER = '../../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node';

/** What the package imports from n8n and the libraries n8n provides: loaded once, as reloading them costs a second a process. */
const PROVIDED_MODULES = ['n8n-workflow', 'luxon', 'zod'];

/** The node type as a new process loads it: a module of its own, so nothing kept in memory is shared. */
export function freshNodeType(): INodeType {
	let nodeType: INodeType | undefined;
	const provided = PROVIDED_MODULES.map(
		(name) => [name, jest.requireActual<object>(name)] as const,
	);
	jest.isolateModules(() => {
		// the package's own modules are loaded again; what n8n provides is the one copy a process has
		for (const [name, loaded] of provided) jest.doMock(name, () => loaded);
		// a module of its own per call, which only require() loads (jest.isolateModules)
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = require(INSTANT_TRIGGER) as {
			VoiceAgentCrmInstantTrigger: new () => INodeType;
		};
		nodeType = new loaded.VoiceAgentCrmInstantTrigger();
	});
	for (const [name] of provided) jest.dontMock(name);
	return nodeType!;
}

/** The Instant Trigger on finished calls, registered on the agents given; `extra` sets the rest. */
export const finishedCallsTrigger = (
	sim: Simulator,
	agentIds: string[],
	extra: INodeParameters = {},
): ReturnType<typeof instantWorkflow> =>
	instantWorkflow(sim, { events: ['callFinished'], registration: 'agents', agentIds, ...extra });

export function instantWorkflow(sim: Simulator, parameters: INodeParameters) {
	const workflowId = `wf-${Math.random().toString(36).slice(2)}`;
	const database: Database = { staticData: '{}' };
	const node: INode = {
		id: 'instant-1',
		name: NODE_NAME,
		type: INSTANT_TRIGGER_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: CREDENTIAL_REF,
		webhookId: WEBHOOK_ID,
	};
	const additionalData = additionalDataFor({ apiKey: sim.apiKey, baseUrl: sim.baseUrl });

	function n8nProcess(nodeType: INodeType = freshNodeType()) {
		const nodeTypes = new TestNodeTypes({ [INSTANT_TRIGGER_NODE]: nodeType });
		const load = () =>
			new Workflow({
				id: workflowId,
				name: 'instant',
				nodes: [node],
				connections: {},
				active: true,
				nodeTypes,
				staticData: JSON.parse(database.staticData) as IDataObject,
			});
		/**
		 * What n8n does before it answers a delivery that starts a run ('onReceived', answered by n8n):
		 * WorkflowRunner.run builds a Workflow over the same static data object
		 * (establishContextForPersistence in n8n 2.38.7 to 2.41.1), which resets its "changed" mark.
		 */
		const handOverRun = (workflow: Workflow) =>
			new Workflow({
				id: workflow.id,
				name: 'instant',
				nodes: [node],
				connections: {},
				active: true,
				nodeTypes,
				staticData: workflow.staticData,
			});
		const save = (workflow: Workflow) => {
			if (workflow.staticData.__dataChanged)
				database.staticData = JSON.stringify(workflow.staticData);
		};
		const webhookData = (workflow: Workflow): IWebhookData => ({
			httpMethod: 'POST',
			node: node.name,
			path: `${WEBHOOK_ID}/call-events`,
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: WEBHOOK_ID,
		});
		const hook = (workflow: Workflow) =>
			new HookContext(workflow, node, additionalData, 'trigger', 'activate', webhookData(workflow));
		const methods = nodeType.webhookMethods!.default!;
		return {
			url: () => hook(load()).getNodeWebhookUrl('default')!,
			async activate() {
				const workflow = load();
				if (!(await methods.checkExists.call(hook(workflow))))
					await methods.create.call(hook(workflow));
				save(workflow);
			},
			async deactivate() {
				const workflow = load();
				const restored = await methods.delete.call(hook(workflow));
				save(workflow);
				return restored;
			},
			/**
			 * One delivery, with the query the URL carries (by default the secret set on the agents).
			 * `held`: the node has answered, but the save waits for it (a slow process, whose save
			 * then comes after those of deliveries that started later).
			 */
			async deliver(
				body: IDataObject,
				query: IDataObject = { secret: secret() },
				held?: Promise<unknown>,
			): Promise<Delivery> {
				const workflow = load();
				const response = {
					code: 200,
					status: (code: number) => ((response.code = code), response),
					json: () => response,
				};
				const data = {
					...additionalData,
					httpRequest: { body, headers: {}, query, params: {} },
					httpResponse: response,
				} as never;
				const context = new WebhookContext(
					workflow,
					node,
					data,
					'trigger',
					webhookData(workflow),
					[],
					null,
				);
				const result = await nodeType.webhook!.call(context);
				assertNoSecret('The webhook answer', result);
				if (result.workflowData && !result.noWebhookResponse) handOverRun(workflow);
				await held;
				save(workflow);
				return { status: response.code, items: result.workflowData?.[0] ?? [] };
			},
		};
	}

	function staticData(): IDataObject {
		const all = JSON.parse(database.staticData) as IDataObject;
		return (all[`node:${NODE_NAME}`] ?? {}) as IDataObject;
	}

	function secret(): string {
		return String(staticData().deliverySecret ?? '');
	}

	return { database, n8nProcess, staticData, secret };
}

const realNow = Date.now.bind(Date);

/** Date.now moved forward by `offsetMs` for the node (the simulator keeps its own clock). */
export function shiftNodeTime(): { by: (ms: number) => void; restore: () => void } {
	let offset = 0;
	const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	return { by: (ms) => (offset += ms), restore: () => spy.mockRestore() };
}
