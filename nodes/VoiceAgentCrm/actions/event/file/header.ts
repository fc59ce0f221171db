import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { delimiterName, likelyDelimiter } from '../../../shared/fileRows';
import type { Columns } from '../build';

/** The parts of an event that identify whom it is about: a row needs one of their columns. */
const IDENTITY: Array<[keyof Columns, string]> = [
	['email', 'Email Field'],
	['phone', 'Phone Field'],
	['contactId', 'Contact ID Field'],
	['externalId', 'External ID Field'],
	['contact', 'Contact Field'],
	['sessionId', 'Session ID Field'],
];

/**
 * A CSV header that cannot give events stops the file before any request, naming what is
 * missing, the columns found and, when the header looks written with another delimiter, that one:
 * otherwise every row would be answered "event_name is required" with no word about why.
 */
export function checkHeader(
	context: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	columns: Columns,
	delimiter: string,
): void {
	const found = new Set(names);
	const missing: string[] = [];
	const wanted: Array<[keyof Columns, string]> = [];
	if (!found.has(columns.eventName)) {
		missing.push(`"${columns.eventName}" (the event name; Field Names → Event Name Field)`);
		wanted.push(['eventName', 'Event Name Field']);
	}
	const identity = IDENTITY.filter(([key]) => columns[key] !== '');
	if (!identity.some(([key]) => found.has(columns[key]))) {
		missing.push(
			`one of ${identity.map(([key]) => `"${columns[key]}"`).join(', ')} (whom the event is about)`,
		);
		wanted.push(...identity);
	}
	if (!missing.length) return;
	const other = likelyDelimiter(names, delimiter);
	const advice = other
		? `The header looks separated by ${delimiterName(other)}, not ${delimiterName(delimiter)}: set Delimiter to ${delimiterName(other)}.`
		: (encodingAdvice(names) ?? renameAdvice(names, columns, wanted));
	throw new NodeOperationError(
		context.getNode(),
		`The file's header has no column ${missing.join(' and no column ')}`,
		{
			itemIndex,
			description: `Columns found in row 1: ${names.map((name) => `"${name}"`).join(', ')}. ${advice} Nothing was sent.`,
		},
	);
}

function encodingAdvice(names: string[]): string | undefined {
	const text = names.join('');
	if (text.includes('\u0000'))
		return 'The header holds zero bytes: the file looks like UTF-16. Set Options → Encoding to UTF-16 LE or UTF-16 BE.';
	if (text.includes('\uFFFD'))
		return "The header holds bytes that are not valid in the chosen encoding: set Options → Encoding to the file's own.";
	return undefined;
}

/** A found column that looks meant for a missing part ("Event" for event_name, "mail" for email), as advice. */
function renameAdvice(
	names: string[],
	columns: Columns,
	wanted: Array<[keyof Columns, string]>,
): string {
	const squeeze = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
	const suggestions: string[] = [];
	for (const [key, option] of wanted) {
		const part = squeeze(columns[key]);
		const near = names.find((name) => {
			const have = squeeze(name);
			return have.length >= 4 && (part.includes(have) || have.includes(part));
		});
		if (near !== undefined) suggestions.push(`${option} = "${near}"`);
	}
	return suggestions.length
		? `Name the file's columns under Field Names: ${suggestions.join(', ')}.`
		: 'Name the file\'s columns under Field Names (for example Event Name Field = "Event").';
}
