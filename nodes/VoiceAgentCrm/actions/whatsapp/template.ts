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
