import type { IDataObject } from 'n8n-workflow';

import { callIdField } from './fields';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const getStatus: Operation = {
	option: {
		name: 'Get Status',
		value: 'getStatus',
		action: 'Get status of call',
		description:
			'Get where a call stands now: scheduled, in queue, ringing, in progress, ended, no answer and the like',
	},
	endpoint: 'getCallStatus',
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const { payload } = await apiRequest.call(this, 'getCallStatus', {
			params: { callId },
			itemIndex,
		});
		return payload as IDataObject;
	}),
};
