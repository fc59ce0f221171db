import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/operation';
import { ItemResults, sample } from '../../shared/operation';
import { ContactDirectory, RequestCount, type MatchKey } from '../../shared/contactDirectory';
import { readDefaultCountry } from '../../shared/validation';
import { upsertFiles } from './upsert/file';
import { upsertContactFields } from './upsert/fields';
import { CLEARABLE, rowOf, type ContactRow, type RowRules } from './upsert/match';
import { RunKeys, type RepeatedKeys } from './upsert/repeats';
import { Upsert } from './upsert/run';

export interface UpsertSettings {
	key: MatchKey;
	validateOnly: boolean;
	rules: RowRules;
	repeats: RepeatedKeys;
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
		const rows = items.map((_, itemIndex) => itemRow(this, itemIndex, settings.rules, results));
		const keys = new RunKeys(settings.key, settings.repeats, (itemIndex) => `item ${itemIndex}`);
		for (const [itemIndex, row] of rows.entries()) if (row) keys.add(itemIndex, row);
		const count = new RequestCount();
		let upsert: Upsert;
		let directory: ContactDirectory;
		try {
			directory = await ContactDirectory.open(this, count, 0, lookupsOf(settings, keys.size));
			upsert = new Upsert(this, directory, count, settings);
		} catch (error) {
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++)
				if (!results.has(itemIndex)) results.fail(itemIndex, error);
			return results.items();
		}
		const outputs: IDataObject[] = [];
		for (const [itemIndex, row] of rows.entries()) {
			if (!row) continue;
			try {
				const plan = keys.plan(itemIndex, row);
				const result = 'answer' in plan ? plan.answer : await upsert.row(plan.row, itemIndex);
				outputs[itemIndex] = { ...result, ...keys.settle(itemIndex, result) };
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
		for (const retried of await upsert.retryBlocked()) {
			const { position } = retried;
			if ('error' in retried) {
				delete outputs[position];
				results.fail(position, retried.error);
				continue;
			}
			outputs[position] = { ...retried.result, ...keys.settle(position, retried.result) };
			for (const later of keys.answersAfter(position)) outputs[later.position] = later.answer;
		}
		try {
			for (const { position, duplicate } of await upsert.duplicatesCreated())
				outputs[position].duplicate_contacts = duplicate;
		} catch {
			// the check after the writes failed: what was written stands, as the items say
		}
		// said once, on the first row's output: the input's fields no parameter reads, and the
		// lookup chosen by the organization's size
		const first = outputs.findIndex(Boolean);
		const notRead = fieldsNotRead(this, items);
		if (first >= 0 && notRead.length) outputs[first].columns_not_read = notRead;
		if (first >= 0 && directory.organizationContacts !== undefined)
			Object.assign(outputs[first], directory.describe());
		for (const [itemIndex, output] of outputs.entries())
			if (output) results.succeed(itemIndex, output);
		return results.items();
	},
};

/**
 * The input items' fields that no expression of the node's parameters names (`$json.plan`,
 * `$json["plan"]`): a column of the export the mapping leaves out, said so that it is not dropped
 * unnoticed.
 */
function fieldsNotRead(context: IExecuteFunctions, items: INodeExecutionData[]): string[] {
	const expressions: string[] = [];
	const collect = (value: unknown): void => {
		if (typeof value === 'string' && value.startsWith('=')) expressions.push(value);
		else if (value && typeof value === 'object') Object.values(value).forEach(collect);
	};
	collect(context.getNode().parameters);
	const mapped = expressions.join('\n');
	const fields = new Set(items.flatMap((item) => Object.keys(item.json)));
	return [...fields].filter((field) => {
		const name = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		return !new RegExp(`\\.${name}\\b|\\[\\s*['"\`]${name}['"\`]\\s*\\]`).test(mapped);
	});
}

/**
 * The listings per-row lookups would cost: one per key, and one more per phone when a dry run
 * matched on email looks up who holds it (a write learns it from the API's 409).
 */
export function lookupsOf(settings: UpsertSettings, keys: number): number {
	return settings.key === 'email' && settings.validateOnly ? 2 * keys : keys;
}

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
	const clear = options.clearBlankFields;
	return {
		key,
		validateOnly: options.validateOnly === true,
		rules: {
			clearBlank: new Set(
				Array.isArray(clear) ? clear.filter((name) => CLEARABLE.includes(name as never)) : [],
			),
			replaceCustom: options.customFields === 'replace',
		},
		repeats: options.repeatedKeys === 'refuse' ? 'refuse' : 'merge',
	};
}

/**
 * The item's row, or undefined when it already has its output: a row with a value the API would
 * refuse is answered `refused` with the field named, without a request.
 */
function itemRow(
	context: IExecuteFunctions,
	itemIndex: number,
	rules: RowRules,
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
		const country = readDefaultCountry(context.getNodeParameter('defaultCountry', itemIndex, ''));
		if ('problem' in country) {
			results.succeed(itemIndex, { status: 'refused', reason: country.problem });
			return undefined;
		}
		const { additionalData, ...fields } = extra;
		const read = rowOf(
			{
				...fields,
				phoneNumber: context.getNodeParameter('phoneNumber', itemIndex, ''),
				email: context.getNodeParameter('email', itemIndex, ''),
				// the fixed collection's entries; anything else is left for the rules to refuse
				additionalData:
					additionalData && typeof additionalData === 'object' && !Array.isArray(additionalData)
						? ((additionalData as IDataObject).entries ?? [])
						: additionalData,
			},
			{ ...rules, defaultCountry: country.country },
		);
		if ('row' in read) return read.row;
		results.succeed(itemIndex, { status: 'refused', reason: read.reason });
	} catch (error) {
		results.fail(itemIndex, error);
	}
	return undefined;
}
