import type { Resource } from '../../shared/operation';
import { createTag } from './create.operation';
import { deleteTag } from './delete.operation';
import { getManyTags } from './getMany.operation';

export const tag: Resource = {
	option: {
		name: 'Tag',
		value: 'tag',
		description: 'Colored labels the organization puts on contacts',
	},
	defaultOperation: 'create',
	operations: [createTag, deleteTag, getManyTags],
};
