import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	discard,
	dropIfLate,
	startDeadline,
	type ByteStream,
	type Deadline,
} from '../shared/download';
import { ENDPOINTS, endpointPath, type Endpoint } from '../transport/endpoints';
import { apiMessageOf, generalHeadline, type Failure } from '../transport/errors';
import { keyRemover, withoutUserinfo } from '../transport/keyRemoval';
import { isWebPage, noAnswerOf, normalizeBaseUrl } from '../transport/request';
import { shortened } from '../transport/text';

/** The request the test makes: the cheapest documented read, listing voices. */
const PROBE = 'listVoices';

/**
 * The probe's failure contract: the transport's, except for a 429, which the nodes wait out and
 * repeat while the test reports at once.
 */
const PROBE_ENDPOINT: Endpoint = {
	...ENDPOINTS[PROBE],
	failure: {
		byStatus: { 429: "The API's rate limit is reached for now. Test again in a minute." },
	},
};

/** The time the whole test may take, redirects and the answer's body included. */
const CREDENTIAL_TEST_DEADLINE_MS = 15_000;

/** A list of voices is a few kilobytes; an answer past this is not the API's. */
const MAX_ANSWER_BYTES = 5_000_000;

const MAX_REDIRECTS = 5;

const API_ADDRESS_HINT =
	"Use the address of the API (e.g. https://api.example.com), not the dashboard's.";

interface ProbeAnswer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** A failure the test words itself (a redirect off the Base URL, an oversized answer). */
class ProbeRefused extends Error {}

/**
 * "Test" of the Voice Agent CRM API credential, run by n8n for the nodes that name it in
 * `testedBy`. A declarative test cannot do this: it passes any 200 (a web page at the Base URL)
 * and reports a refused connection as a bare "ECONNREFUSED". This one proves the Base URL is the
 * API (its answer is the API's JSON envelope) and says what to fix for each failure, in the
 * transport's words where the nodes meet the same failure.
 *
 * n8n gives a credential test only its legacy `request` helper (n8n-core's CredentialTestContext
 * has no `httpRequest`), so that is what this function uses; the key is sent as the credential's
 * `authenticate` sends it, in the x-api-key header, and only to the Base URL's origin: a redirect
 * elsewhere is not followed. The whole test is bounded in time, and no message shows the key or
 * the user name and password a Base URL may carry.
 */
export async function voiceAgentCrmApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	if (!baseUrl) {
		return failed(
			`The Base URL must start with http:// or https:// ("${shortened(withoutUserinfo(String(data.baseUrl ?? '').trim()))}" does not). ${API_ADDRESS_HINT}`,
		);
	}
	const apiKey = String(data.apiKey ?? '');
	const deadline = startDeadline(
		CREDENTIAL_TEST_DEADLINE_MS,
		() => new Error('the answer did not complete'),
	);
	try {
		return verdict(await probe(this, baseUrl, apiKey, deadline), baseUrl, apiKey);
	} catch (error) {
		if (error instanceof ProbeRefused) return failed(error.message);
		const failure: Failure = deadline.expired()
			? {
					kind: 'noAnswer',
					reason: `the answer did not complete within ${CREDENTIAL_TEST_DEADLINE_MS / 1000} seconds`,
					reached: true,
				}
			: noAnswerOf(error);
		return failed(generalHeadline(PROBE_ENDPOINT, failure));
	} finally {
		deadline.end();
	}
}

/** GET the voice list on the Base URL, following redirects only within its origin. */
async function probe(
	context: ICredentialTestFunctions,
	baseUrl: string,
	apiKey: string,
	deadline: Deadline,
): Promise<ProbeAnswer> {
	const origin = new URL(baseUrl).origin;
	let url = `${baseUrl}${endpointPath(PROBE)}`;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const sent = context.helpers.request({
			method: ENDPOINTS[PROBE].method,
			uri: url,
			headers: { 'x-api-key': apiKey, accept: 'application/json' },
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			useStream: true,
			timeout: CREDENTIAL_TEST_DEADLINE_MS,
		}) as Promise<IN8nHttpFullResponse>;
		dropIfLate(sent, deadline);
		const response = await deadline.race(sent);
		const headers = (response.headers ?? {}) as IDataObject;
		const body = response.body as ByteStream;
		const location = typeof headers.location === 'string' ? headers.location : '';
		if (response.statusCode < 300 || response.statusCode >= 400 || !location) {
			return { statusCode: response.statusCode, headers, body: await readJson(body, deadline) };
		}
		discard(body);
		const next = new URL(location, url);
		if (next.origin !== origin) {
			throw new ProbeRefused(
				`The Base URL redirects the test request to ${next.origin}, another address: the redirect was not followed, so the API key was not sent there. If ${next.host} is the API, use ${next.origin} as the Base URL.`,
			);
		}
		url = next.toString();
	}
	throw new ProbeRefused(
		`The Base URL redirected the test request more than ${MAX_REDIRECTS} times. ${API_ADDRESS_HINT}`,
	);
}

/** The answer's body, read within the deadline and the size bound: JSON when it parses, else the text. */
async function readJson(body: ByteStream, deadline: Deadline): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	const reading = body[Symbol.asyncIterator]();
	try {
		for (;;) {
			const { value, done } = await deadline.race(reading.next());
			if (done) break;
			size += value.length;
			if (size > MAX_ANSWER_BYTES) {
				throw new ProbeRefused(
					`The Base URL answered the test with more than ${MAX_ANSWER_BYTES / 1_000_000} MB, which is not the API's list of voices. ${API_ADDRESS_HINT}`,
				);
			}
			chunks.push(value);
		}
	} finally {
		body.destroy();
	}
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return text.trim() ? JSON.parse(text) : undefined;
	} catch {
		return text;
	}
}

function verdict(
	{ statusCode, headers, body }: ProbeAnswer,
	baseUrl: string,
	apiKey: string,
): INodeCredentialTestResult {
	const shown = withoutUserinfo(baseUrl);
	if (statusCode === 404 || (statusCode >= 200 && statusCode < 300 && !isApiEnvelope(body))) {
		const what =
			statusCode === 404
				? 'HTTP 404'
				: typeof body === 'string'
					? 'a web page'
					: "JSON that is not the API's";
		return failed(
			`The Base URL does not point at the API: ${shown} answered ${what} instead of the API's list of voices. ${API_ADDRESS_HINT}`,
		);
	}
	if (statusCode < 200 || statusCode >= 300) {
		const webPage = isWebPage({ statusCode, headers, body } as IN8nHttpFullResponse, body);
		return failed(
			generalHeadline(PROBE_ENDPOINT, {
				kind: 'status',
				status: statusCode,
				apiMessage: apiMessageOf(body, keyRemover(apiKey, baseUrl)),
				json: typeof body === 'object' && body !== null,
				webPage,
			}),
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
