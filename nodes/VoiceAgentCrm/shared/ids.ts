import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { UUID, validateItem } from './validation';

/**
 * The UUID a parameter holds (a resource locator's value or a plain string), checked before any
 * request names it; `label` is what the user sees, for the error.
 */
export function uuidParameter(context: IExecuteFunctions, itemIndex: number, parameter: string, label: string): string {
	const value = context.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
	return validateItem(context, z.object({ id: UUID }), { id: value }, itemIndex, { id: label }).id;
}
