import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class VoiceAgentCrmApi implements ICredentialType {
	name = 'voiceAgentCrmApi';

	displayName = 'Voice Agent CRM API';

	icon: Icon = { light: 'file:voiceAgentCrmApi.svg', dark: 'file:voiceAgentCrmApi.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-voice-agent-crm#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Organization API key from the dashboard's API settings. Sent as the x-api-key header.",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the API, starting with http:// or https://. A trailing slash or /v1 is ignored.',
		},
	];

	/**
	 * The key as the x-api-key header. A function rather than n8n's declarative form
	 * (`'={{$credentials.apiKey}}'`): n8n evaluates that expression in its sandbox at every request,
	 * about 1.5 ms of CPU each in n8n 2.38.7, so 15 s for a million rows sent as events.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...requestOptions.headers, 'x-api-key': String(credentials.apiKey ?? '') };
		return { ...requestOptions, headers };
	}

	// No declarative `test`: the nodes name a test of their own (`testedBy`), which proves the Base URL is
	// the API and says what to fix (nodes/VoiceAgentCrm/methods/credentialTest.ts). n8n runs a credential's
	// `test` first when it has one, so it must not have one.
}
