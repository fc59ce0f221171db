import { readFileSync } from 'node:fs';
import path from 'node:path';

import { RESOURCES } from '../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS, type EndpointName } from '../nodes/VoiceAgentCrm/transport/endpoints';

/**
 * The README's operation table is written by hand; this keeps it equal to the node: every
 * resource and operation, the request each sends, and whether the API reference documents it.
 */

/** The endpoint each operation sends its request to (`resource.operation`). */
const OPERATION_ENDPOINTS: Record<string, EndpointName> = {
	'call.cancel': 'cancelCall',
	'call.get': 'getCall',
	'call.getMany': 'listCalls',
	'call.getStatus': 'getCallStatus',
	'call.placePhoneCall': 'placePhoneCall',
	'call.placeContactCall': 'placeContactCall',
	'call.stop': 'stopCall',
	'agent.create': 'createAgent',
	'agent.get': 'getAgent',
	'agent.getMany': 'listAgents',
	'agent.listVoices': 'listVoices',
	'agent.update': 'updateAgent',
	'phoneNumber.getAll': 'listPhoneNumbers',
	'comment.create': 'createComment',
	'contact.create': 'createContact',
	'contact.delete': 'deleteContact',
	'contact.getComments': 'listContactComments',
	'contact.getAll': 'listContacts',
	'contact.getTags': 'listContactTags',
	'contact.update': 'updateContact',
	'tag.create': 'createTag',
	'tag.delete': 'deleteTag',
	'tag.getAll': 'listTags',
	'task.create': 'createTask',
	'task.get': 'getTask',
	'task.getAll': 'listTasks',
	'event.send': 'sendEvents',
	'channel.getMany': 'listChannels',
	'thread.getMany': 'listThreads',
	'thread.update': 'updateThread',
	'message.get': 'getMessage',
	'whatsapp.getTemplates': 'listTemplates',
	'whatsapp.sendMedia': 'sendMedia',
	'whatsapp.sendMessage': 'sendMessage',
	'whatsapp.sendTemplate': 'sendTemplate',
};

const README = readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');

/** Rows of the table under "## Operations": [resource, operation, request, reference]. */
function operationTable(): string[][] {
	const section = README.split(/^## /m).find((part) => part.startsWith('Operations\n'));
	if (!section) throw new Error('README.md has no "## Operations" section');
	return section
		.split('\n')
		.filter((line) => line.startsWith('|') && !line.startsWith('|---'))
		.map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))
		.filter((cells) => cells[0] !== 'Resource');
}

function expectedRows(): string[][] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.map((operation) => {
			const endpoint = ENDPOINTS[OPERATION_ENDPOINTS[`${resource.option.value}.${operation.option.value}`]];
			if (!endpoint) throw new Error(`no endpoint known for ${resource.option.value}.${operation.option.value}: add it to OPERATION_ENDPOINTS`);
			return [resource.option.name, operation.option.name, `\`${endpoint.method} ${endpoint.path}\``, endpoint.inferred ? 'inferred' : 'documented'];
		}),
	);
}

describe('README', () => {
	it('lists exactly the operations of the node, each with its request and whether it is documented or inferred', () => {
		expect(operationTable()).toEqual(expectedRows());
	});

	it('names every inferred operation as inferred in the node too', () => {
		for (const resource of RESOURCES) {
			for (const operation of resource.operations) {
				const endpoint = ENDPOINTS[OPERATION_ENDPOINTS[`${resource.option.value}.${operation.option.value}`]];
				expect({ operation: `${resource.option.name} → ${operation.option.name}`, saysInferred: /inferred/i.test(operation.option.description ?? '') }).toEqual({
					operation: `${resource.option.name} → ${operation.option.name}`,
					saysInferred: endpoint.inferred,
				});
			}
		}
	});

	it('starts with the install, demo and test commands', () => {
		const firstBlock = /```bash\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
		expect(firstBlock.split('\n').map((line) => line.split('#')[0].trim()).filter(Boolean)).toEqual(['npm install', 'npm run demo', 'npm test']);
	});
});
