import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { z } from 'zod';

import { wabaRecipientFields, wabaRecipientOf, wabaSendBody, wabaSendOptions } from './fields';
import type { Operation } from '../../shared/operation';
import { perItem, sampleById } from '../../shared/operation';
import { failItem, HTTP_URL, validateItem } from '../../shared/validation';
import { wabaSend } from './send';

const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;

/** Base64 as the API takes it: plain, or as a data URI; line breaks allowed. */
const DATA_URI_PREFIX = /^data:[\w.+-]+\/[\w.+-]+;base64,/i;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Whole quartets of the alphabet with "=" padding only at the end. A loop rather than a regex:
 * a regex over a file of megabytes can overflow V8's backtracking stack.
 */
function isBase64(text: string): boolean {
	if (text.length === 0 || text.length % 4 !== 0) return false;
	const body = text.endsWith('==')
		? text.slice(0, -2)
		: text.endsWith('=')
			? text.slice(0, -1)
			: text;
	for (const char of body) if (!BASE64_ALPHABET.includes(char)) return false;
	return true;
}

const mediaSchema = z.object({
	mediaType: z.enum(MEDIA_TYPES, {
		message: 'must be one of image, video, audio or document',
	}),
	caption: z.string(),
	fileName: z.string().trim(),
});

const urlSchema = z.object({ mediaUrl: HTTP_URL });

const base64Schema = z.object({
	mediaBase64: z
		.string()
		.transform((text) => text.trim().replace(DATA_URI_PREFIX, '').replace(/\s+/g, ''))
		.refine(
			isBase64,
			'must be a base64-encoded file (letters, digits, + and /, padded with =), plain or as a data: URI',
		),
});

const LABELS = {
	mediaType: 'Media Type',
	caption: 'Caption',
	fileName: 'File Name',
	mediaUrl: 'Media URL',
	mediaBase64: 'Base64 Data',
	binaryPropertyName: 'Input Binary Field',
};

interface MediaData {
	mediaData: string;
	/** A file name that came with the file (binary input), used for documents without one. */
	fileName?: string;
}

async function mediaDataOf(
	this: IExecuteFunctions,
	itemIndex: number,
	item: INodeExecutionData,
): Promise<MediaData> {
	const source = this.getNodeParameter('mediaSource', itemIndex) as string;
	if (source === 'url') {
		const { mediaUrl } = validateItem(
			this,
			urlSchema,
			{ mediaUrl: this.getNodeParameter('mediaUrl', itemIndex, '') },
			itemIndex,
			LABELS,
		);
		return { mediaData: mediaUrl };
	}
	if (source === 'base64') {
		const input = { mediaBase64: this.getNodeParameter('mediaBase64', itemIndex, '') };
		return { mediaData: validateItem(this, base64Schema, input, itemIndex, LABELS).mediaBase64 };
	}
	if (source === 'binary') return await binaryMediaOf.call(this, itemIndex, item);
	return failItem(this, itemIndex, [
		`Media Source: must be url, base64 or binary (got "${source}")`,
	]);
}

/** The file of an input binary field, read through n8n (in memory or from its binary store) as base64. */
async function binaryMediaOf(
	this: IExecuteFunctions,
	itemIndex: number,
	item: INodeExecutionData,
): Promise<MediaData> {
	const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const binary = item.binary?.[property];
	if (!binary) {
		const present = Object.keys(item.binary ?? {});
		const has = present.length
			? `the item has ${present.map((p) => `"${p}"`).join(', ')}`
			: 'the item has no binary data';
		failItem(this, itemIndex, [
			`${LABELS.binaryPropertyName}: no binary field "${property}" on the input item (${has})`,
		]);
	}
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	if (!buffer.length)
		failItem(this, itemIndex, [`${LABELS.binaryPropertyName}: the file in "${property}" is empty`]);
	return { mediaData: buffer.toString('base64'), fileName: binary.fileName };
}

export const sendMedia: Operation = {
	option: {
		name: 'Send Media',
		value: 'sendMedia',
		action: 'Send WhatsApp media message',
		description:
			'Send an image, video, audio or document to a contact on WhatsApp, inside the 24-hour window',
	},
	kind: 'send',
	endpoint: 'sendMedia',
	example: {
		channelId: sampleById('channel'),
		contactId: sampleById('contact'),
		mediaType: 'image',
		mediaSource: 'url',
		mediaUrl: 'https://cdn.example.com/a.jpg',
		options: {},
	},
	fields: [
		...wabaRecipientFields,
		{
			displayName: 'Media Type',
			name: 'mediaType',
			type: 'options',
			required: true,
			options: [
				{ name: 'Audio', value: 'audio' },
				{ name: 'Document', value: 'document', description: 'A file such as a PDF' },
				{ name: 'Image', value: 'image' },
				{ name: 'Video', value: 'video' },
			],
			default: 'image',
			description: 'What kind of file is sent: image, video, audio or document',
		},
		{
			displayName: 'Media Source',
			name: 'mediaSource',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Base64 Text',
					value: 'base64',
					description: 'A base64-encoded file held in a field of the item',
				},
				{
					name: 'Binary File',
					value: 'binary',
					description:
						'A file in a binary field of the input item (e.g. from Read Binary File or HTTP Request)',
				},
				{
					name: 'Public URL',
					value: 'url',
					description: 'A URL the WhatsApp provider can download the file from',
				},
			],
			default: 'url',
			description:
				'Where the file comes from. A file from the item is sent as base64 and stored by the service.',
		},
		{
			displayName: 'Media URL',
			name: 'mediaUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://cdn.example.com/brochure.pdf',
			description:
				'Public http(s) URL of the file. It must be reachable from the internet: private and local addresses are refused.',
			displayOptions: { show: { mediaSource: ['url'] } },
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the input binary field containing the file to be sent',
			description: 'Name of the binary field of the input item that holds the file, e.g. data',
			displayOptions: { show: { mediaSource: ['binary'] } },
		},
		{
			displayName: 'Base64 Data',
			name: 'mediaBase64',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.fileBase64 }}',
			description: 'The file encoded as base64, plain or as a data: URI (data:image/png;base64,…)',
			displayOptions: { show: { mediaSource: ['base64'] } },
		},
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			default: '',
			placeholder: 'e.g. Here is your invoice',
			description: 'Text shown with the file. Optional.',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-2024-05.pdf',
			description:
				'Name the contact sees for the document. Empty: the name of the binary file, or else a name the service generates.',
			displayOptions: { show: { mediaType: ['document'] } },
		},
		wabaSendOptions,
	],
	execute: perItem(async function (itemIndex, item) {
		const recipient = wabaRecipientOf(this, itemIndex);
		const mediaType = this.getNodeParameter('mediaType', itemIndex);
		const input = {
			mediaType,
			caption: this.getNodeParameter('caption', itemIndex, ''),
			// file names apply to documents only; the API refuses one for other media types
			fileName: mediaType === 'document' ? this.getNodeParameter('fileName', itemIndex, '') : '',
		};
		const { caption, fileName } = validateItem(this, mediaSchema, input, itemIndex, LABELS);
		const media = await mediaDataOf.call(this, itemIndex, item);
		const documentName = mediaType === 'document' ? fileName || media.fileName : undefined;
		const message: IDataObject = {
			media_type: mediaType,
			media_data: media.mediaData,
			...(caption && { content: caption }),
			...(documentName && { file_name: documentName }),
		};
		return await wabaSend.call(this, 'sendMedia', wabaSendBody(recipient, message), itemIndex);
	}),
};
