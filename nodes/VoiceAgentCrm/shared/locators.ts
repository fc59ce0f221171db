import type { INodeProperties, INodeParameterResourceLocator } from 'n8n-workflow';

import { PHONE_INPUT_HINT } from './fields';
import { UUID_PATTERN } from './text';

/**
 * Resource locator fields for things the API can list, written once and used by every operation
 * (and the trigger) that needs them. Each offers a searchable list and an ID mode.
 */

interface LocatorSpec {
	displayName: string;
	name: string;
	searchListMethod: string;
	description: string;
	placeholder: string;
	/** Regex the ID mode checks in the editor; none for ids that are not UUIDs. */
	idPattern?: string;
	/**
	 * The typed mode's name and label, where the value is not an ID. n8n labels a mode named `id`
	 * "By ID" whatever its displayName says, so such a mode needs a name of its own. Saved
	 * workflows keep the mode name: n8n reads a value whose mode is no longer declared as it is,
	 * so values saved under `id` before the rename still run.
	 */
	typed?: { name: string; displayName: string; hint?: string };
	/** False where the thing is an optional filter (the trigger's agent and channel). */
	required?: boolean;
	/** Placeholder of the list mode's search box. */
	searchPlaceholder?: string;
}

/**
 * The value of a locator read without `extractValue`, as collections give it (a time zone inside
 * Additional Fields or Schedule); a plain string (an older workflow, an expression) is itself.
 */
export function locatorValue(value: unknown): unknown {
	if (value && typeof value === 'object' && (value as INodeParameterResourceLocator).__rl) {
		return (value as INodeParameterResourceLocator).value;
	}
	return value;
}

function locator(spec: LocatorSpec): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: spec.required ?? true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
				...(spec.searchPlaceholder && { placeholder: spec.searchPlaceholder }),
			},
			{
				displayName: spec.typed?.displayName ?? 'By ID',
				name: spec.typed?.name ?? 'id',
				type: 'string',
				placeholder: spec.placeholder,
				...(spec.typed?.hint && { hint: spec.typed.hint }),
				validation: spec.idPattern
					? [
							{
								type: 'regex',
								properties: {
									regex: spec.idPattern,
									errorMessage: `Not a valid ${spec.displayName} ID`,
								},
							},
						]
					: undefined,
			},
		],
	};
}

export const agentLocator = (required = true): INodeProperties =>
	locator({
		required,
		displayName: 'Agent',
		name: 'agentId',
		searchListMethod: 'searchAgents',
		description: 'The voice AI agent',
		placeholder: 'e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d',
		idPattern: UUID_PATTERN,
	});

export const contactLocator = (name = 'contactId', displayName = 'Contact'): INodeProperties =>
	locator({
		displayName,
		name,
		searchListMethod: 'searchContacts',
		description: 'The contact',
		placeholder: 'e.g. 8d7c6b5a-4e3f-4a1b-9c2d-1e0f2a3b4c5d',
		idPattern: UUID_PATTERN,
	});

export const channelLocator = (required = true): INodeProperties =>
	locator({
		required,
		displayName: 'Channel',
		name: 'channelId',
		searchListMethod: 'searchChannels',
		description: 'The messaging channel',
		placeholder: 'e.g. chn_2a6f8e9b',
	});

/** WhatsApp sends: the list offers active WABA channels only (another channel is refused before sending). */
export const wabaChannelLocator = (): INodeProperties =>
	locator({
		displayName: 'Channel',
		name: 'channelId',
		searchListMethod: 'searchWabaChannels',
		description: 'The active WhatsApp Business (WABA) channel that sends',
		placeholder: 'e.g. chn_2a6f8e9b',
	});

/** A call, from the recent calls (newest first) or by its ID. */
export const callLocator = (): INodeProperties =>
	locator({
		displayName: 'Call',
		name: 'callId',
		searchListMethod: 'searchCalls',
		description: 'The call: a recent one from the list, or the call ID that Place AI Call returned',
		placeholder: 'e.g. 7c9e6679-7425-40de-944b-e07fc1f90ae7',
		searchPlaceholder: 'Search by name, number or status',
		idPattern: UUID_PATTERN,
	});

/** An IANA time zone from the runtime's list, or typed (or mapped) by name; checked when the item runs. */
export const timeZoneLocator = (description: string, required: boolean): INodeProperties =>
	locator({
		required,
		displayName: 'Time Zone',
		name: 'timezone',
		searchListMethod: 'searchTimeZones',
		description,
		placeholder: 'e.g. America/New_York',
		searchPlaceholder: 'Search, e.g. Madrid',
		typed: { name: 'zone', displayName: 'By Name' },
	});

export const threadLocator = (name = 'threadId', displayName = 'Thread'): INodeProperties =>
	locator({
		displayName,
		name,
		searchListMethod: 'searchThreads',
		description: 'The conversation thread',
		placeholder: 'e.g. thr-5d4a4e7b',
	});

/** The organization number a call is placed from, as its E.164 number (phone-number calls). */
export const fromNumberLocator = (): INodeProperties =>
	locator({
		displayName: 'From Number',
		name: 'fromNumber',
		searchListMethod: 'searchPhoneNumbers',
		description:
			"Your organization's number the call comes from, in E.164 format (+ and country code), e.g. +14155550100",
		placeholder: 'e.g. +14155550100',
		// the hint of the typed mode only: n8n shows a mode's hint instead of the field's
		typed: { name: 'number', displayName: 'By Number', hint: PHONE_INPUT_HINT },
		// as pasted: spaces, dashes, dots and parentheses are dropped before the E.164 check of the run
		idPattern: '^\\+[\\d\\s().-]{8,}$',
	});

/** The organization number a call is placed from, as its ID (contact calls). */
export const fromNumberIdLocator = (): INodeProperties =>
	locator({
		displayName: 'From Number',
		name: 'fromNumberId',
		searchListMethod: 'searchPhoneNumberIds',
		description: 'A phone number registered in your organization, which the call comes from',
		placeholder: 'e.g. 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
		idPattern: UUID_PATTERN,
	});

export const tagLocator = (name = 'tagId', displayName = 'Tag'): INodeProperties =>
	locator({
		displayName,
		name,
		searchListMethod: 'searchTags',
		description: 'The tag',
		placeholder: 'e.g. tag-3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d',
	});

export const taskLocator = (name = 'taskId', displayName = 'Task'): INodeProperties =>
	locator({
		displayName,
		name,
		searchListMethod: 'searchTasks',
		description: 'The task',
		placeholder: 'e.g. 5d4a4e7b-9c1d-4a6f-8e9b-0c3d3f2b8c1e',
		idPattern: UUID_PATTERN,
	});
