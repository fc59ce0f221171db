import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { ICredentialTestRequest, INode, INodeCredentialTestResult, INodeType } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { VoiceAgentCrmApi } from '../credentials/VoiceAgentCrmApi.credentials';
import { additionalDataFor, type CredentialData } from './engine';
import { TestNodeTypes } from './nodeTypes';
import { assertNoSecret, registerSecret } from './secrets';

/**
 * "Test credential" as the n8n editor runs it: the credential's test request becomes the routing
 * of a throw-away declarative node run by n8n-core's RoutingNode with the credential applied; a
 * failure maps to the credential's rules, else to the HTTP status message.
 */
export async function testCredential(data: CredentialData): Promise<INodeCredentialTestResult> {
	registerSecret(data.apiKey);
	const result = await runCredentialTest(data);
	assertNoSecret('The credential test result', result);
	return result;
}

async function runCredentialTest(data: CredentialData): Promise<INodeCredentialTestResult> {
	const credential = new VoiceAgentCrmApi();
	const testRequest = credential.test as ICredentialTestRequest;
	const probe: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credential.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: testRequest.request } }],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credential.name]: { id: 'cred-1', name: 'test' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ credentialTest: probe }),
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalDataFor(data),
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, probe, { id: 'cred-1', name: 'test', type: credential.name, data: { ...data } }).runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText: string }; code?: string } }).cause;
		if (cause?.response) {
			const rule = testRequest.rules?.find((r) => r.type === 'responseCode' && r.properties.value === cause.response!.status);
			if (rule) return { status: 'Error', message: (rule.properties as { message: string }).message };
			return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
		}
		return { status: 'Error', message: cause?.code ?? (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
