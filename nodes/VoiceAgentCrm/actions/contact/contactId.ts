import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { UUID, validateItem } from '../../shared/validation';

/** The Contact locator's value, checked to be a UUID before any request names it. */
export function contactIdOf(context: IExecuteFunctions, itemIndex: number): string {
	const contactId = context.getNodeParameter('contactId', itemIndex, '', { extractValue: true });
	return validateItem(context, z.object({ contactId: UUID }), { contactId }, itemIndex, { contactId: 'Contact' }).contactId;
}
