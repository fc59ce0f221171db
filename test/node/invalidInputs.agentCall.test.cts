import type { INodeParameters } from 'n8n-workflow';

import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { refusedBeforeAnyRequest, runContinuingOnFail } from '../helpers/runs.cts';
import { runNode } from '../../harness/engine.cts';

/**
 * Invalid inputs of the Agent and Call operations: each fails its item before any request,
 * with an error that names the item, the field and what is expected. Values typed literally into
 * an ID locator or left empty in a required field are refused by n8n itself before the run (the
 * locator's regex, "required"); the node's own check is what stops them when they come from an
 * expression, so those cases use expressions.
 */

const AGENT = '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d';
const CONTACT = '8d7c6b5a-4e3f-4a1b-9c2d-1e0f2a3b4c5d';
const NUMBER_ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const id = (value: string) => ({ __rl: true, mode: 'id', value });

const phoneCall = (
	overrides: INodeParameters = {},
	additionalFields: INodeParameters = {},
): INodeParameters => ({
	resource: 'call',
	operation: 'placePhoneCall',
	agentId: id(AGENT),
	fromNumber: { __rl: true, mode: 'id', value: '+14155550100' },
	toNumber: '+14155550199',
	fullName: 'Jane Doe',
	additionalFields,
	...overrides,
});

const contactCall = (
	overrides: INodeParameters = {},
	additionalFields: INodeParameters = {},
): INodeParameters => ({
	resource: 'call',
	operation: 'placeContactCall',
	agentId: id(AGENT),
	contactId: id(CONTACT),
	fromNumberId: id(NUMBER_ID),
	additionalFields,
	...overrides,
});

const createAgent = (
	additionalFields: INodeParameters = {},
	overrides: INodeParameters = {},
): INodeParameters => ({
	resource: 'agent',
	operation: 'create',
	name: 'Reminders',
	voice_id: 'voice-en-ava',
	timezone: 'America/New_York',
	additionalFields,
	...overrides,
});

const updateAgent = (updateFields: INodeParameters): INodeParameters => ({
	resource: 'agent',
	operation: 'update',
	agentId: id(AGENT),
	updateFields,
});

const schedule = (dateTime: string, timezone = 'America/New_York') => ({
	schedule: { at: { dateTime, timezone } },
});

