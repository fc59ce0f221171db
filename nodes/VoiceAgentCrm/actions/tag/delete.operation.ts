import { idParameter } from '../../shared/ids';
import { tagLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { booleanResult } from '../../shared/results';
import { NON_EMPTY } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

export const deleteTag: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete tag',
		description: 'Delete a tag permanently and remove it from every contact',
	},
	kind: 'write',
	endpoint: 'deleteTag',
	example: { tagId: sampleById('tag') },
	fields: [tagLocator()],
	execute: perItem(async function (itemIndex) {
		const tagId = idParameter(this, itemIndex, 'tagId', 'Tag', NON_EMPTY);
		const { payload } = await apiRequest.call(this, 'deleteTag', { params: { tagId }, itemIndex });
		return booleanResult(payload, tagId);
	}),
};
