import type {
	IBinaryData,
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

import {
	cancelSignalOf,
	CREDENTIAL_NAME,
	noAnswerOf,
	normalizeBaseUrl,
	RETRY_LIMITS,
	serviceUrlRequest,
} from '../transport/request';
import { discard, dropIfLate, startDeadline, type ByteStream, type Deadline } from './download';

/**
 * A call's recording (`call_record`, a URL) as a binary property, for Call → Get and both triggers.
 *
 * The API key goes with the download only when the recording is on the credential's Base URL
 * origin (scheme, host and port). Redirects are followed here, one hop at a time, so that a
 * recording on the service that redirects to a storage host never carries the key there either
 * (the HTTP client would forward a custom header such as `x-api-key` across hosts).
 *
 * The file is streamed into n8n's binary data, never held whole by the node: under n8n's
 * filesystem or S3 binary data mode it goes to storage chunk by chunk. A download is bounded in
 * size (Max Recording Size) and in total time (`RECORDING_DEADLINE_MS`), and an answer that is
 * not audio (an expired link's web page) is refused.
 */

type DownloadContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export const RECORDING_FIELD_NAMES = {
	download: 'downloadRecording',
	property: 'recordingBinaryProperty',
	maxSize: 'recordingMaxSizeMb',
} as const;

/** The default Max Recording Size: an hour of 16 kHz mono WAV, the largest usual call recording, is 115 MB. */
const DEFAULT_MAX_SIZE_MB = 200;

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
		{
			displayName: 'Max Recording Size (MB)',
			name: RECORDING_FIELD_NAMES.maxSize,
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_SIZE_MB,
			description:
				'Largest recording to download, in megabytes (1 MB = 1,000,000 bytes). The download stops at the first byte past it and says so.',
			hint: 'A download also stops after 10 minutes in all. A web page or other non-audio answer is refused.',
			displayOptions: { show: { [RECORDING_FIELD_NAMES.download]: [true] } },
		},
	];
}

const MAX_REDIRECTS = 5;

/**
 * The time one download may take in all, redirects and body included: a server that sends a byte
 * now and then holds a run no longer than this (the request timeout only measures silence).
 */
const RECORDING_DEADLINE_MS = 10 * 60_000;

const BYTES_PER_MB = 1_000_000;

/**
 * Types a recording comes as: audio, a media container, or the generic types storage hosts give
 * any file. Anything else (a web page, JSON, XML) is an error page or a login, not the recording.
 */
const RECORDING_TYPES = [
	/^audio\//,
	/^video\//,
	/^application\/(octet-stream|ogg|mp4|x-download|force-download)$/,
	/^binary\/octet-stream$/,
];

interface OpenedRecording {
	body: ByteStream;
	headers: IDataObject;
	/** The URL that answered, after redirects. */
	url: string;
}

/** Why a download was stopped, worded for the item: "Downloading … failed: <reason>". */
class DownloadRefused extends Error {}

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

/**
 * `attachment; filename="x.wav"; filename*=UTF-8''x.wav` → `x.wav`: `filename*` when it decodes,
 * else `filename` (a server may send a `filename*` that is not valid percent-encoding).
 */
function dispositionFileName(disposition: string | undefined): string | undefined {
	const text = disposition ?? '';
	const extended = /filename\*\s*=\s*(?:[\w-]*'[^']*')?"?([^";]+)"?/i.exec(text)?.[1];
	const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(text)?.[1];
	return decodedName(extended) ?? (plain?.trim() || undefined);
}

function urlFileName(url: string): string | undefined {
	const last = new URL(url).pathname.split('/').filter(Boolean).pop();
	return last ? (decodedName(last) ?? last) : undefined;
}

/** A percent-encoded name decoded, or `undefined` when it is empty or not valid percent-encoding. */
function decodedName(encoded: string | undefined): string | undefined {
	if (!encoded) return undefined;
	try {
		return decodeURIComponent(encoded).trim() || undefined;
	} catch {
		return undefined;
	}
}

function megabytes(bytes: number): string {
	return `${Math.ceil(bytes / BYTES_PER_MB)} MB`;
}

/**
 * GET the recording, following redirects one hop at a time so that the key goes only to the
 * service's origin; the answer's body is not read yet.
 */
async function openRecording(
	context: DownloadContext,
	url: string,
	deadline: Deadline,
): Promise<OpenedRecording> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const serviceOrigin = originOf(normalizeBaseUrl(credentials.baseUrl) ?? '');
	let current = url;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: current,
			encoding: 'stream',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: RETRY_LIMITS.timeoutMs,
			abortSignal: deadline.signal,
		};
		const onService = serviceOrigin !== undefined && originOf(current) === serviceOrigin;
		const sent = (
			onService
				? serviceUrlRequest.call(context, request, deadline.signal)
				: context.helpers.httpRequest(request)
		) as Promise<IN8nHttpFullResponse>;
		dropIfLate(sent, deadline);
		const response = await deadline.race(sent);
		const body = response.body as ByteStream;
		const headers = (response.headers ?? {}) as IDataObject;
		const location = headerText(headers, 'location');
		if (response.statusCode >= 200 && response.statusCode < 300)
			return { body, headers, url: current };
		discard(body);
		if (response.statusCode >= 300 && response.statusCode < 400 && location) {
			current = new URL(location, current).toString();
			continue;
		}
		throw new DownloadRefused(`the recording server answered HTTP ${response.statusCode}`);
	}
	throw new DownloadRefused(`the recording URL redirected more than ${MAX_REDIRECTS} times`);
}

/** Whether the answer's first bytes are a web page or an XML document (an error page served as a file). */
function looksLikeDocument(chunk: Buffer): boolean {
	return /^\s*<(!doctype|html|\?xml|head|body)/i.test(chunk.subarray(0, 64).toString('latin1'));
}

