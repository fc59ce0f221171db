import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { channelLocator } from '../../VoiceAgentCrm/shared/locators';
import {
	newestThread,
	pollThreadChanges,
	threadBaseline,
	threadScope,
	type ThreadCursor,
	type ThreadEvent,
	type ThreadSettings,
} from '../threads';
import { jsonItems, type PollEvent } from './pollEvent';

function threadSettings(context: IPollFunctions): ThreadSettings {
	const events = context.getNodeParameter('threadEvents', ['status']) as ThreadEvent[];
	if (!events.length) {
		throw new NodeOperationError(
			context.getNode(),
			'Choose at least one change to emit on (Emit On).',
		);
	}
	return {
		channelId: String(
			context.getNodeParameter('channelId', '', { extractValue: true }) ?? '',
		).trim(),
		events,
		statuses: context.getNodeParameter('threadStatuses', []) as string[],
	};
}

export const threadChanged: PollEvent<ThreadSettings, ThreadCursor> = {
	option: {
		name: 'Thread Changed',
		value: 'threadChanged',
		description:
			'A conversation thread was opened or closed, assigned, or updated. Each change once, with its state before and after.',
	},
	fields: [
		{
			displayName: 'Emit On',
			name: 'threadEvents',
			type: 'multiOptions',
			options: [
				{
					name: 'Any Update',
					value: 'anyUpdate',
					description: 'Every update of the thread, a new message included',
				},
				{
					name: 'Assignment Changes',
					value: 'assignment',
					description: 'The thread was assigned to someone else, or unassigned',
				},
				{ name: 'Status Changes', value: 'status', description: 'The thread was opened or closed' },
			],
			default: ['status'],
			required: true,
		},
		{
			...channelLocator(false),
			description: 'Only threads of this messaging channel. Leave empty for every channel.',
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
			description:
				'Only threads that have these statuses after the change. Leave empty for any status.',
		},
	],
	stateKey: 'threads',
	settings: threadSettings,
	scope: threadScope,
	baseline: (context, settings) => threadBaseline(context, settings),
	poll: async (context, cursor, settings) =>
		jsonItems(await pollThreadChanges(context, cursor, settings)),
	sample: async (context, settings) => {
		const thread = await newestThread(context, settings);
		return thread ? { json: thread } : undefined;
	},
};
