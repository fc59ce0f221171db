import { CredentialTestContext } from 'n8n-core';
import type { ICredentialTestFunction, INodeCredentialTestResult, INodeType } from 'n8n-workflow';

import { VoiceAgentCrmApi } from '../credentials/VoiceAgentCrmApi.credentials';
import { VoiceAgentCrm } from '../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import { VoiceAgentCrmTrigger } from '../nodes/VoiceAgentCrmTrigger/VoiceAgentCrmTrigger.node';
import { additionalDataFor, type CredentialData } from './engine.cts';
import { assertNoSecret, registerSecret } from './secrets.cts';

/**
 * "Test" of the credential as n8n 2.38's CredentialsTester runs it: a credential without a `test`
 * of its own is tested by the function a node names in `testedBy` (its `methods.credentialTest`),
 * called with n8n-core's CredentialTestContext and the decrypted credential.
 */
export async function testCredential(data: CredentialData): Promise<INodeCredentialTestResult> {
	registerSecret(data.apiKey);
	const credential = new VoiceAgentCrmApi();
	const test = credentialTestOf(credential.name, [new VoiceAgentCrm(), new VoiceAgentCrmTrigger()]);
	const context = new CredentialTestContext(additionalDataFor(data));
	const result = await test.call(context, {
		id: 'cred-1',
		name: 'test',
		type: credential.name,
		data: { ...data },
	});
	assertNoSecret('The credential test result', result);
	return result;
}

/**
 * The lookup n8n makes: no declarative test on the credential, then the `testedBy` of whichever
 * node using it comes first; every node must therefore name the same working test.
 */
export function credentialTestOf(
	credentialName: string,
	nodes: INodeType[],
): ICredentialTestFunction {
	if ((new VoiceAgentCrmApi() as { test?: unknown }).test) {
		throw new Error(
			"The credential has a declarative test, which n8n would run instead of the nodes' test",
		);
	}
	const tests = nodes.map((node) => {
		const testedBy = node.description.credentials?.find((c) => c.name === credentialName)?.testedBy;
		const test =
			typeof testedBy === 'string' ? node.methods?.credentialTest?.[testedBy] : undefined;
		if (!test)
			throw new Error(
				`${node.description.name} names no working credential test for ${credentialName}`,
			);
		return test;
	});
	if (new Set(tests).size !== 1) throw new Error('The nodes name different credential tests');
	return tests[0];
}
