import type { INodeProperties } from 'n8n-workflow';

import { agentLocator, channelLocator } from '../VoiceAgentCrm/shared/locators';
import { transcriptOptionsField } from '../VoiceAgentCrm/shared/transcriptOptions';

const onCalls = { displayOptions: { show: { event: ['callFinished'] } } };
const onThreads = { displayOptions: { show: { event: ['threadChanged'] } } };

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Call Finished',
				value: 'callFinished',
				description: 'A call reached a finished status (completed, no answer, busy, voicemail, failed or canceled). Each call once.',
			},
			{
				name: 'Thread Changed',
				value: 'threadChanged',
				description: 'A conversation thread was opened or closed, assigned, or updated. Each change once, with its state before and after.',
			},
		],
		default: 'callFinished',
	},
	{
		...agentLocator('agentId', 'Agent', false),
		description: 'Only calls of this voice agent. Leave empty for calls of every agent.',
		...onCalls,
	},
	{
		displayName: 'Direction',
		name: 'directions',
		type: 'multiOptions',
		options: [
			{ name: 'Inbound', value: 'inbound' },
			{ name: 'Outbound', value: 'outbound' },
		],
		default: [],
		description: 'Only calls in these directions. Leave empty for both.',
		...onCalls,
	},
	{
		displayName: 'Result',
		name: 'results',
		type: 'multiOptions',
		options: [
			{ name: 'Answered', value: 'answered' },
			{ name: 'Busy', value: 'busy' },
			{ name: 'Failed', value: 'failed' },
			{ name: 'No Answer', value: 'no_answer' },
			{ name: 'Voicemail', value: 'voicemail' },
		],
		default: [],
		description: 'Only calls with these results. Leave empty for every result (canceled calls have none).',
		...onCalls,
	},
	{
		displayName: 'Wait for Analysis',
		name: 'waitForAnalysis',
		type: 'boolean',
		default: false,
		description:
			'Whether to hold a finished call back until its analysis and transcript have arrived (they come some seconds after the call ends). Past Max Wait it is emitted without them, and its analysis_note says so.',
		...onCalls,
	},
	{
		displayName: 'Max Wait (Minutes)',
		name: 'analysisWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 15,
		description: 'How long after a call finished to wait for its analysis and transcript before emitting it without them',
		displayOptions: { show: { event: ['callFinished'], waitForAnalysis: [true] } },
	},
	{ ...transcriptOptionsField(), ...onCalls },
	{
		displayName: 'Options',
		name: 'callOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		...onCalls,
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
	{
		displayName: 'Emit On',
		name: 'threadEvents',
		type: 'multiOptions',
		options: [
			{ name: 'Any Update', value: 'anyUpdate', description: 'Every update of the thread, a new message included' },
			{ name: 'Assignment Changes', value: 'assignment', description: 'The thread was assigned to someone else, or unassigned' },
			{ name: 'Status Changes', value: 'status', description: 'The thread was opened or closed' },
		],
		default: ['status'],
		required: true,
		...onThreads,
	},
	{
		...channelLocator('channelId', 'Channel', false),
		description: 'Only threads of this messaging channel. Leave empty for every channel.',
		...onThreads,
	},
	{
		displayName: 'Status',
		name: 'threadStatuses',
		type: 'multiOptions',
		options: [
			{ name: 'Closed', value: 'closed' },
			{ name: 'Open', value: 'open' },
		],
		default: [],
		description: 'Only threads that have these statuses after the change. Leave empty for any status.',
		...onThreads,
	},
];
