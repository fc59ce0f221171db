import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

/**
 * What a full call record carries besides its core fields (GET /v1/calls/{callId} query).
 * Written once: Call → Get, the trigger's finished-call output and the node's "wait until the
 * call ends" read the record with the same choices.
 */
const flag = z.boolean({ message: 'must be true or false' }).optional();

/** The options' rules, for `validateItem` with `TRANSCRIPT_LABELS`. */
export const TRANSCRIPT_CHOICES = z.object({
	includeTranscript: flag,
	includeWords: flag,
	includeTools: flag,
	transcriptFormat: z.enum(['json', 'toon'], { message: 'must be json or toon' }).optional(),
});

export type TranscriptChoices = z.infer<typeof TRANSCRIPT_CHOICES>;

export const TRANSCRIPT_LABELS: Record<string, string> = {
	includeTranscript: 'Transcript Options → Include Transcript',
	includeWords: 'Transcript Options → Include Word Timings',
	includeTools: 'Transcript Options → Include Tool Calls',
	transcriptFormat: 'Transcript Options → Transcript Format',
};

/** The options collection; `name` lets a node that has several collections name this one. */
export function transcriptOptionsField(
	name = 'transcriptOptions',
	displayName = 'Transcript Options',
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'What the call record includes besides its status, result, analysis and recording',
		options: [
			{
				displayName: 'Include Tool Calls',
				name: 'includeTools',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the transcript with the tool calls the agent made (field chat_history_with_tools). Only with Include Transcript on.',
			},
			{
				displayName: 'Include Transcript',
				name: 'includeTranscript',
				type: 'boolean',
				default: true,
				description:
					'Whether to include the conversation transcript (field chat_history). Turn it off for a lighter record.',
			},
			{
				displayName: 'Include Word Timings',
				name: 'includeWords',
				type: 'boolean',
				default: false,
				description:
					'Whether each transcript line carries its words with start and end times in seconds. Only with Include Transcript on.',
			},
			{
				displayName: 'Transcript Format',
				name: 'transcriptFormat',
				type: 'options',
				options: [
					{
						name: 'JSON',
						value: 'json',
						description: 'A list of lines, each with role and content',
					},
					{
						name: 'TOON',
						value: 'toon',
						description: 'A compact text encoding that uses fewer tokens when given to an AI model',
					},
				],
				default: 'json',
				description: 'How the transcript is written',
			},
		],
	};
}

/** The record query for the chosen options; unset options keep the API's defaults. */
export function transcriptQuery(choices: TranscriptChoices = {}): IDataObject {
	const query: IDataObject = {};
	if (choices.includeTranscript !== undefined) query.include_transcript = choices.includeTranscript;
	if (choices.includeWords !== undefined) query.include_words = choices.includeWords;
	if (choices.includeTools !== undefined) query.include_tools = choices.includeTools;
	if (choices.transcriptFormat !== undefined) query.transcript_format = choices.transcriptFormat;
	return query;
}
