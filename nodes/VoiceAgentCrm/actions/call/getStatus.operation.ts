import type { IDataObject } from 'n8n-workflow';

import { callIdField } from './fields';
import { idParameter } from '../../shared/ids';
import type { Operation } from '../../shared/operation';
import { perItem, sample } from '../../shared/operation';
import { withCallId } from '../../shared/results';
import { apiRequest } from '../../transport/request';

export const getCallStatus: Operation = {
	option: {
		name: 'Get Status',
		value: 'getStatus',
		action: 'Get status of call',
		description:
			'Get where a call stands now: scheduled, in queue, ringing, in progress, ended, no answer and the like',
	},
	kind: 'read',
	endpoint: 'getCallStatus',
	example: { callId: sample('call') },
	fields: [callIdField],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const { payload } = await apiRequest.call(this, 'getCallStatus', {
			params: { callId },
			itemIndex,
		});
		return withCallId(payload as IDataObject, callId);
	}),
};
