import type { INodeProperties } from 'n8n-workflow';

import type { Resource } from '../shared/operation';
import { agent } from './agent';
import { call } from './call';
import { channel } from './channel';
import { comment } from './comment';
import { contact } from './contact';
import { message } from './message';
import { phoneNumber } from './phoneNumber';
import { event } from './event';
import { tag } from './tag';
import { task } from './task';
import { thread } from './thread';
import { whatsapp } from './whatsapp';

/** Every resource of the node, in the order the resource list shows them. */
export const RESOURCES: Resource[] = [
	call,
	agent,
	phoneNumber,
	comment,
	contact,
	tag,
	task,
	event,
	channel,
	thread,
	message,
	whatsapp,
];

export const RESOURCE_SELECTOR: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: RESOURCES.map((r) => r.option),
	default: 'call',
};
