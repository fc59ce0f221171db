import type { IDataObject } from 'n8n-workflow';

import { agentCreateBody, agentCreateFields } from './fields';
import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import { apiRequest } from '../../transport/request';
import { agentOutput } from './webhookUrl';

export const createAgent: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create agent',
		description: 'Create a voice AI agent with a name, a voice and a time zone',
	},
	kind: 'write',
	endpoint: 'createAgent',
	example: { name: 'Front desk', voice_id: sample('voice'), timezone: 'America/New_York' },
	fields: agentCreateFields,
	execute: perItem(async function (itemIndex) {
		const body = agentCreateBody(this, itemIndex);
		const { payload } = await apiRequest.call(this, 'createAgent', { body, itemIndex });
		return agentOutput(payload as IDataObject);
	}),
};
