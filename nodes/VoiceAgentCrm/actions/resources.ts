import type { INodeProperties } from 'n8n-workflow';

import { resourceOf, type Resource } from '../shared/operation';
import * as agent from './agent';
import * as call from './call';
import * as channel from './channel';
import * as comment from './comment';
import * as contact from './contact';
import * as message from './message';
import * as phoneNumber from './phoneNumber';
import * as event from './event';
import * as tag from './tag';
import * as task from './task';
import * as thread from './thread';
import * as whatsapp from './whatsapp';

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
].map(resourceOf);

export const RESOURCE_SELECTOR: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: RESOURCES.map((r) => r.option),
	default: 'call',
};
