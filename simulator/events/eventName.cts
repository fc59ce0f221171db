/**
 * Event-name normalization as the reference states it: accents dropped, words split on capitals,
 * spaces, hyphens and dots, lowercase joined by underscores; the result must start with a letter,
 * be at most 40 characters and not use the `cs_` prefix the service keeps for its own events.
 */
export const EVENT_NAME_MAX_LENGTH = 40;
export const RESERVED_EVENT_NAME_PREFIX = 'cs_';

export interface NormalizedEventName {
	name: string;
	/** What the caller must fix; empty when the name is usable. */
	errors: string[];
}

export function normalizeEventName(raw: string): NormalizedEventName {
	const name = splitWords(stripAccents(raw)).join('_');
	return { name, errors: nameErrors(name) };
}

function stripAccents(text: string): string {
	return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

function splitWords(text: string): string[] {
	const spaced = text
		// camelCase / PascalCase: a capital after a lowercase letter or digit starts a word
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		// an acronym followed by a word: `HTMLForm` -> `HTML Form`
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
	// Underscores are kept as separators so that an already normalized name stays unchanged.
	// Decision (reference silent): any other character that is not a letter or digit is dropped.
	return spaced
		.split(/[\s\-._]+/)
		.map((word) => word.toLowerCase().replace(/[^a-z0-9]/g, ''))
		.filter((word) => word.length > 0);
}

function nameErrors(name: string): string[] {
	if (!/^[a-z]/.test(name)) {
		return [`event_name must start with a letter after normalization (got "${name}")`];
	}
	const errors: string[] = [];
	if (name.length > EVENT_NAME_MAX_LENGTH) {
		errors.push(
			`event_name must be at most ${EVENT_NAME_MAX_LENGTH} characters after normalization (got ${name.length}: "${name}")`,
		);
	}
	if (name.startsWith(RESERVED_EVENT_NAME_PREFIX)) {
		errors.push(
			`event_name must not start with "${RESERVED_EVENT_NAME_PREFIX}": that prefix is reserved for events the service records itself`,
		);
	}
	return errors;
}
