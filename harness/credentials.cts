import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

import { VoiceAgentCrmApi } from '../credentials/VoiceAgentCrmApi.credentials';

const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	voiceAgentCrmApi: new VoiceAgentCrmApi(),
};

/**
 * Supplies credential data to the engine and applies a credential type's `authenticate` the way
 * n8n does: generic properties are expressions resolved with `$credentials` by the workflow's
 * expression engine, then merged into the request.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly resolved = new Map<string, string>();

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
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = CREDENTIAL_TYPES[typeName];
		const auth = type?.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		const resolve = (value: string) => {
			if (!workflow || !node) return value;
			// evaluated once per credential and expression: a long poll history sends thousands of requests
			const key = `${JSON.stringify(credentials)} ${value}`;
			let resolved = this.resolved.get(key);
			if (resolved === undefined) {
				resolved = String(
					workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					),
				);
				this.resolved.set(key, resolved);
			}
			return resolved;
		};
		const headers: Record<string, string> = {
			...(requestOptions.headers as Record<string, string>),
		};
		const props = auth.properties as { headers?: Record<string, string> };
		for (const [name, value] of Object.entries(props.headers ?? {})) headers[name] = resolve(value);
		return { ...requestOptions, headers };
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
