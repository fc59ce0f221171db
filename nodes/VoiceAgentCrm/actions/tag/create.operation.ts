import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import type { Operation } from '../../shared/operation';
import { perItem } from '../../shared/operation';
import { NON_EMPTY, validateItem } from '../../shared/validation';
import { apiRequest } from '../../transport/request';

const TAG = z.object({
	name: NON_EMPTY,
	color: z
		.string()
		.trim()
		.regex(
			/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i,
			'must be a hex color: # then 3 or 6 hex digits, like #ff9900',
		),
	label: z.string({ message: 'must be text' }).trim().optional(),
});

const LABELS = { name: 'Name', color: 'Color', label: 'Label' };

export const createTag: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create tag',
		description: 'Create a tag with a name, a color and an optional label',
	},
	kind: 'write',
	endpoint: 'createTag',
	example: { name: 'follow-up', color: '#336699' },
	fields: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. vip',
			description: 'Name of the tag, e.g. vip or hot-lead',
		},
		{
			displayName: 'Color',
			name: 'color',
			type: 'color',
			required: true,
			default: '#ff9900',
			description: 'Color of the tag as a hex color, e.g. #ff9900 or #f90',
		},
		{
			displayName: 'Label',
			name: 'label',
			type: 'string',
			default: '',
			placeholder: 'e.g. VIP customer',
			description: 'Display label shown instead of the name, if set',
		},
	],
	execute: perItem(async function (itemIndex) {
		const label: unknown = this.getNodeParameter('label', itemIndex, '');
		const input = {
			name: this.getNodeParameter('name', itemIndex),
			color: this.getNodeParameter('color', itemIndex),
			...(isGiven(label) && { label }),
		};
		const body = validateItem(this, TAG, input, itemIndex, LABELS);
		const { payload } = await apiRequest.call(this, 'createTag', { body, itemIndex });
		return payload as IDataObject;
	}),
};

/** An optional value left empty, blank or resolving to null is not sent. */
function isGiven(value: unknown): boolean {
	return (
		value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '')
	);
}
