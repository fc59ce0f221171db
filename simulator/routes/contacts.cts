import { randomUUID } from 'node:crypto';

import { bare, envelope, type RouteDef, type SimRequest, type Simulator } from '../server.cts';
import type { AdditionalDataItem, Contact, Organization } from '../types.cts';
import {
	answering,
	invalid,
	isE164,
	isUuid,
	notFound,
	objectBody,
	optionalString,
	page,
	pageQuery,
	RequestFailure,
	rejectUnknownFields,
	type Body,
} from './requestFields.cts';

/** Fields a client may write; the same set for creation (inferred) and update (documented). */
const WRITABLE_FIELDS = [
	'phone_number',
	'full_name',
	'country',
	'email',
	'description',
	'additional_data',
] as const;
const TEXT_FIELDS = ['full_name', 'country', 'email', 'description'] as const;
const SEARCH_FIELDS = ['full_name', 'email', 'phone_number'] as const;

/** The reference: "up to 100 contacts per request by default", `limit` capped at 1000. */
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

type ContactView = Omit<Contact, 'external_ids' | 'last_activity_at'>;

/** A contact as the API shows it: without the simulator's bookkeeping. */
export function contactView({
	external_ids: _ids,
	last_activity_at: _activity,
	...visible
}: Contact): ContactView {
	return visible;
}

/** The contact of the organization, or 404 (a malformed id is a 400 only where `malformedIs400`). */
export function findContact(org: Organization, contactId: string, malformedIs400 = false): Contact {
	if (malformedIs400 && !isUuid(contactId)) throw invalid('contactId must be a UUID');
	const contact = org.contacts.get(contactId);
	if (!contact) throw notFound(`Contact ${contactId} not found`);
	return contact;
}

function listContacts(req: SimRequest) {
	const pageOf = pageQuery(req.query, DEFAULT_PAGE, MAX_PAGE);
	const filters = SEARCH_FIELDS.filter((field) => req.query[field]).map((field) => ({
		field,
		needle: req.query[field].toLowerCase(),
	}));
	const matching = [...req.org.contacts.values()].filter((contact) =>
		filters.every(({ field, needle }) => contact[field].toLowerCase().includes(needle)),
	);
	// The reference's example shows a bare array, its limits section `{data, pagination: {total_rows}}`;
	// docs/decisions.md takes the limits section's shape for every listing endpoint.
	return bare({
		data: page(matching, pageOf).map(contactView),
		pagination: { total_rows: matching.length },
	});
}

function createContact(req: SimRequest) {
	const fields = contactFields(req.body);
	if (fields.phone_number === undefined)
		throw invalid('phone_number is required (E.164, e.g. +14155550123)');
	rejectDuplicatePhone(req.org, fields.phone_number);
	const contact: Contact = {
		id: randomUUID(),
		created_at: req.sim.clock.iso(),
		phone_number: fields.phone_number,
		full_name: fields.full_name ?? '',
		country: fields.country ?? '',
		email: fields.email ?? '',
		description: fields.description ?? '',
		additional_data: fields.additional_data ?? [],
		organization_id: req.org.id,
		external_ids: [],
		last_activity_at: 0,
	};
	req.org.contacts.set(contact.id, contact);
	return envelope(contactView(contact), 201);
}

function updateContact(req: SimRequest) {
	const contact = findContact(req.org, req.params.contactId, true);
	const fields = contactFields(req.body);
	if (fields.phone_number !== undefined)
		rejectDuplicatePhone(req.org, fields.phone_number, contact.id);
	Object.assign(contact, fields);
	return bare(contactView(contact));
}

function deleteContact(req: SimRequest) {
	const contact = findContact(req.org, req.params.contactId, true);
	req.org.contacts.delete(contact.id);
	req.org.contactTags.delete(contact.id);
	for (const comment of req.org.comments.values()) {
		if (comment.contact_id === contact.id) req.org.comments.delete(comment.id);
	}
	return envelope(true);
}

function contactTags(req: SimRequest) {
	const contact = findContact(req.org, req.params.contactId);
	const tagIds = [...(req.org.contactTags.get(contact.id) ?? [])];
	return envelope(tagIds.map((id) => req.org.tags.get(id)).filter(Boolean));
}

