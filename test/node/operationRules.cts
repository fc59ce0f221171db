import type { Resource } from '../../nodes/VoiceAgentCrm/shared/operation';
import { ENDPOINTS } from '../../nodes/VoiceAgentCrm/transport/endpoints';

/**
 * The rules every operation of the operation list keeps, as functions of the resources, so that
 * the forms test checks the node and the recipe test checks a node with an operation added. Each
 * returns the operations that break it (`resource.operation`), empty when all keep it.
 */

function operationsOf(resources: Resource[]) {
	return resources.flatMap((resource) =>
		resource.operations.map((operation) => ({
			resource,
			operation,
			key: `${resource.option.value}.${operation.option.value}`,
		})),
	);
}

/** One sentence of at most 120 characters ("e.g. +1…" is not a second sentence). */
export function descriptionsTooLong(resources: Resource[]): string[] {
	return operationsOf(resources)
		.filter(
			({ operation }) =>
				(operation.option.description ?? '').length > 120 ||
				/[.!?]\s+[A-Z]/.test(operation.option.description ?? ''),
		)
		.map(({ key }) => key);
}

/**
 * A list of the resource's own collection (kind `list`) has the value getAll, shown "Get Many",
 * offers Return All, and is the resource's only one; nothing else has the value getAll.
 */
export function listsBreakingTheirRule(resources: Resource[]): string[] {
	const operations = operationsOf(resources);
	const listsOf = (resource: Resource) =>
		resource.operations.filter((operation) => operation.kind === 'list').length;
	return operations
		.filter(({ resource, operation }) =>
			operation.kind === 'list'
				? operation.option.value !== 'getAll' ||
					operation.option.name !== 'Get Many' ||
					!operation.fields.some((field) => field.name === 'returnAll') ||
					listsOf(resource) > 1
				: operation.option.value === 'getAll',
		)
		.map(({ key }) => key);
}

/** Reads and lists send a GET, writes and sends do not. */
export function kindsBelyingTheirRequest(resources: Resource[]): string[] {
	return operationsOf(resources)
		.filter(({ operation }) => {
			const reads = operation.kind === 'list' || operation.kind === 'read';
			return (ENDPOINTS[operation.endpoint].method === 'GET') !== reads;
		})
		.map(({ key }) => key);
}