/**
 * The body, refused as soon as it is not audio or passes `maxBytes`: checked on the headers when
 * they say, and on the bytes as they stream by, so reading stops at the first byte past the cap.
 */
function checkedBody(
	opened: OpenedRecording,
	maxBytes: number,
	deadline: Deadline,
	onRefusal: (refusal: DownloadRefused) => void,
): ByteStream {
	const mimeType = headerText(opened.headers, 'content-type')?.split(';')[0].trim().toLowerCase();
	if (mimeType && !RECORDING_TYPES.some((type) => type.test(mimeType))) {
		throw new DownloadRefused(
			`the recording server answered ${mimeType.includes('html') ? 'a web page' : 'a document'} (${mimeType}), not audio: the recording URL may have expired or need a login`,
		);
	}
	const tooLarge = (size: string) =>
		new DownloadRefused(
			`the recording is ${size}, more than the Max Recording Size of ${megabytes(maxBytes)}, so it was not downloaded. Raise Max Recording Size to download it`,
		);
	const announced = Number(headerText(opened.headers, 'content-length'));
	if (Number.isFinite(announced) && announced > maxBytes) throw tooLarge(megabytes(announced));
	const sniff = !mimeType || /octet-stream/.test(mimeType);
	let received = 0;
	return opened.body.map(
		(chunk) => {
			let refusal: DownloadRefused | undefined;
			if (received === 0 && sniff && looksLikeDocument(chunk)) {
				refusal = new DownloadRefused(
					'the recording server answered a web page or document, not audio: the recording URL may have expired or need a login',
				);
			}
			received += chunk.length;
			if (received > maxBytes) refusal ??= tooLarge(`larger than ${megabytes(maxBytes)}`);
			if (refusal) {
				onRefusal(refusal);
				throw refusal;
			}
			return chunk;
		},
		{ signal: deadline.signal },
	);
}

/**
 * The recording as n8n binary data, streamed: with n8n's filesystem or S3 binary data mode the
 * file goes to storage chunk by chunk and is never held in memory whole.
 */
async function downloadRecording(
	context: DownloadContext,
	url: string,
	callId: string,
	maxBytes: number,
): Promise<IBinaryData> {
	const deadline = startDeadline(
		RECORDING_DEADLINE_MS,
		() =>
			new DownloadRefused(
				`the download did not finish within ${RECORDING_DEADLINE_MS / 60_000} minutes, the time a recording download may take in all, so it was stopped`,
			),
		cancelSignalOf(context),
	);
	let body: ByteStream | undefined;
	// the reason the body was refused, whatever error n8n's binary data store then reports
	let refusal: DownloadRefused | undefined;
	try {
		const opened = await openRecording(context, url, deadline);
		body = opened.body;
		const checked = checkedBody(opened, maxBytes, deadline, (reason) => (refusal = reason));
		const fileName =
			dispositionFileName(headerText(opened.headers, 'content-disposition')) ??
			urlFileName(opened.url) ??
			`call-${callId}`;
		const mimeType = headerText(opened.headers, 'content-type')?.split(';')[0].trim();
		return await deadline.race(
			context.helpers.prepareBinaryData(
				checked as unknown as Parameters<typeof context.helpers.prepareBinaryData>[0],
				fileName,
				mimeType,
			),
		);
	} catch (error) {
		if (body) discard(body);
		throw deadline.expired() ? deadline.error() : (refusal ?? error);
	} finally {
		deadline.end();
	}
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
		const maxBytes = recordingMaxBytes(context, itemIndex);
		item.binary = {
			...item.binary,
			[property]: await downloadRecording(context, url, callId, maxBytes),
		};
	} catch (error) {
		const reason = `Downloading the recording of call ${callId} failed: ${whyDownloadFailed(error)}`;
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

/** Why the download failed, in words; OpenSSL's text for an https:// URL on a plain HTTP server is not. */
function whyDownloadFailed(error: unknown): string {
	if (noAnswerOf(error).plainHttp)
		return 'the recording URL uses https:// but its server answered plain HTTP';
	return (error as Error).message;
}

function readSetting(context: DownloadContext, itemIndex: number, name: string, fallback: unknown) {
	return 'getInputData' in context
		? (context as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback)
		: (context as IPollFunctions).getNodeParameter(name, fallback);
}

/**
 * The recording settings of a node, checked before any request; `undefined` when the recording
 * is not wanted, else the binary property to put it in.
 */
export function recordingProperty(context: DownloadContext, itemIndex = 0): string | undefined {
	if (readSetting(context, itemIndex, RECORDING_FIELD_NAMES.download, false) !== true)
		return undefined;
	const property = String(
		readSetting(context, itemIndex, RECORDING_FIELD_NAMES.property, 'recording') ?? '',
	).trim();
	if (!property) {
		throw new NodeOperationError(
			context.getNode(),
			'Put Recording in Field is empty: name the binary property to put the recording in.',
			{ itemIndex },
		);
	}
	recordingMaxBytes(context, itemIndex);
	return property;
}

/** Max Recording Size, in bytes. */
function recordingMaxBytes(context: DownloadContext, itemIndex = 0): number {
	const value = readSetting(context, itemIndex, RECORDING_FIELD_NAMES.maxSize, DEFAULT_MAX_SIZE_MB);
	const megabytes = Number(value);
	if (value === '' || value === null || !Number.isFinite(megabytes) || megabytes <= 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Recording Size must be a number of megabytes above 0 ("${String(value)}" is not).`,
			{ itemIndex },
		);
	}
	return Math.floor(megabytes * BYTES_PER_MB);
}
