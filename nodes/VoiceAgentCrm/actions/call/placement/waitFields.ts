import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import {
	TRANSCRIPT_CHOICES,
	TRANSCRIPT_LABELS,
	transcriptOptionsField,
	transcriptQuery,
} from '../../../shared/transcriptOptions';
import { numberWithin, validateItem } from '../../../shared/validation';

/**
 * The "wait for the outcome" fields of both Place operations, written once: what to wait for,
 * the wait's bounds and mode, and what the returned call record includes (the options of Get).
 */

export type WaitUntil = 'ended' | 'analysis';

// an AI Agent waits for its tool's answer and can read the call later (Get Status, Get): the tool
// form (n8n's `@tool`) offers no wait, and a wait left in saved parameters is dropped there
const NOT_IN_TOOL = { show: { '@tool': [false] } };

const WAIT_HIDDEN = { ...NOT_IN_TOOL, hide: { waitFor: ['none'] } };

export const waitForField: INodeProperties = {
	displayName: 'Wait for Outcome',
	name: 'waitFor',
	type: 'options',
	noDataExpression: true,
	displayOptions: NOT_IN_TOOL,
	options: [
		{
			name: "Don't Wait",
			value: 'none',
			description: 'Return the call ID as soon as the call is placed',
		},
		{
			name: 'Until the Call Ends',
			value: 'ended',
			description:
				'Return the full call record as soon as the call has ended (the analysis and transcript may not be there yet)',
		},
		{
			name: 'Until Its Analysis Is Ready',
			value: 'analysis',
			description:
				'Return the full call record once its AI analysis, recording and transcript have arrived, seconds after the call ends',
		},
	],
	default: 'none',
	description:
		'Whether the node waits for the call and returns its record (outcome, analysis, transcript) for the next node',
};

/** Free the Worker While Waiting, in the words of the operation that waits. */
export const freeTheWorkerField = (description: string): INodeProperties => ({
	displayName: 'Free the Worker While Waiting',
	name: 'resumeByWebhook',
	type: 'boolean',
	noDataExpression: true,
	default: false,
	description,
});

export const waitOptionsField: INodeProperties = {
	displayName: 'Wait Options',
	name: 'waitOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: WAIT_HIDDEN,
	options: [
		freeTheWorkerField(
			"Whether the execution waits like n8n's Wait node and resumes from the call's webhooks; n8n must be reachable from the service",
		),
		{
			displayName: 'Hang Up at Timeout',
			name: 'hangUpAtTimeout',
			type: 'boolean',
			default: false,
			description:
				'Whether to hang up a call still live when the maximum wait runs out; otherwise the call goes on and the item fails',
		},
		{
			displayName: 'Max Wait (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				"Longest wait for each call from its placement; 0 derives it from the agent's maximum call duration",
		},
	],
};

export const waitTranscriptOptionsField: INodeProperties = {
	...transcriptOptionsField(),
	displayOptions: WAIT_HIDDEN,
};

export const WAIT_FIELDS = [waitForField, waitOptionsField, waitTranscriptOptionsField];

/** What one item asked of its wait. */
export interface WaitSettings {
	until: WaitUntil;
	/** User-set bound from placement; undefined derives it from the agent. */
	maxWaitMs?: number;
	hangUpAtTimeout: boolean;
	resumeByWebhook: boolean;
	/** Query of the record read (Get's transcript options). */
	recordQuery: Record<string, string | boolean>;
	includeTranscript: boolean;
}

const WAIT_FOR = z.object({
	waitFor: z.enum(['none', 'ended', 'analysis'], {
		message: "must be one of none (Don't Wait), ended or analysis",
	}),
});

const WAIT_OPTIONS = z.object({
	maxWaitMinutes: numberWithin(
		0,
		undefined,
		'must be a number of minutes, 0 or more (0 derives it from the agent)',
	).optional(),
	hangUpAtTimeout: z.boolean({ message: 'must be true or false' }).optional(),
});

const WAIT_LABELS = {
	maxWaitMinutes: 'Wait Options → Max Wait (Minutes)',
	hangUpAtTimeout: 'Wait Options → Hang Up at Timeout',
};

/** The wait an item asked for, checked; undefined when the node does not wait. */
export function waitSettingsOf(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings | undefined {
	// checked, so that an expression resolving to null or a typo never starts an open-ended wait
	const { waitFor: until } = validateItem(
		context,
		WAIT_FOR,
		{ waitFor: context.getNodeParameter('waitFor', itemIndex, 'none') },
		itemIndex,
		{
			waitFor: 'Wait for Outcome',
		},
	);
	if (until === 'none') return undefined;
	const options = context.getNodeParameter('waitOptions', itemIndex, {}) as Record<string, unknown>;
	const checked = validateItem(
		context,
		WAIT_OPTIONS,
		{ maxWaitMinutes: options.maxWaitMinutes, hangUpAtTimeout: options.hangUpAtTimeout },
		itemIndex,
		WAIT_LABELS,
	);
	const choices = validateItem(
		context,
		TRANSCRIPT_CHOICES,
		context.getNodeParameter('transcriptOptions', itemIndex, {}),
		itemIndex,
		TRANSCRIPT_LABELS,
	);
	return {
		until,
		maxWaitMs: checked.maxWaitMinutes ? checked.maxWaitMinutes * 60_000 : undefined,
		hangUpAtTimeout: checked.hangUpAtTimeout === true,
		// one mode for the whole execution: it decides whether the execution itself waits
		resumeByWebhook: context.getNodeParameter('waitOptions.resumeByWebhook', 0, false) === true,
		recordQuery: transcriptQuery(choices) as Record<string, string | boolean>,
		includeTranscript: choices.includeTranscript !== false,
	};
}
