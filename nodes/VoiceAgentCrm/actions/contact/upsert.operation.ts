import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { ItemResults, sample } from '../../shared/operation';
import { ContactDirectory, RequestCount } from './upsert/directory';
import { upsertFiles } from './upsert/file';
import { upsertContactFields } from './upsert/fields';
import { rowOf, type ContactRow, type MatchKey } from './upsert/match';
import { Upsert } from './upsert/run';

export interface UpsertSettings {
	key: MatchKey;
	validateOnly: boolean;
}

export const upsertContact: Operation = {
	option: {
		name: 'Create or Update',
		value: 'upsert',
		action: 'Create or update contact',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
	},
	kind: 'write',
	endpoint: 'createContact',
	example: {
		contactSource: 'items',
		matchOn: 'phone',
		phoneNumber: sample('newPhoneNumber'),
		additionalFields: {},
	},
	fields: upsertContactFields,
	// what a conversation says of a person: how to reach them, their name and what to note (the key
	// and the rest set the workflow up); a detail left out is blank, and a blank changes nothing
	modelFills: [
		'phoneNumber',
		'email',
		'additionalFields.fullName',
		'additionalFields.country',
		'additionalFields.description',
	],
	toolDescription:
		'Create a contact, or update the one with the same phone number (or the same email, when the workflow matches on email). Give the phone number and the email when known, and the name and details to write; a detail left out is not changed.',
	async execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		const results = new ItemResults(this, items.length);
		let settings: UpsertSettings;
		try {
			settings = settingsOf(this);
		} catch (error) {
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++) results.fail(itemIndex, error);
			return results.items();
		}
		if (this.getNodeParameter('contactSource', 0, 'items') === 'file')
			return await upsertFiles(this, items, settings);
		const rows = items.map((_, itemIndex) => itemRow(this, itemIndex, results));
		const count = new RequestCount();
		let upsert: Upsert;
		try {
			const directory = await ContactDirectory.open(this, count, 0, rows.filter(isRow).length);
			upsert = new Upsert(this, directory, count, settings.key, settings.validateOnly);
		} catch (error) {
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++)
				if (!results.has(itemIndex)) results.fail(itemIndex, error);
			return results.items();
		}
		for (const [itemIndex, row] of rows.entries()) {
			if (!isRow(row)) continue;
			try {
				results.succeed(itemIndex, await upsert.row(row, itemIndex));
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
		return results.items();
	},
};

const isRow = (row: ContactRow | undefined): row is ContactRow => row !== undefined;

/** Match On and Validate Only, read once: the same for every row. */
function settingsOf(context: IExecuteFunctions): UpsertSettings {
	const key = context.getNodeParameter('matchOn', 0, 'phone');
	if (key !== 'phone' && key !== 'email')
		throw new NodeOperationError(
			context.getNode(),
			`Item 0: Match On: must be Phone Number or Email (got ${JSON.stringify(key)})`,
			{ itemIndex: 0 },
		);
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	if (typeof options !== 'object' || options === null)
		throw new NodeOperationError(
			context.getNode(),
			'Item 0: Options: must be a collection of options',
			{ itemIndex: 0 },
		);
	return { key, validateOnly: options.validateOnly === true };
}

/**
 * The item's row, or undefined when it already has its output: a row with a value the API would
 * refuse is answered `refused` with the field named, without a request.
 */
function itemRow(
	context: IExecuteFunctions,
	itemIndex: number,
	results: ItemResults,
): ContactRow | undefined {
	try {
		const extra = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
			results.succeed(itemIndex, {
				status: 'refused',
				reason: 'Additional Fields: must be a collection of fields',
			});
			return undefined;
		}
		const { additionalData, ...fields } = extra;
		const read = rowOf({
			...fields,
			phoneNumber: context.getNodeParameter('phoneNumber', itemIndex, ''),
			email: context.getNodeParameter('email', itemIndex, ''),
			// the fixed collection's entries; anything else is left for the rules to refuse
			additionalData:
				additionalData && typeof additionalData === 'object' && !Array.isArray(additionalData)
					? ((additionalData as IDataObject).entries ?? [])
					: additionalData,
		});
		if ('row' in read) return read.row;
		results.succeed(itemIndex, { status: 'refused', reason: read.reason });
	} catch (error) {
		results.fail(itemIndex, error);
	}
	return undefined;
}