const CASES: Array<{ what: string; parameters: INodeParameters; field: string; expected: RegExp }> =
	[
		{
			what: 'a malformed to-number',
			parameters: phoneCall({ toNumber: '+34 600 000 001 ext 2' }),
			field: 'To Number',
			expected: /E\.164/,
		},
		{
			what: 'a to-number without its +',
			parameters: phoneCall({ toNumber: '14155550199' }),
			field: 'To Number',
			expected: /E\.164/,
		},
		{
			what: 'a from-number typed without +',
			parameters: phoneCall({
				fromNumber: { __rl: true, mode: 'id', value: '={{ "4155550100" }}' },
			}),
			field: 'From Number',
			expected: /E\.164/,
		},
		{
			what: 'a non-UUID agent id',
			parameters: phoneCall({ agentId: id('={{ $json.agent ?? "sales-agent" }}') }),
			field: 'Agent',
			expected: /must be a UUID/,
		},
		{
			what: 'an empty full name',
			parameters: phoneCall({ fullName: '  ' }),
			field: 'Full Name',
			expected: /must not be empty/,
		},
		{
			what: 'a negative delay',
			parameters: phoneCall({}, { delay: -5 }),
			field: 'Delay (Minutes)',
			expected: /0 or more/,
		},
		{
			what: 'a wait choice that resolves to null',
			parameters: phoneCall({ waitFor: '={{ null }}' }),
			field: 'Wait for Outcome',
			expected: /must be one of/,
		},
		{
			what: 'a delay and a schedule together',
			parameters: phoneCall({}, { delay: 10, ...schedule('2030-05-01T10:30:00') }),
			field: 'Delay (Minutes)',
			expected: /either a delay or a schedule/,
		},
		{
			what: 'a bad webhook URL',
			parameters: phoneCall({}, { webhookUrl: 'hooks.example.test/call' }),
			field: 'Webhook URL',
			expected: /http:\/\/ or https:\/\//,
		},
		{
			what: 'a malformed schedule date',
			parameters: phoneCall({}, schedule('next tuesday at 10')),
			field: 'Schedule → Date and Time',
			expected: /must be a date and time/,
		},
		{
			what: 'an impossible schedule date',
			parameters: phoneCall({}, schedule('2030-02-30T10:00:00')),
			field: 'Schedule → Date and Time',
			expected: /must be a date and time/,
		},
		{
			what: 'an unknown schedule time zone',
			parameters: phoneCall({}, schedule('2030-05-01T10:30:00', 'Mars/Olympus_Mons')),
			field: 'Schedule → Time Zone',
			expected: /IANA time zone/,
		},
		{
			what: 'a metadata entry without key',
			parameters: phoneCall({}, { metadata: { entries: [{ key: '', value: 'x' }] } }),
			field: 'Metadata',
			expected: /must not be empty/,
		},
		{
			what: 'a non-UUID contact id',
			parameters: contactCall({ contactId: id('={{ "john-smith" }}') }),
			field: 'Contact',
			expected: /must be a UUID/,
		},
		{
			what: 'a non-UUID from-number id',
			parameters: contactCall({ fromNumberId: id('={{ "+14155550100" }}') }),
			field: 'From Number',
			expected: /must be a UUID/,
		},
		{
			what: 'a contact call scheduled in an unknown zone',
			parameters: contactCall({}, schedule('2030-05-01T10:30:00', 'Europe/Atlantis')),
			field: 'Schedule → Time Zone',
			expected: /IANA time zone/,
		},
		{
			what: 'volume 3',
			parameters: createAgent({ volume: 3 }),
			field: 'Volume',
			expected: /from 0\.5 to 2/,
		},
		{
			what: 'a 28,001-character prompt',
			parameters: createAgent({ prompt: 'x'.repeat(28_001) }),
			field: 'Prompt',
			expected: /at most 28,000 characters/,
		},
		{
			what: 'an unknown agent time zone',
			parameters: createAgent({}, { timezone: 'New York' }),
			field: 'Time Zone',
			expected: /IANA time zone/,
		},
		{
			what: 'an empty agent name',
			parameters: createAgent({}, { name: '={{ "" }}' }),
			field: 'Name',
			expected: /must not be empty/,
		},
		{
			what: 'a bad agent webhook URL',
			parameters: createAgent({ webhook_url: 'ftp://example.test/hook' }),
			field: 'Webhook URL',
			expected: /http:\/\/ or https:\/\//,
		},
		{
			what: 'interruption sensitivity 1.5',
			parameters: createAgent({ interruption_sensitivity: 1.5 }),
			field: 'Interruption Sensitivity',
			expected: /from 0 to 1/,
		},
		{
			what: 'a language that is not a code',
			parameters: createAgent({ language: 'English please' }),
			field: 'Language',
			expected: /language code/,
		},
		{
			what: 'tools JSON that is not JSON',
			parameters: createAgent({ tools_json: '[{name: book}]' }),
			field: 'Tools (JSON)',
			expected: /JSON array/,
		},
		{
			what: 'analysis fields as a list and as JSON',
			parameters: createAgent({
				post_call_analysis_data: { entries: [{ name: 'a', type: 'string', description: '' }] },
				post_call_analysis_data_json: '[{"name": "b", "type": "string"}]',
			}),
			field: 'Post-Call Analysis Fields',
			expected: /not both/,
		},
		{
			what: 'an analysis field without name',
			parameters: createAgent({
				post_call_analysis_data: { entries: [{ name: '', type: 'string' }] },
			}),
			field: 'Post-Call Analysis Fields',
			expected: /must not be empty/,
		},
		{
			what: 'an update with nothing to change',
			parameters: updateAgent({}),
			field: 'Update Fields',
			expected: /at least one setting/,
		},
		{
			what: 'an update whose only setting is an empty tools list',
			parameters: updateAgent({ tools_json: '[]' }),
			field: 'Update Fields',
			expected: /at least one setting/,
		},
		{
			what: 'a negative max call duration',
			parameters: updateAgent({ max_call_duration_ms: -1 }),
			field: 'Max Call Duration (Ms)',
			expected: /0 or more/,
		},
		{
			what: 'a non-UUID agent to get',
			parameters: { resource: 'agent', operation: 'get', agentId: id('={{ 42 }}') },
			field: 'Agent',
			expected: /must be a UUID/,
		},
		{
			what: 'a non-UUID call id to get',
			parameters: { resource: 'call', operation: 'get', callId: 'call-123' },
			field: 'Call ID',
			expected: /must be a UUID/,
		},
		{
			what: 'an unknown transcript format',
			parameters: {
				resource: 'call',
				operation: 'get',
				callId: AGENT,
				transcriptOptions: { transcriptFormat: '={{ "xml" }}' },
			},
			field: 'Transcript Options → Transcript Format',
			expected: /json or toon/,
		},
		{
			what: 'a non-UUID call id to stop',
			parameters: { resource: 'call', operation: 'stop', callId: '={{ "" }}' },
			field: 'Call ID',
			expected: /must be a UUID/,
		},
		{
			what: 'a non-UUID call id to cancel',
			parameters: { resource: 'call', operation: 'cancel', callId: '12345' },
			field: 'Call ID',
			expected: /must be a UUID/,
		},
		{
			what: 'a non-UUID status call id',
			parameters: { resource: 'call', operation: 'getStatus', callId: 'abc' },
			field: 'Call ID',
			expected: /must be a UUID/,
		},
		{
			what: 'an unknown call status filter',
			parameters: { resource: 'call', operation: 'getAll', filters: { status: '={{ "done" }}' } },
			field: 'Filters → Record Status',
			expected: /must be one of/,
		},
	];

