import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { VoiceAgentCrm } from '../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import { additionalDataFor, CREDENTIAL_REF, type CredentialData } from './engine.cts';
import { ACTION_NODE, TestNodeTypes } from './nodeTypes.cts';

/**
 * The editor's lists as n8n's dynamic-node-parameters service runs them: the node's method called
 * with n8n-core's LoadOptionsContext, the form's current parameters in the additional data.
 */
function contextFor(credentials: CredentialData, parameters: INodeParameters): LoadOptionsContext {
	const node: INode = {
		id: 'editor',
		name: 'Voice Agent CRM',
		type: ACTION_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: CREDENTIAL_REF,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes(),
	});
	const additionalData = { ...additionalDataFor(credentials), currentNodeParameters: parameters };
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}

const { methods } = new VoiceAgentCrm();

export async function listSearch(
	credentials: CredentialData,
	method: keyof typeof methods.listSearch,
	options: { parameters?: INodeParameters; filter?: string; token?: string } = {},
): Promise<INodeListSearchResult> {
	const search = methods.listSearch[method] as (
		this: LoadOptionsContext,
		filter?: string,
		token?: string,
	) => Promise<INodeListSearchResult>;
	return await search.call(
		contextFor(credentials, options.parameters ?? {}),
		options.filter,
		options.token,
	);
}

export async function loadOptions(
	credentials: CredentialData,
	method: keyof typeof methods.loadOptions,
	parameters: INodeParameters = {},
): Promise<INodePropertyOptions[]> {
	const load = methods.loadOptions[method] as (
		this: LoadOptionsContext,
	) => Promise<INodePropertyOptions[]>;
	return await load.call(contextFor(credentials, parameters));
}
