import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { taskLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { UUID, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

export const getTask: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a task',
		description: 'Get a task of the organization by its ID',
	},
	fields: [taskLocator()],
	execute: perItem(async function (itemIndex) {
		const raw = this.getNodeParameter('taskId', itemIndex, '', { extractValue: true });
		const { taskId } = validateItem(this, z.object({ taskId: UUID }), { taskId: raw }, itemIndex, { taskId: 'Task' });
		const { payload } = await apiRequest.call(this, 'getTask', { params: { taskId }, itemIndex });
		return payload as IDataObject;
	}),
};
