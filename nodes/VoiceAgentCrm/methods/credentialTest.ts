import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { ENDPOINTS, endpointPath } from '../transport/endpoints';
import { isNoAnswer, normalizeBaseUrl } from '../transport/request';
import { shortened } from '../transport/text';

/** The request the test makes: the cheapest documented read, listing voices. */
const PROBE = 'listVoices';

const PROBE_TIMEOUT_MS = 15_000;

const API_ADDRESS_HINT =
	"Use the address of the API (e.g. https://api.example.com), not the dashboard's.";

interface ProbeAnswer {
	statusCode: number;
	body: unknown;
}

/**
 * "Test" of the Voice Agent CRM API credential, run by n8n for the nodes that name it in
 * `testedBy`. A declarative test cannot do this: it passes any 200 (a web page at the Base URL)
 * and reports a refused connection as a bare "ECONNREFUSED". This one proves the Base URL is the
 * API (its answer is the API's JSON envelope) and says what to fix for each failure.
 *
 * n8n gives a credential test only its legacy `request` helper (n8n-core's CredentialTestContext
 * has no `httpRequest`), so that is what this function uses; the key is sent as the credential's
 * `authenticate` sends it, in the x-api-key header, and never appears in a message.
 */
export async function voiceAgentCrmApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl) {
		return failed(
			`The Base URL must start with http:// or https:// ("${shortened(String(data.baseUrl ?? '').trim())}" does not). ${API_ADDRESS_HINT}`,
		);
	}
	const { helpers } = this;
	let answer: ProbeAnswer;
	try {
		answer = (await helpers.request({
			method: ENDPOINTS[PROBE].method,
			uri: `${baseUrl}${endpointPath(PROBE)}`,
			headers: { 'x-api-key': String(data.apiKey ?? '') },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: PROBE_TIMEOUT_MS,
		})) as ProbeAnswer;
	} catch (error) {
		const reason = isNoAnswer(error) ?? 'the request failed';
		return failed(
			`The service did not answer: ${reason}. Check the Base URL (${baseUrl}) and that the service is reachable.`,
		);
	}
	return verdict(answer, baseUrl);
}

function verdict({ statusCode, body }: ProbeAnswer, baseUrl: string): INodeCredentialTestResult {
	if (statusCode === 401)
		return failed(
			"The API key was refused (401). Copy it again from the dashboard's API settings.",
		);
	if (statusCode === 404 || (statusCode >= 200 && statusCode < 300 && !isApiEnvelope(body))) {
		const what =
			statusCode === 404
				? 'HTTP 404'
				: typeof body === 'string'
					? 'a web page'
					: "JSON that is not the API's";
		return failed(
			`The Base URL does not point at the API: ${baseUrl} answered ${what} instead of the API's list of voices. ${API_ADDRESS_HINT}`,
		);
	}
	if (statusCode === 429)
		return failed("The API's rate limit is reached for now (429). Test again in a minute.");
	if (statusCode < 200 || statusCode >= 300) {
		return failed(
			`The service answered HTTP ${statusCode} to the test request. Check the Base URL (${baseUrl}) and try again later.`,
		);
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** The API's answer to listing voices: `{statusCode, data: Voice[]}`. */
function isApiEnvelope(body: unknown): boolean {
	return !!body && typeof body === 'object' && Array.isArray((body as IDataObject).data);
}

function failed(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}
