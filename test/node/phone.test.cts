import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/**
 * Phone inputs (docs/decisions.md, "Phone inputs"): the forms people write are sent as the one
 * E.164 number they mean; anything that cannot be read as one number is refused before sending,
 * never guessed into another number.
 */
const ACCEPTED: Array<[string, string]> = [
	['+44 (0) 20 7946 0958', '+442079460958'],
	['+44(0)2079460958', '+442079460958'],
	['+49 (0)30 1234 5678', '+493012345678'],
	['+41 (0) 44 668 18 00', '+41446681800'],
	['+1 (415) 555-0123', '+14155550123'],
	['+34 612.345.678', '+34612345678'],
	[' +33 6 12 34 56 78 ', '+33612345678'],
	// the trunk 0 of a country that uses one, in a longer group or without brackets; 00 for +
	['+44 (020) 7946 0958', '+442079460958'],
	['+44 020 7946 0958', '+442079460958'],
	['0044 20 7946 0958', '+442079460958'],
	// Italy's leading 0 is part of the number
	['+39 06 1234 5678', '+390612345678'],
];

const REFUSED: Array<[string, string]> = [
	['+44 20 (0) 7946 0958', 'a (0) that does not follow the country code'],
	[
		'+595 021 123456',
		'a 0 after a code the numbering table does not list: trunk prefix or part of the number',
	],
	['020 7946 0958', 'no country code, and no Default Country'],
	['+44 20 7946 0958 / +44 20 7946 0959', 'two numbers'],
	['+1 415 555 0123 ext. 12', 'an extension'],
	['+44 (0)', 'no number after the trunk prefix'],
];

const E164_MESSAGE =
	'must be a phone number in international E.164 format: + then 8 to 15 digits, like +14155550123';

describe('phone inputs', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(() => sim.stop());

	const run = (parameters: INodeParameters) =>
		runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters,
			continueOnFail: true,
		});
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	const placeCall = (toNumber: string, fromNumber = '+14155550100'): INodeParameters => ({
		resource: 'call',
		operation: 'placePhoneCall',
		agentId: byId([...sim.org.agents.values()][0].id),
		fromNumber: byId(fromNumber),
		toNumber,
		fullName: 'Jane Doe',
		additionalFields: {},
	});
	const createContact = (phoneNumber: string): INodeParameters => ({
		resource: 'contact',
		operation: 'create',
		phoneNumber,
		additionalFields: {},
	});

	it('Place AI Call sends "+1 (415) 555-0123" as +14155550123, and a pasted From Number as E.164 too', async () => {
		const { items, error } = await run(placeCall('+1 (415) 555-0123', '+1 415.555.0100'));
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/calls/single-phone-call').at(-1)!.body).toMatchObject({
			to_number: '+14155550123',
			from_number: '+14155550100',
		});
	});

	it('Contact → Create and Update send "+34 612-345-678" and "+34 (612) 345 679" in E.164', async () => {
		const created = await run({
			resource: 'contact',
			operation: 'create',
			phoneNumber: '+34 612-345-678',
			additionalFields: {},
		});
		expect(created.items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/contacts').at(-1)!.body).toMatchObject({
			phone_number: '+34612345678',
		});
		const contactId = String(created.items[0].json.id);
		const updated = await run({
			resource: 'contact',
			operation: 'update',
			contactId: byId(contactId),
			updateFields: { phoneNumber: '+34 (612) 345 679' },
		});
		expect(updated.items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('PATCH', `/v1/contacts/${contactId}`).at(-1)!.body).toMatchObject({
			phone_number: '+34612345679',
		});
	});

	it('refuses before sending what cannot be made E.164 (no + and country code), with the message of before', async () => {
		const before = sim.requests.length;
		const { items } = await run(placeCall('(415) 555-0123'));
		expect(sim.requests.length).toBe(before);
		expect(items[0].json.error).toMatch(
			/item 0.*To Number.*must be a phone number in international E\.164 format: \+ then 8 to 15 digits, like \+14155550123/is,
		);
	});
	it.each(ACCEPTED)('Place AI Call to "%s" calls %s', async (written, sent) => {
		const { items } = await run(placeCall(written));
		expect(items[0].json.error).toBeUndefined();
		expect(sim.requestsTo('POST', '/v1/calls/single-phone-call').at(-1)!.body).toMatchObject({
			to_number: sent,
		});
	});

	it.each(ACCEPTED)('Contact → Create with "%s" stores %s', async (written, sent) => {
		const existing = [...sim.org.contacts.values()].find((c) => c.phone_number === sent);
		if (existing) sim.org.contacts.delete(existing.id);
		const { items } = await run(createContact(written));
		expect(items[0].json.error).toBeUndefined();
		expect(items[0].json.phone_number).toBe(sent);
	});

	it.each(REFUSED)('"%s" is refused before sending (%s)', async (written) => {
		const before = sim.requests.length;
		const call = await run(placeCall(written));
		const contact = await run(createContact(written));
		expect(sim.requests.length).toBe(before);
		expect(call.items[0].json.error).toMatch(/item 0.*To Number/is);
		expect(call.items[0].json.error).toContain(E164_MESSAGE);
		expect(contact.items[0].json.error).toMatch(/item 0.*Phone Number/is);
		expect(contact.items[0].json.error).toContain(E164_MESSAGE);
	});

	it('every phone field checked as E.164 states the accepted forms in its hint', () => {
		const checked = new Set(['toNumber', 'fromNumber', 'phoneNumber']);
		const found: INodeProperties[] = [];
		const walk = (properties: INodeProperties[], inFilters: boolean) => {
			for (const property of properties) {
				// Contact → Get Many's phone filter is a partial text match, and Create or Update's
				// Column Names name a file's column: neither is a number to call
				if (checked.has(property.name) && !inFilters) found.push(property);
				const nested = (property.options ?? []) as Array<INodeProperties | { values?: unknown }>;
				walk(
					nested.filter((o): o is INodeProperties => 'type' in o),
					inFilters || ['filters', 'columnNames'].includes(property.name),
				);
			}
		};
		walk(new VoiceAgentCrm().description.properties, false);
		// To Number, From Number, Contact → Create's and Update's Phone Number
		expect(found.length).toBeGreaterThanOrEqual(4);
		for (const property of found) {
			// a locator's hint is its typed mode's, which n8n shows instead of the field's: not under From List
			const typed = property.modes?.find((mode) => mode.type === 'string');
			if (property.modes) expect(property.hint).toBeUndefined();
			const hint = typed?.hint ?? property.hint;
			expect(hint).toContain('+ and country code');
			expect(hint).toContain('or national with a Default Country');
			expect(hint).toContain('a trunk 0 are dropped');
			// n8n's lint keeps hints within 120 characters
			expect(hint!.length).toBeLessThanOrEqual(120);
		}
	});
});
