import type { IDataObject } from 'n8n-workflow';

import { agentUpdateBody, agentUpdateCollection } from './fields';
import { idParameter } from '../../shared/ids';
import { agentLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import { agentOutput } from './webhookUrl';

export const updateAgent: Operation = {
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update agent',
		description: 'Change settings of a voice AI agent; settings not given keep their values',
	},
	kind: 'write',
	endpoint: 'updateAgent',
	example: { agentId: sampleById('agent'), updateFields: { name: 'Renamed' } },
	fields: [agentLocator(), agentUpdateCollection],
	execute: perItem(async function (itemIndex) {
		const agentId = idParameter(this, itemIndex, 'agentId', 'Agent');
		const body = agentUpdateBody(this, itemIndex);
		const { payload } = await apiRequest.call(this, 'updateAgent', {
			params: { agentId },
			body,
			itemIndex,
		});
		return agentOutput(payload as IDataObject);
	}),
};
