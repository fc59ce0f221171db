import type { IDataObject, INodeProperties, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordingFields, recordingProperty } from '../recording';
import { CALL_RESULT_OPTIONS } from '../callVocabulary';
import { agentLocator } from '../locators';
import { TRANSCRIPT_CHOICES, transcriptOptionsField } from '../transcriptOptions';
import type { CallSettings } from './record';

/** What reads a trigger's parameters: a poll, or a webhook delivery of the instant trigger. */
export type TriggerContext = IPollFunctions | IWebhookFunctions;

/** The filters and output options of call events, the same in the polling and the instant trigger. */
export function callFilterFields(analysisOption: { description: string }): INodeProperties[] {
	return [
		{
			...agentLocator(false),
			description: 'Only calls of this voice agent. Leave empty for calls of every agent.',
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
		},
		{
			displayName: 'Result',
			name: 'results',
			type: 'multiOptions',
			options: CALL_RESULT_OPTIONS,
			default: [],
			description:
				'Only calls with these results. Leave empty for every result (canceled calls have none).',
		},
		{
			displayName: 'Wait for Analysis',
			name: 'waitForAnalysis',
			type: 'boolean',
			default: false,
			description: analysisOption.description,
		},
		{
			displayName: 'Max Wait (Minutes)',
			name: 'analysisWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 15,
			description:
				'How long after a call finished to wait for its analysis and transcript before emitting it without them',
			displayOptions: { show: { waitForAnalysis: [true] } },
		},
		transcriptOptionsField(),
		...recordingFields(),
	];
}

function locatorValue(context: TriggerContext, name: string): string {
	return String(context.getNodeParameter(name, '', { extractValue: true }) ?? '').trim();
}

function minutes(value: unknown): number {
	const n = Number(value);
	return (Number.isFinite(n) && n > 0 ? n : 1) * 60_000;
}

/**
 * The call event settings of a trigger, checked before any request. `agentFilter` false: the Agent
 * filter is hidden (the instant trigger's registration on agents chooses the agents instead).
 */
export function callSettings(context: TriggerContext, agentFilter = true): CallSettings {
	const transcript = TRANSCRIPT_CHOICES.safeParse(
		context.getNodeParameter('transcriptOptions', {}),
	);
	if (!transcript.success) {
		throw new NodeOperationError(
			context.getNode(),
			`Transcript Options: ${transcript.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
		);
	}
	const options = context.getNodeParameter('callOptions', {}) as IDataObject;
	const waitForAnalysis = context.getNodeParameter('waitForAnalysis', false) as boolean;
	return {
		agentId: agentFilter ? locatorValue(context, 'agentId') : '',
		directions: context.getNodeParameter('directions', []) as string[],
		results: context.getNodeParameter('results', []) as string[],
		waitForAnalysis,
		analysisWaitMs: waitForAnalysis
			? minutes(context.getNodeParameter('analysisWaitMinutes', 15))
			: 0,
		watchMs: 60 * minutes(options.watchHours ?? 24),
		transcript: transcript.data,
		recordingProperty: recordingProperty(context),
	};
}
