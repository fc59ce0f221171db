import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** Return All / Limit, the pair every list operation offers. */
export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function listOptionsOf(context: IExecuteFunctions, itemIndex: number): { returnAll: boolean; limit: number } {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (context.getNodeParameter('limit', itemIndex, 50) as number);
	return { returnAll, limit };
}
