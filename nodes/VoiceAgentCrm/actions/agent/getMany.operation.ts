import type { IDataObject } from 'n8n-workflow';

import { listOptionsOf, returnAllFields } from '../../shared/fields';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiList } from '../../transport/paging';
import { agentOutput } from './webhookUrl';

export const getManyAgents: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many agents',
		description: 'List the voice AI agents of the organization',
	},
	kind: 'list',
	endpoint: 'listAgents',
	example: { returnAll: false, limit: 5 },
	fields: returnAllFields,
	execute: perItem(async function (itemIndex) {
		const agents = (await apiList.call(this, 'listAgents', {
			...listOptionsOf(this, itemIndex),
			itemIndex,
		})) as IDataObject[];
		return agents.map(agentOutput);
	}),
};
