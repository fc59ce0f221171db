import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, CREDENTIAL_REF, type CredentialData } from './engine.cts';
import type { FakeTime } from './fakeTime.cts';
import { assertNoSecret, registerSecret } from './secrets.cts';
import { TestNodeTypes, TRIGGER_NODE } from './nodeTypes.cts';

export interface PollingTriggerOptions {
	credentials: CredentialData;
	parameters: INodeParameters;
	/**
	 * The time of the machine n8n runs on, e.g. `() => sim.clock.now()`, so that the trigger's
	 * time bounds (analysis wait, watch window) follow the simulator's clock. Real time otherwise.
	 */
	clock?: () => number;
	/**
	 * Fake time (`harness/fakeTime.cts`) each poll is driven on: the transport's waits inside a poll
	 * (a repeat after a 5xx, a 429's wait) pass as this clock moves, not in real time. Install it
	 * before starting the simulator, so that the simulator's clock follows it.
	 */
	time?: FakeTime;
}

export interface PollingTrigger {
	/** One poll as n8n runs it (the activation's, then the schedule's); `manual` is "Fetch Test Event". */
	poll(mode?: 'trigger' | 'manual'): Promise<INodeExecutionData[][] | null>;
	/** The node's static data as it stands (what n8n saves with the workflow). */
	readonly staticData: IDataObject;
	/** Bytes of the node's static data as n8n stores it (JSON). */
	staticDataBytes(): number;
	/** n8n restarts: the workflow is rebuilt from the saved static data; the next poll runs in `init` activation. */
	restart(): void;
	/** Change parameters, as a user editing the active workflow does. */
	setParameters(parameters: INodeParameters): void;
}

const NODE_NAME = 'Voice Agent CRM Trigger';

/**
 * A Voice Agent CRM Trigger in an active workflow, polled through n8n-core's PollContext. Every
 * poll's items, error and the static data it leaves are scanned for the API key.
 */
export function pollingTrigger(options: PollingTriggerOptions): PollingTrigger {
	registerSecret(options.credentials.apiKey);
	const nodeTypes = new TestNodeTypes();
	const additionalData = additionalDataFor(options.credentials);
	const node: INode = {
		id: 'trigger-1',
		name: NODE_NAME,
		type: TRIGGER_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: CREDENTIAL_REF,
	};
	const build = (staticData: IDataObject) =>
		new Workflow({
			id: 'wf-trigger',
			name: 'trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData,
		});
	let workflow = build({});
	let activation: WorkflowActivateMode = 'activate';

	const nodeStaticData = () => workflow.getStaticData('node', node);

	return {
		async poll(mode = 'trigger') {
			const context = new PollContext(
				workflow,
				node,
				additionalData,
				mode,
				mode === 'manual' ? 'manual' : activation,
			);
			const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_NODE);
			const realNow = Date.now;
			if (options.clock) Date.now = options.clock;
			try {
				const polling = nodeType.poll!.call(context);
				const output = await (options.time ? options.time.runUntilSettled(polling) : polling);
				assertNoSecret("The poll's items", output);
				return output;
			} catch (error) {
				assertNoSecret("The poll's error", error);
				throw error;
			} finally {
				Date.now = realNow;
				assertNoSecret("The trigger's static data", workflow.staticData);
			}
		},
		get staticData() {
			return nodeStaticData();
		},
		staticDataBytes: () => JSON.stringify(nodeStaticData()).length,
		restart() {
			const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			workflow = build(saved);
			activation = 'init';
		},
		setParameters(parameters) {
			node.parameters = parameters;
			workflow = build(JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject);
			activation = 'update';
		},
	};
}
