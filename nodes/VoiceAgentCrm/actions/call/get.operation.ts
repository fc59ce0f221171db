import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { callIdField } from './fields';
import { idParameter } from '../../shared/ids';
import { withCallId } from '../../shared/results';
import type { Operation } from '../../shared/operation';
import { attachRecording, recordingFields, recordingProperty } from '../../shared/recording';
import { ItemWithBinary, perItem, sample } from '../../shared/operation';
import {
	TRANSCRIPT_CHOICES,
	TRANSCRIPT_LABELS,
	transcriptOptionsField,
	transcriptQuery,
} from '../../shared/transcriptOptions';
import { validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

export const getCall: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get call',
		description:
			'Get the full record of a call by its call ID: record status, outcome, recording, analysis and transcript',
	},
	kind: 'read',
	endpoint: 'getCall',
	example: { callId: sample('call') },
	fields: [callIdField, transcriptOptionsField(), ...recordingFields()],
	execute: perItem(async function (itemIndex) {
		const callId = idParameter(this, itemIndex, 'callId', 'Call ID');
		const choices = validateItem(
			this,
			TRANSCRIPT_CHOICES,
			this.getNodeParameter('transcriptOptions', itemIndex, {}),
			itemIndex,
			TRANSCRIPT_LABELS,
		);
		const recordingTo = recordingProperty(this, itemIndex);
		const { payload } = await apiRequest.call(this, 'getCall', {
			params: { callId },
			query: transcriptQuery(choices),
			itemIndex,
		});
		const item: INodeExecutionData = { json: withCallId(payload as IDataObject) };
		if (recordingTo) await attachRecording(this, item, recordingTo, 'fail', itemIndex);
		return new ItemWithBinary(item);
	}),
};
