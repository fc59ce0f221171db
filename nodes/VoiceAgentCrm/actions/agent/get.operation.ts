import type { IDataObject } from 'n8n-workflow';

import { agentLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { idParameter } from '../../shared/ids';
import { apiRequest } from '../../transport/request';
import { agentOutput } from './webhookUrl';

export const getAgent: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get agent',
		description: 'Get the published settings of a voice AI agent',
	},
	kind: 'read',
	endpoint: 'getAgent',
	example: { agentId: sampleById('agent') },
	fields: [agentLocator()],
	execute: perItem(async function (itemIndex) {
		const agentId = idParameter(this, itemIndex, 'agentId', 'Agent');
		const { payload } = await apiRequest.call(this, 'getAgent', { params: { agentId }, itemIndex });
		return agentOutput(payload as IDataObject);
	}),
};
