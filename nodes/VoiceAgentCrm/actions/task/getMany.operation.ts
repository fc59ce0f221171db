import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { filtersField, listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { validateItem } from '../../shared/validation';
import { apiList } from '../../transport/paging';
import { oneOf, STATUS_OPTIONS, TASK_STATUSES } from './taskValues';

const FILTERS = z.object({ status: oneOf(TASK_STATUSES).optional() });

export const getManyTasks: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many tasks',
		description: 'List tasks, newest first, optionally only those with a status',
	},
	kind: 'list',
	endpoint: 'listTasks',
	example: { returnAll: false, limit: 5, filters: {} },
	fields: [
		...returnAllFields,
		filtersField([
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'todo',
				description: 'Only return tasks with this status',
				options: STATUS_OPTIONS,
			},
		]),
	],
	execute: perItem(async function (itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const query = validateItem(this, FILTERS, filters, itemIndex, { status: 'Status' });
		const records = await apiList.call(this, 'listTasks', {
			query,
			...listOptionsOf(this, itemIndex),
			itemIndex,
		});
		return records as IDataObject[];
	}),
};
