import type { INodeParameters } from 'n8n-workflow';

/** A resource locator set by ID. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** A well-formed UUID that names no record. */
export const VALID_UUID = '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e9b0c3d';

/** Comment → Create of "Hi" on a contact ID that is valid, by the creator type and email given. */
export const commentBy = (createdByType: string, createdBy?: string): INodeParameters => ({
	resource: 'comment',
	operation: 'create',
	contactId: byId(VALID_UUID),
	content: 'Hi',
	createdByType,
	...(createdBy === undefined ? {} : { createdBy }),
});

/** Event → Send with each input item as one event's JSON. */
export const eventsFromItems = (): INodeParameters => ({
	resource: 'event',
	operation: 'send',
	eventInput: 'json',
	eventJson: '={{ $json }}',
});