describe('Agent and Call invalid inputs fail the item before any request', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	it('has at least 14 cases', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(14);
	});

	it.each(CASES)('$what → $field', async ({ parameters, field, expected }) => {
		const message = await refusedBeforeAnyRequest(sim, { parameters });
		expect(message.startsWith(`Item 0: ${field}`)).toBe(true);
		expect(message).toMatch(expected);
	});

	it('n8n itself refuses a malformed ID typed into the Agent locator, before any request', async () => {
		const before = sim.requests.length;
		await expect(
			runNode({
				credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
				parameters: phoneCall({ agentId: id('sales-agent') }),
			}),
		).rejects.toThrow(/Not a valid Agent ID/);
		expect(sim.requests.length).toBe(before);
	});

	it('with Continue On Fail, invalid items become error items paired to their inputs and only the valid ones are placed', async () => {
		const agent = [...sim.org.agents.values()][0];
		const inputs = [
			{ to: '+14155550101' },
			{ to: '555-0102' },
			{ to: '+14155550103' },
			{ to: '+1' },
		];
		const before = sim.requestsTo('POST', '/v1/calls/single-phone-call').length;
		const items = await runContinuingOnFail(
			sim,
			phoneCall({ agentId: id(agent.id), toNumber: '={{ $json.to }}' }),
			inputs,
		);
		expect(items[0].json.call_id).toEqual(expect.any(String));
		expect(items[2].json.call_id).toEqual(expect.any(String));
		expect(items[1].json.error).toMatch(/^Item 1: To Number: .*E\.164.*\(got "555-0102"\)/);
		expect(items[3].json.error).toMatch(/^Item 3: To Number: .*E\.164/);
		const sent = sim.requestsTo('POST', '/v1/calls/single-phone-call').slice(before);
		expect(sent.map((r) => (r.body as { to_number: string }).to_number)).toEqual([
			'+14155550101',
			'+14155550103',
		]);
		expect(sim.org.calls.get(items[0].json.call_id as string)!.to).toBe('+14155550101');
		expect(sim.org.calls.get(items[2].json.call_id as string)!.to).toBe('+14155550103');
	});
});
