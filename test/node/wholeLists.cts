import { randomUUID } from 'node:crypto';

import type { INodeParameters, INodeType } from 'n8n-workflow';

import { ACTION_NODE_NAME, actionWorkflow, runWorkflow } from '../../harness/engine.cts';
import { ACTION_NODE } from '../../harness/nodeTypes.cts';
import { insertCall, type Simulator } from '../../simulator/index.cts';
import type { Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import { ENDPOINTS, type Endpoint } from '../../nodes/VoiceAgentCrm/transport/endpoints';

/**
 * Every list read of the node against lists longer than one page: each must answer every record,
 * or stop at a bound it states. Shared by the repository's test and the test of that test, which
 * plants single-page reads in a copy of the repository and expects them named.
 */

/** More records than a page of the largest size (1,000) holds. */
export const LONG = 1_500;

type Stores = 'agents' | 'calls' | 'contacts' | 'tasks' | 'channels' | 'threads';

/** The organization's store each list that pages reads, by its path. */
const STORE_OF_PATH: Record<string, Stores> = {
	'/v1/agents': 'agents',
	'/v1/calls': 'calls',
	'/v1/contacts': 'contacts',
	'/v1/tasks': 'tasks',
	'/v1/channels': 'channels',
	'/v1/threads': 'threads',
};

/** The workflow the calls of the filled call list were placed by (their trace). */
export const PLACED_BY = 'wf-long-list';

/**
 * The store filled to `LONG` records: calls placed by `PLACED_BY`, the others clones of the store's
 * first record with IDs of their own.
 */
function fill(sim: Simulator, store: Stores): number {
	if (store === 'calls') {
		sim.org.calls.clear();
		for (let n = 0; n < LONG; n++) insertCall(sim, { metadata: { n8n_workflow_id: PLACED_BY } });
		return LONG;
	}
	if (store === 'tasks' && !sim.org.tasks.size) {
		const at = sim.clock.iso(sim.clock.now());
		sim.org.tasks.set('seed-task', {
			...{ id: 'seed-task', type: 'custom', brief: 'Call back', details: '', status: 'todo' },
			...{ priority: 'low', assigned_to: [], created_by: null, additional_data: {} },
			...{ created_at: at, updated_at: at },
		});
	}
	const records = sim.org[store] as Map<string, { id: string }>;
	const model = records.values().next().value!;
	const prefix = /^[a-z]+[-_]/.exec(model.id)?.[0] ?? '';
	while (records.size < LONG) {
		const id = `${prefix}${randomUUID()}`;
		const copy = { ...structuredClone(model), id };
		if (store === 'contacts')
			Object.assign(copy, { phone_number: `+1555${String(records.size).padStart(7, '0')}` });
		records.set(id, copy);
	}
	return records.size;
}

export interface ListCase {
	/** `resource.operation`, as the node's subtitle keys it. */
	name: string;
	parameters: INodeParameters;
	/** The records the list holds once filled. */
	expected: (sim: Simulator) => number;
}

/**
 * Every Get Many of `resources` whose list pages, with Return All; and Call → Get Many filtered by
 * its trace, which reads the call list newest first.
 */
export function wholeListCases(resources: Resource[]): ListCase[] {
	const byTrace: ListCase = {
		name: 'call.getAll placed by workflow',
		parameters: {
			resource: 'call',
			operation: 'getAll',
			returnAll: true,
			filters: { placedByWorkflow: PLACED_BY },
		},
		expected: (sim) => fill(sim, 'calls'),
	};
	return [...listsThatPage(resources), byTrace];
}

function listsThatPage(resources: Resource[]): ListCase[] {
	return resources.flatMap((resource) =>
		resource.operations
			.filter((op) => op.kind === 'list' && (ENDPOINTS[op.endpoint] as Endpoint).pages)
			.map((op) => ({
				name: `${resource.option.value}.${op.option.value}`,
				parameters: {
					resource: resource.option.value,
					operation: op.option.value,
					returnAll: true,
				} as INodeParameters,
				expected: (sim: Simulator) =>
					fill(sim, STORE_OF_PATH[(ENDPOINTS[op.endpoint] as Endpoint).path]),
			})),
	);
}

/** The cases whose run answered fewer (or more) records than the list holds, with what they answered. */
export async function shortLists(
	sim: Simulator,
	cases: ListCase[],
	node?: INodeType,
): Promise<string[]> {
	const short: string[] = [];
	for (const { name, parameters, expected } of cases) {
		const holds = expected(sim);
		const run = await runWorkflow(
			actionWorkflow({ parameters }),
			{ apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			node ? { [ACTION_NODE]: node } : {},
		);
		const items = run.data.resultData.runData[ACTION_NODE_NAME]?.[0]?.data?.main?.[0] ?? [];
		const error = run.data.resultData.error?.message;
		if (error || items.length !== holds)
			short.push(`${name}: ${error ?? `${items.length} of ${holds}`}`);
	}
	return short;
}
