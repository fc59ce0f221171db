import type { IDataObject } from 'n8n-workflow';

import { callIdField } from './fields';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const stop: Operation = {
	option: {
		name: 'Stop',
		value: 'stop',
		action: 'Stop a call',
		description: 'Hang up a call that is ringing or in progress, by its call ID',
	},
	endpoint: 'stopCall',
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const { payload } = await apiRequest.call(this, 'stopCall', { params: { callId }, itemIndex });
		return payload as IDataObject;
	}),
};
