import type { ResourceEntry } from '../../shared/operation';

export const resource: ResourceEntry = {
	option: {
		name: 'Tag',
		value: 'tag',
		description: 'Colored labels the organization puts on contacts',
	},
	defaultOperation: 'create',
};

// its operations, one line each (resourceOf in shared/operation.ts lists every export but `resource`)
export { createTag } from './create.operation';
export { deleteTag } from './delete.operation';
export { getManyTags } from './getMany.operation';
