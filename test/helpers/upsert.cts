import type { IBinaryKeyData, IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import type { Simulator } from '../../simulator/index.cts';
import { credentialsOf } from './runs.cts';

/** Budgets out of reach: Contact → Create or Update's tests count requests, they do not wait. */
export const UNLIMITED = { org: 1e9, listing: 1e9, ip: 1e9 };

export const WRITES = /^(POST|PATCH|PUT|DELETE)$/;

/** A CSV file as the input item's binary `data`. */
export function csvFile(content: string, fileName = 'crm.csv'): IBinaryKeyData {
	return {
		data: { data: Buffer.from(content, 'utf8').toString('base64'), mimeType: 'text/csv', fileName },
	};
}

/** Contact → Create or Update over items, one a row, each field mapped from the item as a user maps it. */
export const upsertItems = (
	sim: Simulator,
	rows: IDataObject[],
	parameters: INodeParameters = {},
	continueOnFail = false,
) =>
	runNode({
		credentials: credentialsOf(sim),
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			phoneNumber: '={{ $json.phone }}',
			email: '={{ $json.email }}',
			additionalFields: { fullName: '={{ $json.name }}', country: '={{ $json.country }}' },
			...parameters,
		},
		items: rows,
		continueOnFail,
	});

/** Contact → Create or Update over the rows of one file. */
export const upsertFile = (
	sim: Simulator,
	file: IBinaryKeyData,
	parameters: INodeParameters = {},
) =>
	runNode({
		credentials: credentialsOf(sim),
		parameters: { resource: 'contact', operation: 'upsert', contactSource: 'file', ...parameters },
		items: [{}],
		binary: [file],
	});
