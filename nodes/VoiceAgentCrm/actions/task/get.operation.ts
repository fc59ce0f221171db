import type { IDataObject } from 'n8n-workflow';

import { idParameter } from '../../shared/ids';
import { taskLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const getTask: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get task',
		description: 'Get a task by its ID',
	},
	kind: 'read',
	endpoint: 'getTask',
	example: { taskId: sampleById('task') },
	fields: [taskLocator()],
	execute: perItem(async function (itemIndex) {
		const taskId = idParameter(this, itemIndex, 'taskId', 'Task');
		const { payload } = await apiRequest.call(this, 'getTask', { params: { taskId }, itemIndex });
		return payload as IDataObject;
	}),
};
