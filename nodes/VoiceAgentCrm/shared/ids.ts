import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { UUID, validateItem } from './validation';

/**
 * The ID a parameter holds (a resource locator's value or a plain string), checked before any
 * request names it: a UUID unless the API's IDs of that thing are opaque text (`rule`); `label`
 * is what the user sees, for the error.
 */
export function idParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
	rule: z.ZodType<string, z.ZodTypeDef, unknown> = UUID,
): string {
	const value = context.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
	return validateItem(context, z.object({ id: rule }), { id: value }, itemIndex, { id: label }).id;
}