/** Inferred (docs/decisions.md): the contact's comments, newest first, as a timeline reads. */
function contactComments(req: SimRequest) {
	const contact = findContact(req.org, req.params.contactId);
	const comments = [...req.org.comments.values()]
		.filter((comment) => comment.contact_id === contact.id)
		.reverse()
		.map(({ contact_id: _contact, ...visible }) => visible);
	return envelope(comments);
}

type ContactFields = Partial<
	Pick<Contact, (typeof TEXT_FIELDS)[number] | 'phone_number' | 'additional_data'>
>;

/** The writable fields present in the body, each checked; absent fields stay absent. */
function contactFields(rawBody: unknown): ContactFields {
	const body = objectBody(rawBody);
	rejectUnknownFields(body, WRITABLE_FIELDS);
	const fields: ContactFields = {};
	for (const field of TEXT_FIELDS) {
		const value = optionalString(body, field);
		if (value !== undefined) fields[field] = value;
	}
	if (fields.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fields.email)) {
		throw invalid('email must be an email address such as name@example.com');
	}
	if (body.phone_number !== undefined) {
		if (!isE164(body.phone_number))
			throw invalid('phone_number must be in E.164 format, e.g. +14155550123');
		fields.phone_number = body.phone_number;
	}
	if (body.additional_data !== undefined) fields.additional_data = additionalData(body);
	return fields;
}

function additionalData(body: Body): AdditionalDataItem[] {
	const items = body.additional_data;
	if (!Array.isArray(items))
		throw invalid('additional_data must be an array of {type, field, value}');
	return items.map((item: unknown, index) => {
		const where = `additional_data[${index}]`;
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			throw invalid(`${where} must be an object {type, field, value}`);
		}
		const entry = item as Body;
		for (const key of ['type', 'field', 'value']) {
			if (typeof entry[key] !== 'string')
				throw invalid(`${where}.${key} is required and must be a string`);
		}
		return {
			type: entry.type as string,
			field: entry.field as string,
			value: entry.value as string,
		};
	});
}

function rejectDuplicatePhone(org: Organization, phone: string, exceptId?: string): void {
	for (const other of org.contacts.values()) {
		if (other.phone_number === phone && other.id !== exceptId) {
			throw new RequestFailure(409, `Another contact already has the phone number ${phone}`);
		}
	}
}

export const contactRoutes: RouteDef[] = [
	{
		method: 'GET',
		pattern: '/v1/contacts',
		budgets: ['org', 'listing'],
		handler: answering(listContacts),
	},
	{ method: 'POST', pattern: '/v1/contacts', handler: answering(createContact) },
	{ method: 'PATCH', pattern: '/v1/contacts/:contactId', handler: answering(updateContact) },
	{ method: 'DELETE', pattern: '/v1/contacts/:contactId', handler: answering(deleteContact) },
	{ method: 'GET', pattern: '/v1/contacts/:contactId/tags', handler: answering(contactTags) },
	{
		method: 'GET',
		pattern: '/v1/contacts/:contactId/comments',
		handler: answering(contactComments),
	},
];

/**
 * Test helper: add `count` generated contacts to the organization (names `Contact 00001`...,
 * unique numbers `+1555xxxxxxx`, emails `contact00001@bulk.example.test`). Returns them.
 */
export function insertContacts(sim: Simulator, org: Organization, count: number): Contact[] {
	const taken = new Set([...org.contacts.values()].map((contact) => contact.phone_number));
	const created_at = sim.clock.iso();
	const inserted: Contact[] = [];
	for (let serial = 1; inserted.length < count; serial++) {
		const phone_number = `+1555${String(serial).padStart(7, '0')}`;
		if (taken.has(phone_number)) continue;
		const label = String(org.contacts.size + 1).padStart(5, '0');
		const contact: Contact = {
			id: randomUUID(),
			created_at,
			phone_number,
			full_name: `Contact ${label}`,
			country: 'US',
			email: `contact${label}@bulk.example.test`,
			description: '',
			additional_data: [],
			organization_id: org.id,
			external_ids: [],
			last_activity_at: 0,
		};
		org.contacts.set(contact.id, contact);
		inserted.push(contact);
	}
	return inserted;
}
