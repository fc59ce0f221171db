/** The UUID rule, written once for the nodes' checks and the editor's locators. */

/** A UUID in the form the API checks, either case: the pattern string the editor's locators take. */
export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The same rule for the nodes' own checks. */
export const UUID_REGEX = new RegExp(UUID_PATTERN);
