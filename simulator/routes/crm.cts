import { randomUUID } from 'node:crypto';

import { bare, envelope, type RouteDef, type SimRequest } from '../server.cts';
import type { Comment, Member, Organization, Tag, Task } from '../types.cts';
import { findContact } from './contacts.cts';
import {
	answering,
	invalid,
	isUuid,
	notFound,
	objectBody,
	oneOf,
	optionalString,
	page,
	pageQuery,
	rejectUnknownFields,
	requiredString,
	requiredUuid,
	type Body,
} from './requestFields.cts';

// ---- Tags -------------------------------------------------------------------------------------

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function listTags(req: SimRequest) {
	return envelope([...req.org.tags.values()]);
}

/** Inferred (docs/decisions.md): `name` and `color` required, `label` optional. */
function createTag(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, ['name', 'color', 'label']);
	const name = requiredString(body, 'name');
	const color = requiredString(body, 'color');
	if (!HEX_COLOR.test(color)) throw invalid('color must be a hex color such as #ff9900');
	const label = optionalString(body, 'label');
	const tag: Tag = {
		id: `tag-${randomUUID()}`,
		name,
		color,
		...(label !== undefined && { label }),
	};
	req.org.tags.set(tag.id, tag);
	return envelope(tag, 201);
}

function deleteTag(req: SimRequest) {
	const { tagId } = req.params;
	if (!req.org.tags.delete(tagId)) throw notFound(`Tag ${tagId} not found`);
	for (const tagIds of req.org.contactTags.values()) tagIds.delete(tagId);
	return bare(true);
}

/**
 * Test helper: attach a tag to a contact. The reference describes no endpoint for it and
 * docs/decisions.md infers none, so tests attach tags directly.
 */
export function tagContact(org: Organization, contactId: string, tagId: string): void {
	if (!org.contacts.has(contactId))
		throw new Error(`no contact ${contactId} in organization ${org.id}`);
	if (!org.tags.has(tagId)) throw new Error(`no tag ${tagId} in organization ${org.id}`);
	const tagIds = org.contactTags.get(contactId) ?? new Set<string>();
	tagIds.add(tagId);
	org.contactTags.set(contactId, tagIds);
}

// ---- Comments ---------------------------------------------------------------------------------

const CREATOR_TYPES = ['USER', 'SYSTEM', 'AI', 'AUTOMATIZATION'] as const;

function createComment(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, ['content', 'contact_id', 'created_by_type', 'created_by']);
	const content = requiredString(body, 'content');
	const contactId = requiredUuid(body, 'contact_id');
	const creatorType = oneOf('created_by_type', body.created_by_type, CREATOR_TYPES);
	const created_by =
		creatorType === 'USER' ? commentingMember(req.org, body) : rejectCreatorFor(creatorType, body);
	findContact(req.org, contactId);
	const comment: Comment = {
		id: randomUUID(),
		contact_id: contactId,
		content,
		created_by,
		created_at: req.sim.clock.iso(),
	};
	req.org.comments.set(comment.id, comment);
	const { contact_id: _contact, ...visible } = comment;
	return envelope(visible, 201);
}

/** A `USER` comment names its author by the email of a member of the organization. */
function commentingMember(org: Organization, body: Body): Record<string, unknown> {
	const email = requiredString(body, 'created_by');
	const member = memberByEmail(org, email);
	if (!member)
		throw invalid(`created_by must be the email of a member of the organization; ${email} is not`);
	return { ...member };
}

function rejectCreatorFor(creatorType: string, body: Body): string {
	if (body.created_by !== undefined) {
		throw invalid(`created_by is only accepted with created_by_type USER, not with ${creatorType}`);
	}
	return creatorType;
}

function memberByEmail(org: Organization, email: string): Member | undefined {
	return org.members.find((member) => member.email.toLowerCase() === email.toLowerCase());
}

// ---- Tasks ------------------------------------------------------------------------------------

const TASK_TYPES = ['custom', 'AI', 'system', 'automatization'] as const;
const TASK_STATUSES = ['backlog', 'todo', 'in_progress', 'done', 'blocked', 'canceled'] as const;
const TASK_PRIORITIES = ['low', 'medium', 'high'] as const;
const TASK_FIELDS = [
	'type',
	'brief',
	'details',
	'status',
	'priority',
	'assigned_to',
	'additional_data',
];

function getTask(req: SimRequest) {
	const task = req.org.tasks.get(req.params.id);
	if (!task) throw notFound(`Task ${req.params.id} not found`);
	return envelope(task);
}

/** Inferred (docs/decisions.md): newest first, `limit` default 100 and at most 1000 as other listings. */
function listTasks(req: SimRequest) {
	const pageOf = pageQuery(req.query, 100, 1000);
	const status = req.query.status ? oneOf('status', req.query.status, TASK_STATUSES) : undefined;
	const tasks = [...req.org.tasks.values()]
		.reverse()
		.filter((task) => !status || task.status === status);
	return envelope(page(tasks, pageOf));
}

/**
 * Inferred (docs/decisions.md). Only `brief` is required; the rest default to a custom, medium,
 * to-do task. A task created with an API key has no creator (`created_by: null`).
 */
function createTask(req: SimRequest) {
	const body = objectBody(req.body);
	rejectUnknownFields(body, TASK_FIELDS);
	const now = req.sim.clock.iso();
	const task: Task = {
		id: randomUUID(),
		type: body.type === undefined ? 'custom' : oneOf('type', body.type, TASK_TYPES),
		brief: requiredString(body, 'brief'),
		details: optionalString(body, 'details') ?? '',
		status: body.status === undefined ? 'todo' : oneOf('status', body.status, TASK_STATUSES),
		priority:
			body.priority === undefined ? 'medium' : oneOf('priority', body.priority, TASK_PRIORITIES),
		assigned_to: assignees(req.org, body.assigned_to),
		created_by: null,
		additional_data: taskAdditionalData(body.additional_data),
		created_at: now,
		updated_at: now,
	};
	req.org.tasks.set(task.id, task);
	return envelope(task, 201);
}

/** Creation accepts member emails (and, for round trips, member ids); storage keeps ids. */
function assignees(org: Organization, value: unknown): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw invalid('assigned_to must be an array of member emails');
	return value.map((entry: unknown, index) => {
		const member =
			typeof entry === 'string'
				? (memberByEmail(org, entry) ??
					(isUuid(entry) ? org.members.find((m) => m.id === entry) : undefined))
				: undefined;
		if (!member)
			throw invalid(`assigned_to[${index}] must be the email of a member of the organization`);
		return member.id;
	});
}

function taskAdditionalData(value: unknown): Record<string, unknown> {
	if (value === undefined) return {};
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw invalid('additional_data must be an object');
	}
	return value as Record<string, unknown>;
}

export const crmRoutes: RouteDef[] = [
	{ method: 'GET', pattern: '/v1/tags', handler: answering(listTags) },
	{ method: 'POST', pattern: '/v1/tags', handler: answering(createTag) },
	{ method: 'DELETE', pattern: '/v1/tags/:tagId', handler: answering(deleteTag) },
	{ method: 'POST', pattern: '/v1/comments', handler: answering(createComment) },
	{ method: 'GET', pattern: '/v1/tasks', handler: answering(listTasks) },
	{ method: 'POST', pattern: '/v1/tasks', handler: answering(createTask) },
	{ method: 'GET', pattern: '/v1/tasks/:id', handler: answering(getTask) },
];
