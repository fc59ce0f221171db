import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The base URL as users paste it: a trailing slash or a trailing `/v1` is dropped, because every
 * path in the node already starts with `/v1`. Kept as an expression so the credential test and
 * the nodes read the same value.
 */
const BASE_URL_EXPRESSION =
	'={{ (/^https?:\\/\\//i.test($credentials.baseUrl.trim()) ? $credentials.baseUrl.trim() : "http://invalid-base-url.invalid").replace(/\\/+$/, "").replace(/\\/v1$/i, "") }}';

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
			description: 'Organization API key from the dashboard\'s API settings. Sent as the x-api-key header.',
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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	// Listing voices is the cheapest documented read: it tells a wrong key (401) from a wrong URL.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v1/agents/voices',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key was refused (401). Copy it again from the dashboard\'s API settings.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'The Base URL does not point at the API (404). Use the address of the service, e.g. https://api.example.com.',
				},
			},
		],
	};
}
