import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { insertCall, startSimulator, type Call, type Simulator } from '../../simulator/index.cts';

import { recordIsReady } from '../../nodes/VoiceAgentCrm/actions/call/placement/wait';
import {
	FINISHED_RECORD_STATUSES,
	RECORD_STATUS_OPTIONS,
	RECORD_STATUSES,
	recordIsFinal,
	recordIsFinished,
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
/** An answered call's record with its analysis, its transcript not there yet. */
const analysedWithoutTranscript = {
	call_status: 'completed',
	call_result: 'answered',
	start_at: finishedAt,
	call_analysis: analysis,
	chat_history: [],
};

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
		record: analysedWithoutTranscript,
		transcriptWanted: true,
		final: false,
	},
	{
		name: 'the same call, the transcript turned off: the analysis alone is awaited',
		record: analysedWithoutTranscript,
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

/**
 * The vocabulary against the simulator, the independent reading of the API reference: a call in
 * every stage the status endpoint names, read as a record (Call → Get) and as a status (Call → Get
 * Status). The record's status must be one the vocabulary knows, and finished exactly when the
 * status endpoint says `finished`; Call → Get Many's filter offers only statuses the API takes.
 */
describe('The call vocabulary against the API', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false });
	});
	afterAll(() => sim.stop());
	const run = async (parameters: INodeParameters): Promise<IDataObject[]> => {
		const { items, error } = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'call', ...parameters },
		});
		expect(error).toBeUndefined();
		return items.map((item) => item.json);
	};

	const STAGES: Array<Partial<Call>> = [
		{ phase: 'in_queue', call_result: null },
		{ phase: 'scheduled', call_result: null },
		{ phase: 'pending', call_result: null },
		{ phase: 'in_progress', call_result: 'answered' },
		{ phase: 'in_progress', call_result: 'voicemail' },
		{ phase: 'ended', call_result: 'answered' },
		{ phase: 'voicemail', call_result: 'voicemail' },
		{ phase: 'no_answer', call_result: 'no_answer' },
		{ phase: 'no_answer', call_result: 'busy' },
		{ phase: 'failed', call_result: 'failed' },
		{ phase: 'canceled', call_result: null },
	];

	it.each(STAGES)(
		'a call at $phase ($call_result): its record is finished exactly when its status is',
		async (stage) => {
			const { id } = insertCall(sim, stage);
			const [record] = await run({ operation: 'get', callId: id });
			const [status] = await run({ operation: 'getStatus', callId: id });
			expect(RECORD_STATUSES).toContain(record.call_status);
			expect(recordIsFinished(record)).toBe(status.finished);
			expect(FINISHED_RECORD_STATUSES.includes(String(record.call_status))).toBe(status.finished);
		},
	);

	it('Call → Get Many filters by every record status it offers, as the API takes them', async () => {
		for (const stage of STAGES) insertCall(sim, stage);
		const offered = RECORD_STATUS_OPTIONS.map((option) => String(option.value));
		for (const status of offered) {
			const calls = await run({
				operation: 'getAll',
				returnAll: true,
				filters: { status },
			});
			expect(calls.map((call) => call.call_status)).toEqual(calls.map(() => status));
		}
		const seen = new Set(
			(await run({ operation: 'getAll', returnAll: true })).map((c) => c.call_status),
		);
		expect([...seen].sort()).toEqual([...RECORD_STATUSES].sort());
	});
});
