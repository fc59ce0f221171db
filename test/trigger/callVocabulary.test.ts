import type { IDataObject } from 'n8n-workflow';

import { recordIsReady } from '../../nodes/VoiceAgentCrm/actions/call/placement/wait';
import {
	FINISHED_RECORD_STATUSES,
	FINISHED_STATUS_VALUES,
	recordIsFinal,
} from '../../nodes/VoiceAgentCrm/shared/callVocabulary';
import { verdictOf, type CallSettings } from '../../nodes/VoiceAgentCrm/shared/callTrigger/record';

/**
 * One rule for "is this finished call's record final", asked by Wait for Outcome and by the
 * trigger's Wait for Analysis. The cases below are those where the two used to answer differently.
 */
const finishedAt = '2026-01-01T10:00:00.000Z';
const now = Date.parse(finishedAt) + 60_000;
const analysis = { summary: 'Spoke', sentiment: 'positive' };
const transcript = [{ role: 'agent', content: 'Hello' }];

function triggerSettings(includeTranscript: boolean): CallSettings {
	return {
		agentId: '',
		directions: [],
		results: [],
		waitForAnalysis: true,
		analysisWaitMs: 15 * 60_000,
		watchMs: 24 * 3_600_000,
		transcript: { includeTranscript },
	} as CallSettings;
}

const CASES: Array<{
	name: string;
	record: IDataObject;
	transcriptWanted: boolean;
	final: boolean;
}> = [
	{
		name: 'a voicemail without start_at, analysis not there yet: a voicemail box answered, so its analysis is coming',
		record: {
			call_status: 'voice_mail',
			call_result: 'voicemail',
			start_at: null,
			call_analysis: null,
			chat_history: null,
		},
		transcriptWanted: true,
		final: false,
	},
	{
		name: 'a voicemail without start_at, analysis and transcript there',
		record: {
			call_status: 'voice_mail',
			call_result: 'voicemail',
			start_at: null,
			call_analysis: analysis,
			chat_history: transcript,
		},
		transcriptWanted: true,
		final: true,
	},
	{
		name: 'an answered call with its analysis but not its transcript, the transcript asked for',
		record: {
			call_status: 'completed',
			call_result: 'answered',
			start_at: finishedAt,
			call_analysis: analysis,
			chat_history: [],
		},
		transcriptWanted: true,
		final: false,
	},
	{
		name: 'the same call, the transcript turned off: the analysis alone is awaited',
		record: {
			call_status: 'completed',
			call_result: 'answered',
			start_at: finishedAt,
			call_analysis: analysis,
			chat_history: [],
		},
		transcriptWanted: false,
		final: true,
	},
	{
		name: 'an empty analysis object is not an analysis',
		record: {
			call_status: 'completed',
			call_result: 'answered',
			start_at: finishedAt,
			call_analysis: {},
			chat_history: transcript,
		},
		transcriptWanted: true,
		final: false,
	},
	{
		name: 'a call nobody answered: nothing to wait for',
		record: {
			call_status: 'no-answer',
			call_result: 'no_answer',
			start_at: null,
			call_analysis: null,
			chat_history: null,
		},
		transcriptWanted: true,
		final: true,
	},
];

describe('The call vocabulary: one "analysis ready" rule for the wait and the trigger', () => {
	it.each(CASES)('$name', ({ record, transcriptWanted, final }) => {
		const call = { id: 'c1', created_at: finishedAt, finished_at: finishedAt, ...record };
		expect(recordIsFinal(call, transcriptWanted)).toBe(final);
		expect(recordIsReady(call, { until: 'analysis', includeTranscript: transcriptWanted })).toBe(
			final,
		);
		expect(verdictOf(call, triggerSettings(transcriptWanted), now)).toBe(final ? 'ready' : 'wait');
	});

	it('holds the finished values of both status vocabularies (API reference, "States")', () => {
		expect([...FINISHED_RECORD_STATUSES].sort()).toEqual([
			'busy',
			'completed',
			'failed',
			'incomplete',
			'no-answer',
			'voice_mail',
		]);
		expect([...FINISHED_STATUS_VALUES].sort()).toEqual([
			'canceled',
			'ended',
			'failed',
			'no_answer',
			'voicemail',
		]);
	});

	it('a live answering-machine record is not finished, whatever it holds', () => {
		const call = {
			id: 'c2',
			call_status: 'answering-machine',
			call_result: 'voicemail',
			created_at: finishedAt,
			call_analysis: analysis,
			chat_history: transcript,
		};
		expect(verdictOf(call, triggerSettings(true), now)).toBe('wait');
	});
});
