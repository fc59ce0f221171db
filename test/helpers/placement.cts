import type { INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../../simulator/index.cts';

/** A resource locator set from its list, as the editor's picker sets it. */
export const listed = (value: string) => ({ __rl: true, mode: 'list', value });

/** The organization's first agent (simulator/seed.cts). */
export const firstAgent = (sim: Simulator) => [...sim.org.agents.values()][0];

/** The seeded contact John Smith and the organization's Madrid office number, found by their numbers. */
export function johnAndMadrid(sim: Simulator) {
	const contact = [...sim.org.contacts.values()].find((c) => c.phone_number === '+14155550123')!;
	const fromNumber = [...sim.org.phoneNumbers.values()].find(
		(n) => n.phone_number === '+34910000100',
	)!;
	return { contact, fromNumber };
}

/** Place AI Call's number and name from each input item's `to` and `name`. */
export const TO_EACH_ITEM = { toNumber: '={{ $json.to }}', fullName: '={{ $json.name }}' };

/**
 * Place AI Call to a phone number, by the first agent from the organization's US main line;
 * `overrides` set the rest (the number called, Wait for Outcome…).
 */
export const phoneCall = (sim: Simulator, overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'call',
	operation: 'placePhoneCall',
	agentId: listed(firstAgent(sim).id),
	fromNumber: listed('+14155550100'),
	toNumber: '+14155550199',
	fullName: 'Jane Doe',
	additionalFields: {},
	...overrides,
});

/** Place AI Call to Contact: the first agent calls John Smith from the Madrid office number. */
export const contactCall = (sim: Simulator, overrides: INodeParameters = {}): INodeParameters => {
	const { contact, fromNumber } = johnAndMadrid(sim);
	return {
		resource: 'call',
		operation: 'placeContactCall',
		agentId: listed(firstAgent(sim).id),
		contactId: listed(contact.id),
		fromNumberId: listed(fromNumber.id),
		...overrides,
	};
};
