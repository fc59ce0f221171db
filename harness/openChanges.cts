/**
 * Changes a test makes to what the test files of a part share (n8n-core's services in the one
 * module registry), each with how to undo it. Kept on the global object, where the test
 * environment (`test/setup/environment.js`) reads it: a test file that ends with a change still
 * open fails, and the change is undone so that the next file of its part starts clean.
 */
const OPEN = Symbol.for('n8n-nodes-voice-agent-crm.openChanges');

type OpenChanges = Map<string, () => void>;

function openChanges(): OpenChanges {
	const holder = globalThis as unknown as Record<symbol, OpenChanges | undefined>;
	return (holder[OPEN] ??= new Map());
}

/** Notes a change described by `what`; answers the function that undoes it and closes it. */
export function openChange(what: string, undo: () => void): () => void {
	openChanges().set(what, undo);
	return () => {
		openChanges().delete(what);
		undo();
	};
}
