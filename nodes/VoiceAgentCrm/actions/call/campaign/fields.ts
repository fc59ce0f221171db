import type { INodeProperties } from 'n8n-workflow';

import { MAX_COUNT_PAGES } from '../../../shared/callsPerPerson';
import { CALL_RESULT_OPTIONS } from '../../../shared/callVocabulary';
import { timeZoneLocator } from '../../../shared/locators';
import { additionalDataField, metadataField } from '../fields';
import { doNotCallField, maxCallsPerPersonField } from '../placement/guards';
import { freeTheWorkerField } from '../placement/waitFields';

/** Run Campaign's own fields (the agent, numbers and name are those of Place AI Call). */

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const maxLiveCallsField: INodeProperties = {
	displayName: 'Max Live Calls',
	name: 'maxLiveCalls',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100 },
	default: 5,
	description:
		'Most calls of this run ringing, in progress or scheduled at once; the other people wait their turn',
};

const callingHoursField: INodeProperties = {
	displayName: 'Calling Hours',
	name: 'callingHours',
	type: 'options',
	options: [
		{
			name: 'Lawful for the Person (Default)',
			value: 'lawful',
			description:
				"The window below, narrowed to the calling hours, Sundays and holidays of the person's state, province or country (see the package's calling rules). An aid, not legal advice.",
		},
		{
			name: 'Only My Window',
			value: 'window',
			description: "The window below alone: the law of each person's place is yours to keep",
		},
	],
	default: 'lawful',
	description:
		"When calls may start, in the person's time zone; each output item names the rule that applied",
};

const callDaysField: INodeProperties = {
	displayName: 'Call On',
	name: 'callDays',
	type: 'multiOptions',
	options: WEEKDAYS.map((name, at) => ({ name, value: at + 1 })),
	default: [1, 2, 3, 4, 5],
	description: "Days on which calls may start, in the person's time zone",
};

/** Every half hour of the day, and 24:00 for the end of the day. */
const HALF_HOURS = Array.from({ length: 49 }, (_, at) => {
	const time = `${String(Math.floor(at / 2)).padStart(2, '0')}:${at % 2 ? '30' : '00'}`;
	return { name: time, value: time };
});

const callFromField: INodeProperties = {
	displayName: 'Call From',
	name: 'callFrom',
	type: 'options',
	options: HALF_HOURS.slice(0, -1),
	default: '09:00',
	description: "First time of day a call may start, in the person's time zone (24-hour clock)",
};

const callUntilField: INodeProperties = {
	displayName: 'Call Until',
	name: 'callUntil',
	type: 'options',
	options: HALF_HOURS.slice(1),
	default: '17:00',
	description:
		"Time of day from which no call starts, in the person's time zone; a call started before may go on",
};

const personZoneField: INodeProperties = {
	displayName: 'Person Time Zone',
	name: 'personTimeZone',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.timezone }}',
	description:
		'IANA time zone of the person, e.g. Europe/Madrid, usually from a column. Empty: read from the number (a US or Canadian area code, or a country with one time zone).',
};

const zoneFallbackField: INodeProperties = {
	displayName: 'If the Time Zone Is Unknown',
	name: 'zoneFallback',
	type: 'options',
	options: [
		{
			name: 'Skip the Person',
			value: 'skip',
			description: 'Report the person as not called, with the reason',
		},
		{
			name: 'Use a Time Zone',
			value: 'zone',
			description:
				'Call within the window in the time zone chosen below; the output says it was used',
		},
	],
	default: 'skip',
	description:
		'What to do when the person has no time zone and the number does not tell it (e.g. a mobile number of a country with several zones)',
};

const fallbackZoneField: INodeProperties = {
	...timeZoneLocator('Time zone used for people whose own is unknown', true),
	displayOptions: { show: { zoneFallback: ['zone'] } },
};

const redialOnField: INodeProperties = {
	displayName: 'Redial On',
	name: 'redialOn',
	type: 'multiOptions',
	options: CALL_RESULT_OPTIONS.filter((option) => option.value !== 'answered'),
	default: ['no_answer', 'busy'],
	description: 'Results after which the person is called again, within the window',
};

const redialAfterField: INodeProperties = {
	displayName: 'Redial After (Minutes)',
	name: 'redialAfterMinutes',
	type: 'number',
	// 30 days: the longest Remember Calls For, within which every redial must fall
	typeOptions: { minValue: 1, maxValue: 43_200 },
	default: 60,
	description:
		'Minutes from the end of a call to the next call to the same person, at the least; at most Options → Remember Calls For (10,080 minutes for the default 7 days)',
};

const maxTriesField: INodeProperties = {
	displayName: 'Max Tries',
	name: 'maxTries',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 10 },
	default: 3,
	description:
		'Calls to one person at most, the first one included (3 = the first call and 2 redials)',
};

/** How long calls are remembered: a person another campaign called in it is skipped. */
export const DEFAULT_REMEMBER_DAYS = 7;

const campaignOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'campaignOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		additionalDataField,
		{
			...doNotCallField,
			description:
				"The do-not-call lists the campaign honours: a person on one is not called, and the item says so (skipped_for: do_not_call). Without this option the organization's list is honoured.",
		},
		freeTheWorkerField(
			"Whether the execution waits like n8n's Wait node between calls and goes on from the calls' webhooks; n8n must be reachable from the service",
		),
		{
			...maxCallsPerPersonField,
			description: `Calls at most to one person in the period, counting every call the organization made to the number (any workflow or agent): a call over the cap waits until the period allows it. Costs one call listing request per 1,000 calls of the period, at most ${MAX_COUNT_PAGES}, per run.`,
		},
		metadataField,
		{
			displayName: 'Remember Calls For (Days)',
			name: 'rememberDays',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 30 },
			default: DEFAULT_REMEMBER_DAYS,
			description:
				"People another workflow's or node's campaign called in this many days are skipped (see Remember Calls Of); a run of this node goes on with the calls its earlier runs made to its people, whatever list they ran",
		},
		{
			displayName: 'Remember Calls Of',
			name: 'rememberCallsOf',
			type: 'options',
			options: [
				{
					name: 'Every Workflow',
					value: 'organization',
					description:
						"Every campaign of the organization's workflows: a copy of this workflow calls nobody again",
				},
				{
					name: 'This Workflow',
					value: 'workflow',
					description: "This workflow's campaigns only: another workflow's calls do not count",
				},
			],
			default: 'organization',
			description: 'Whose campaign calls make a person already called',
		},
	],
};

export const CAMPAIGN_FIELDS: INodeProperties[] = [
	maxLiveCallsField,
	callingHoursField,
	callDaysField,
	callFromField,
	callUntilField,
	personZoneField,
	zoneFallbackField,
	fallbackZoneField,
	redialOnField,
	redialAfterField,
	maxTriesField,
	campaignOptionsField,
];
