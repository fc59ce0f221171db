import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { placeOfNumber, type KnownPlace } from '../../../shared/callingRules/lawful';
import { locatorValue } from '../../../shared/locators';
import { isTimeZone, NON_EMPTY, phoneNumber, readDefaultCountry } from '../../../shared/validation';
import type { Person } from './plan';
import { minuteOfDay, windowProblem, type CallingWindow } from './window';

/**
 * The people of a campaign, one per input item, read and checked before any request. A bad row
 * never rings a phone and never stops the others: it is answered on its own item, with the field
 * and the reason (campaign/outcome.ts).
 */

/** Why a person is skipped, as the item's `skipped_for` says it (and Get Campaign counts it). */
export type SkipReason =
	| 'listed_twice'
	| 'called_by_another_campaign'
	| 'do_not_call'
	| 'no_calling_hours';

/** A row that is not called, and why. */
export interface RowProblem {
	itemIndex: number;
	status: 'invalid' | 'skipped';
	skippedFor?: SkipReason;
	reason: string;
	toNumber: string;
	fullName: string;
}

export interface People {
	people: Person[];
	problems: RowProblem[];
}

/** A row's problem: its message names the field and what is expected. */
class RowError extends Error {}

/**
 * Where the person is: the places whose calling rules apply and every zone the person can be in
 * (shared/callingRules/lawful.ts). Person Time Zone wins; then the number (a US or Canadian area
 * code, a numbering plan, a country with one zone); then the form's fallback, if chosen.
 */
function placeOf(context: IExecuteFunctions, itemIndex: number, key: string): KnownPlace {
	const given = String(context.getNodeParameter('personTimeZone', itemIndex, '') ?? '').trim();
	if (given && !isTimeZone(given))
		throw new RowError(
			`Person Time Zone: must be an IANA time zone, like Europe/Madrid or America/New_York (got "${given}")`,
		);
	const read = placeOfNumber(key, given ? { zone: given, zoneSource: 'field' } : {});
	if (read.known) return read;
	if (read.refused) throw new RowError(`To Number: ${read.reason}, so the person was not called`);
	if (context.getNodeParameter('zoneFallback', itemIndex, 'skip') !== 'zone')
		throw new RowError(
			`Person Time Zone is empty, and the number does not tell the zone (${read.reason}). The person was not called: give the zone (e.g. from a column), or choose If the Time Zone Is Unknown → Use a Time Zone.`,
		);
	const fallback = String(locatorValue(context.getNodeParameter('timezone', itemIndex, '')) ?? '');
	if (!isTimeZone(fallback.trim()))
		throw new RowError(
			`Time Zone: must be an IANA time zone, like Europe/Madrid (got "${fallback}")`,
		);
	const withFallback = placeOfNumber(key, { zone: fallback.trim(), zoneSource: 'fallback' });
	if (!withFallback.known) throw new RowError(`To Number: ${withFallback.reason}`);
	return withFallback;
}

/** Call On as ISO weekdays: a list of 1 (Monday) … 7 (Sunday), as the field gives them, or an expression does. */
function daysOf(context: IExecuteFunctions, itemIndex: number): number[] {
	const given: unknown = context.getNodeParameter('callDays', itemIndex, []);
	const days = Array.isArray(given) ? given.map((day) => Number(day)) : [];
	if (!Array.isArray(given) || !days.every((day) => Number.isInteger(day) && day >= 1 && day <= 7))
		throw new RowError(
			`Call On: must be a list of days as numbers from 1 (Monday) to 7 (Sunday), like [1, 2, 3, 4, 5] (got ${String(JSON.stringify(given) ?? given).slice(0, 80)})`,
		);
	return days;
}

function windowOf(context: IExecuteFunctions, itemIndex: number): CallingWindow {
	const days = daysOf(context, itemIndex);
	const [from, until] = ['callFrom', 'callUntil'].map((name) =>
		context.getNodeParameter(name, itemIndex, ''),
	);
	const [fromMinute, untilMinute] = [from, until].map(minuteOfDay);
	if (fromMinute === undefined)
		throw new RowError(`Call From: must be a time of day like 09:00 (got "${String(from)}")`);
	if (untilMinute === undefined)
		throw new RowError(`Call Until: must be a time of day like 17:00 (got "${String(until)}")`);
	const window = { days, fromMinute, untilMinute };
	const problem = windowProblem(window);
	if (problem) throw new RowError(problem);
	return window;
}

function personOf(context: IExecuteFunctions, itemIndex: number): Person {
	const toNumber = context.getNodeParameter('toNumber', itemIndex, '');
	const country = readDefaultCountry(context.getNodeParameter('defaultCountry', itemIndex, ''));
	if ('problem' in country) throw new RowError(country.problem);
	const number = phoneNumber(country.country).safeParse(toNumber);
	if (!number.success)
		throw new RowError(`To Number: ${number.error.issues[0].message} (got "${String(toNumber)}")`);
	const name = NON_EMPTY.safeParse(context.getNodeParameter('fullName', itemIndex, ''));
	if (!name.success) throw new RowError(`Full Name: ${name.error.issues[0].message}`);
	return {
		itemIndex,
		key: number.data,
		fullName: name.data,
		place: placeOf(context, itemIndex, number.data),
		window: windowOf(context, itemIndex),
		lawful: context.getNodeParameter('callingHours', itemIndex, 'lawful') !== 'window',
	};
}

/** Every item read: the people to call, in item order, and the rows that are not called. */
export function readPeople(context: IExecuteFunctions, count: number): People {
	const people: Person[] = [];
	const problems: RowProblem[] = [];
	const firstRow = new Map<string, number>();
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const shown = (name: string) => String(context.getNodeParameter(name, itemIndex, '') ?? '');
		const row = { itemIndex, toNumber: shown('toNumber'), fullName: shown('fullName') };
		try {
			const person = personOf(context, itemIndex);
			const first = firstRow.get(person.key);
			if (first !== undefined) {
				problems.push({
					...row,
					status: 'skipped',
					skippedFor: 'listed_twice',
					reason: `Listed twice: item ${first} has the same number, and the person is called once`,
				});
				continue;
			}
			firstRow.set(person.key, itemIndex);
			people.push(person);
		} catch (error) {
			// an expression that fails on this row is the row's problem too
			problems.push({ ...row, status: 'invalid', reason: (error as Error).message });
		}
	}
	return { people, problems };
}

/**
 * The campaign's name in the calls' metadata: the workflow, the node and the numbers listed. The
 * same list run again (a re-run, a Retry, a second execution started at the same time) is the same
 * campaign and goes on with it; another list is another campaign.
 */
export function campaignKeyOf(workflowId: string, node: string, people: Person[]): string {
	const numbers = people.map((person) => person.key).sort();
	return createHash('sha256')
		.update(JSON.stringify({ workflow: workflowId, node, numbers }))
		.digest('hex')
		.slice(0, 16);
}
