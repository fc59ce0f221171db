import type { INodeParameters } from 'n8n-workflow';

import { insertCall, type Call, type Simulator } from '../../simulator/index.cts';

/** Call → Get with Download Recording into `audio`. */
export const getWithRecording = (callId: string): INodeParameters => ({
	resource: 'call',
	operation: 'get',
	callId,
	downloadRecording: true,
	recordingBinaryProperty: 'audio',
});

/** A finished call whose recording is at `url`. */
export function callWithRecording(sim: Simulator, url: string): Call {
	const call = insertCall(sim, { phase: 'ended', duration: 50 });
	call.call_record = url;
	return call;
}
