import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { contactLocator } from '../../shared/locators';
import type { Operation } from '../../shared/operation';
import { perItem, sample, sampleById } from '../../shared/operation';
import { EMAIL, NON_EMPTY, UUID, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

const CREATOR_TYPES = ['USER', 'SYSTEM', 'AI', 'AUTOMATIZATION'] as const;

/** The API's rule: a USER comment names its author by email; the other kinds must not. */
const COMMENT = z
	.object({
		contactId: UUID,
		content: NON_EMPTY,
		createdByType: z.enum(CREATOR_TYPES, {
			message: `must be one of ${CREATOR_TYPES.join(', ')} (upper case)`,
		}),
		createdBy: EMAIL.optional(),
	})
	.superRefine((comment, ctx) => {
		if (comment.createdByType === 'USER' && !comment.createdBy) {
			ctx.addIssue({
				code: 'custom',
				path: ['createdBy'],
				message:
					'is required when Created By Type is USER: the email of a member of the organization',
			});
		}
		if (comment.createdByType !== 'USER' && comment.createdBy) {
			ctx.addIssue({
				code: 'custom',
				path: ['createdBy'],
				message: `is only accepted when Created By Type is USER; leave it empty for ${comment.createdByType}`,
			});
		}
	});

const LABELS = {
	contactId: 'Contact',
	content: 'Content',
	createdByType: 'Created By Type',
	createdBy: 'Created By Email',
};

export const createComment: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create comment on contact',
		description: 'Add a comment to a contact',
	},
	kind: 'write',
	endpoint: 'createComment',
	example: {
		contactId: sampleById('contact'),
		content: 'Called back',
		createdByType: 'USER',
		createdBy: sample('memberEmail'),
	},
	fields: [
		contactLocator(),
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			placeholder: 'e.g. Asked to be called back next week',
			description: 'Text of the comment',
		},
		{
			displayName: 'Created By Type',
			name: 'createdByType',
			type: 'options',
			required: true,
			default: 'AUTOMATIZATION',
			description: 'Who the comment is from. Only a User comment names its author (by email).',
			options: [
				{ name: 'AI', value: 'AI', description: 'Written by an AI' },
				{
					name: 'Automation',
					value: 'AUTOMATIZATION',
					description: 'Written by an automation such as this workflow',
				},
				{ name: 'System', value: 'SYSTEM', description: 'Written by the system' },
				{
					name: 'User',
					value: 'USER',
					description: 'Written by a member of the organization, named by email',
				},
			],
		},
		{
			displayName: 'Created By Email',
			name: 'createdBy',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'name@email.com',
			description: 'Email of the organization member who wrote the comment, e.g. ana@example.com',
			displayOptions: { show: { createdByType: ['USER'] } },
		},
	],
	execute: perItem(async function (itemIndex) {
		const createdBy = String(this.getNodeParameter('createdBy', itemIndex, '') ?? '').trim();
		const input = {
			contactId: this.getNodeParameter('contactId', itemIndex, '', { extractValue: true }),
			content: this.getNodeParameter('content', itemIndex),
			createdByType: this.getNodeParameter('createdByType', itemIndex),
			...(createdBy && { createdBy }),
		};
		const comment = validateItem(this, COMMENT, input, itemIndex, LABELS);
		const body: IDataObject = {
			content: comment.content,
			contact_id: comment.contactId,
			created_by_type: comment.createdByType,
			...(comment.createdBy && { created_by: comment.createdBy }),
		};
		const { payload } = await apiRequest.call(this, 'createComment', { body, itemIndex });
		return payload as IDataObject;
	}),
};
