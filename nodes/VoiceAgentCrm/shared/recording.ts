import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_NAME, normalizeBaseUrl, RETRY_LIMITS } from '../transport/request';

/**
 * A call's recording (`call_record`, a URL) as a binary property, for Call → Get and both triggers.
 *
 * The API key goes with the download only when the recording is on the credential's Base URL
 * origin (scheme, host and port). Redirects are followed here, one hop at a time, so that a
 * recording on the service that redirects to a storage host never carries the key there either
 * (the HTTP client would forward a custom header such as `x-api-key` across hosts).
 */

type DownloadContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export const RECORDING_FIELD_NAMES = {
	download: 'downloadRecording',
	property: 'recordingBinaryProperty',
} as const;

export function recordingFields(): INodeProperties[] {
	return [
		{
			displayName: 'Download Recording',
			name: RECORDING_FIELD_NAMES.download,
			type: 'boolean',
			default: false,
			description:
				"Whether to add the call's recording to the item as a file (for Google Drive, S3 or a transcription node). A call without a recording says so in 'recording_note'.",
		},
		{
			displayName: 'Put Recording in Field',
			name: RECORDING_FIELD_NAMES.property,
			type: 'string',
			default: 'recording',
			required: true,
			description: 'Name of the binary field to put the recording in',
			hint: 'The file name and MIME type come from the recording server',
			displayOptions: { show: { [RECORDING_FIELD_NAMES.download]: [true] } },
		},
	];
}

const MAX_REDIRECTS = 5;

interface Recording {
	data: Buffer;
	mimeType?: string;
	fileName: string;
}

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

function headerText(headers: IDataObject, name: string): string | undefined {
	const value = headers[name];
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** `attachment; filename="x.wav"` (or `filename*=UTF-8''x.wav`) → `x.wav`. */
function dispositionFileName(disposition: string | undefined): string | undefined {
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
	return match ? decodeURIComponent(match[1]).trim() || undefined : undefined;
}

function urlFileName(url: string): string | undefined {
	const last = new URL(url).pathname.split('/').filter(Boolean).pop();
	return last ? decodeURIComponent(last) : undefined;
}

async function fetchRecording(
	context: DownloadContext,
	url: string,
	callId: string,
): Promise<Recording> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const serviceOrigin = originOf(normalizeBaseUrl(credentials.baseUrl) ?? '');
	let current = url;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: current,
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: RETRY_LIMITS.timeoutMs,
		};
		const onService = serviceOrigin !== undefined && originOf(current) === serviceOrigin;
		const response = (
			onService
				? await context.helpers.httpRequestWithAuthentication.call(
						context,
						CREDENTIAL_NAME,
						request,
					)
				: await context.helpers.httpRequest(request)
		) as IN8nHttpFullResponse;
		const headers = (response.headers ?? {}) as IDataObject;
		const location = headerText(headers, 'location');
		if (response.statusCode >= 300 && response.statusCode < 400 && location) {
			current = new URL(location, current).toString();
			continue;
		}
		if (response.statusCode < 200 || response.statusCode >= 300) {
			throw new Error(`the recording server answered HTTP ${response.statusCode}`);
		}
		return {
			data: Buffer.from(response.body as ArrayBuffer),
			mimeType: headerText(headers, 'content-type')?.split(';')[0].trim(),
			fileName:
				dispositionFileName(headerText(headers, 'content-disposition')) ??
				urlFileName(current) ??
				`call-${callId}`,
		};
	}
	throw new Error(`the recording URL redirected more than ${MAX_REDIRECTS} times`);
}

/**
 * Put the item's call recording into `property`. A call without a recording gets a
 * `recording_note`. A failed download fails the item (`onFailure: 'fail'`, Call → Get) or is
 * noted in the item (`'note'`, the triggers: a call is emitted once, with or without its audio).
 */
export async function attachRecording(
	context: DownloadContext,
	item: INodeExecutionData,
	property: string,
	onFailure: 'fail' | 'note',
	itemIndex?: number,
): Promise<void> {
	const callId = String(item.json.id ?? '');
	const url = typeof item.json.call_record === 'string' ? item.json.call_record.trim() : '';
	if (!url) {
		item.json.recording_note =
			'This call has no recording (call_record is empty): nobody picked up, or the recording has not arrived yet. Read the call again later with Call → Get.';
		return;
	}
	if (!/^https?:\/\/[^/\s]+/i.test(url) || !originOf(url)) {
		item.json.recording_note =
			'The recording URL of this call is not an http(s) URL, so it was not downloaded.';
		return;
	}
	try {
		const recording = await fetchRecording(context, url, callId);
		item.binary = {
			...item.binary,
			[property]: await context.helpers.prepareBinaryData(
				recording.data,
				recording.fileName,
				recording.mimeType,
			),
		};
	} catch (error) {
		const reason = `Downloading the recording of call ${callId} failed: ${(error as Error).message}`;
		if (onFailure === 'note') {
			item.json.recording_note = `${reason}. Read the call later with Call → Get and Download Recording on.`;
			return;
		}
		throw new NodeOperationError(context.getNode(), reason, {
			itemIndex,
			description:
				'The call itself is fine. Run the item again later, or turn off Download Recording to get the record alone.',
		});
	}
}

/** The recording settings of a node, read once; `undefined` when the recording is not wanted. */
export function recordingProperty(context: DownloadContext, itemIndex = 0): string | undefined {
	const read = (name: string, fallback: unknown) =>
		'getInputData' in context
			? (context as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback)
			: (context as IPollFunctions).getNodeParameter(name, fallback);
	if (read(RECORDING_FIELD_NAMES.download, false) !== true) return undefined;
	const property = String(read(RECORDING_FIELD_NAMES.property, 'recording') ?? '').trim();
	if (!property) {
		throw new NodeOperationError(
			context.getNode(),
			'Put Recording in Field is empty: name the binary property to put the recording in.',
			{ itemIndex },
		);
	}
	return property;
}
