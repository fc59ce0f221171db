import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { voiceAgentCrmApiTest } from './credentialTest';
import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';
import { CREDENTIAL_TEST } from '../transport/credential';

type EditorMethod = (this: ILoadOptionsFunctions, ...args: never[]) => Promise<unknown>;

/**
 * n8n's editor shows the message of an error thrown by a list, except for a NodeApiError: its REST
 * client passes that one on as a plain object, which the parameter shows as "[object Object]"
 * (n8n 2.38 editor, `makeRestApiRequest`). Every list therefore rethrows its errors as
 * NodeOperationErrors, the description (what the API said) added to the message.
 */
function readableErrors<T extends Record<string, EditorMethod>>(group: T): T {
	const wrapped = Object.entries(group).map(([name, method]) => [
		name,
		async function (this: ILoadOptionsFunctions, ...args: never[]) {
			try {
				return await method.apply(this, args);
			} catch (error) {
				const description =
					error instanceof NodeApiError || error instanceof NodeOperationError
						? error.description
						: undefined;
				const message = error instanceof Error ? error.message : String(error);
				// the editor shows the message only: the API's reason, in the description, goes with it
				throw new NodeOperationError(
					this.getNode(),
					description ? `${message} ${description}` : message,
					{
						description: description ?? undefined,
					},
				);
			}
		},
	]);
	return Object.fromEntries(wrapped) as T;
}

export const methods = {
	listSearch: readableErrors(listSearch),
	loadOptions: readableErrors(loadOptions),
	credentialTest: { [CREDENTIAL_TEST]: voiceAgentCrmApiTest },
};
