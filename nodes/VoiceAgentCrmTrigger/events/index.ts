import type { INodeProperties } from 'n8n-workflow';

import { callFinished } from './callFinished';
import type { PollEvent } from './pollEvent';
import { threadChanged } from './threadChanged';

/** Every event of the polling trigger, in the order the Event list shows them. */
export const POLL_EVENTS: PollEvent[] = [callFinished, threadChanged];

export function pollEventOf(value: string): PollEvent {
	return POLL_EVENTS.find((event) => event.option.value === value) ?? POLL_EVENTS[0];
}

/** The Event selector and every event's fields, each shown only for its event. */
export function pollEventProperties(): INodeProperties[] {
	const selector: INodeProperties = {
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: POLL_EVENTS.map((event) => event.option),
		// the first event of the registry (a literal, as n8n's lint requires)
		default: 'callFinished',
	};
	const fields = POLL_EVENTS.flatMap((event) =>
		event.fields.map((field) => ({
			...field,
			displayOptions: {
				...field.displayOptions,
				show: { ...field.displayOptions?.show, event: [event.option.value] },
			},
		})),
	);
	return [selector, ...fields];
}

/** The node's subtitle: the chosen event's name. */
export function pollEventSubtitle(): string {
	const names = Object.fromEntries(
		POLL_EVENTS.map((event) => [event.option.value, event.option.name]),
	);
	return `={{ ${JSON.stringify(names)}[$parameter["event"]] }}`;
}
