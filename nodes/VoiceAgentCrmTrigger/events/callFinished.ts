import { finishedStatusesInWords } from '../../VoiceAgentCrm/shared/callVocabulary';
import { callFilterFields, callSettings } from '../../VoiceAgentCrm/shared/callTrigger/fields';
import {
	callBaseline,
	callScope,
	newestFinishedCall,
	pollFinishedCalls,
	type CallCursor,
} from '../calls';
import type { CallSettings } from '../../VoiceAgentCrm/shared/callTrigger/record';
import type { PollEvent } from './pollEvent';

export const callFinished: PollEvent<CallSettings, CallCursor> = {
	option: {
		name: 'Call Finished',
		value: 'callFinished',
		description: `A call's record reached a finished status (${finishedStatusesInWords()}). Each call once.`,
	},
	fields: [
		...callFilterFields({
			description:
				"Whether to hold a finished call back until its analysis and transcript have arrived, some seconds after the call ends. Past Max Wait it is emitted without them, with an 'analysis_note'.",
		}),
		{
			displayName: 'Options',
			name: 'callOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [
				{
					displayName: 'Watch Unfinished Calls For (Hours)',
					name: 'watchHours',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 24,
					description:
						'How long after its creation a call that has not finished yet is still watched (scheduled calls may take long to start). A call finishing later than this is not emitted.',
				},
			],
		},
	],
	stateKey: 'calls',
	settings: callSettings,
	scope: callScope,
	baseline: callBaseline,
	poll: pollFinishedCalls,
	sample: newestFinishedCall,
};
