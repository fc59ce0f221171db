/** Companies from `event.group`: the first event with an id creates one, later ones update it. */
import type { Organization } from '../types.cts';
import type { GroupData } from './validateEvent.cts';

export function applyGroup(org: Organization, group: GroupData, contactId: string | null): void {
	let company = org.companies.get(group.id);
	if (!company) {
		// Decision (reference silent): a company created without a name is named after its id.
		company = { id: group.id, name: group.name ?? group.id, properties: {}, contact_ids: [] };
		org.companies.set(group.id, company);
	} else if (group.name !== undefined) {
		company.name = group.name;
	}
	Object.assign(company.properties, group.properties);
	if (contactId !== null) linkContact(org, group.id, contactId);
}

export function linkContact(org: Organization, companyId: string, contactId: string): void {
	const company = org.companies.get(companyId);
	if (company && !company.contact_ids.includes(contactId)) company.contact_ids.push(contactId);
}
