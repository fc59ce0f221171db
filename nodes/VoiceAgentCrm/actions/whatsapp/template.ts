import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';
import { shortened } from '../../transport/text';
import { failItem } from '../../shared/validation';
import { readOncePerRun } from './fields';

/**
 * A template as the editor's list stores it: its name and the language it was approved in,
 * joined by `|` (WhatsApp template names are lowercase letters, digits and underscores, so the
 * bar cannot be part of one). A name given alone (typed, mapped, or chosen by an AI agent) has
 * no language of its own.
 */
const SEPARATOR = '|';

export function templateChoice(name: string, language: string): string {
	return `${name}${SEPARATOR}${language}`;
}

export function parseTemplateChoice(value: string): { name: string; language?: string } {
	const at = value.lastIndexOf(SEPARATOR);
	if (at < 0) return { name: value.trim() };
	return { name: value.slice(0, at).trim(), language: value.slice(at + 1).trim() || undefined };
}

/** A template the channel may send: approved (a template listed without a status counts as approved). */
export function isApproved(template: IDataObject): boolean {
	return !template.status || String(template.status).toUpperCase() === 'APPROVED';
}

/**
 * The language of a template given by name alone, with Language Code left empty: the one it is
 * approved in on the channel. The channel's templates are read once per execution; a name approved
 * in several languages, or in none, is refused before sending, saying which.
 */
export async function approvedLanguageOf(
	context: IExecuteFunctions,
	channelId: string,
	name: string,
	itemIndex: number,
): Promise<string> {
	const templates = await readOncePerRun(context, `templates of ${channelId}`, async () => {
		const { payload } = await apiRequest.call(context, 'listTemplates', {
			query: { channel_id: channelId },
			itemIndex,
		});
		return (Array.isArray(payload) ? payload : []) as IDataObject[];
	});
	const languages = templates
		.filter((t) => t.name === name && isApproved(t))
		.map((t) => String(t.language));
	if (languages.length === 1) return languages[0];
	if (languages.length === 0) {
		failItem(context, itemIndex, [
			`Template: there is no approved template named ${shortened(name)} on this channel. Pick one from the list.`,
		]);
	}
	return failItem(context, itemIndex, [
		`Language Code: the template ${name} is approved in ${languages.join(', ')}; set the language to send, or pick the template with its language from the list.`,
	]);
}
