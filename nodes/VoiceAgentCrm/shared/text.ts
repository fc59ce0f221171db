/** The UUID rule, written once for the nodes' checks and the editor's locators. */

/** A UUID in the form the API checks, case-insensitive (the editor's locators use `UUID_PATTERN`). */
export const UUID_REGEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same rule for the editor's resource locator checks, which take a pattern string. */
export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
