import type { IDataObject } from 'n8n-workflow';

import { callIdField } from './fields';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { apiRequest } from '../../transport/request';

export const cancel: Operation = {
	option: {
		name: 'Cancel Scheduled Call',
		value: 'cancel',
		action: 'Cancel scheduled call',
		description: 'Cancel a scheduled call so that it is never placed',
	},
	endpoint: 'cancelCall',
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const { payload } = await apiRequest.call(this, 'cancelCall', {
			params: { callId },
			itemIndex,
		});
		return payload as IDataObject;
	}),
};
