import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

import { VoiceAgentCrmApi } from '../credentials/VoiceAgentCrmApi.credentials';

const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	voiceAgentCrmApi: new VoiceAgentCrmApi(),
};

/**
 * Supplies credential data to the engine and applies a credential type's `authenticate` the way
 * n8n does.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const auth = CREDENTIAL_TYPES[typeName]?.authenticate;
		if (auth === undefined) return requestOptions;
		// the package's credential authenticates with a function, which n8n calls as is
		if (typeof auth !== 'function')
			throw new Error(`${typeName}: only a function authenticate is supported here`);
		return await auth(credentials, requestOptions);
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, '', '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: unknown,
		_executeData?: unknown,
		_raw?: boolean,
		_values?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credential of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}
}
