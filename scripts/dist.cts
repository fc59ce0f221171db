import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What dist/ is built from: the package's sources and what configures their build. */
const BUILD_INPUTS = ['nodes', 'credentials', 'package.json', 'tsconfig.json', 'gulpfile.js'];

/** The files under `entry` (itself if a file) and its folders: a removal changes its folder's time. */
function entriesUnder(entry: string): string[] {
	if (!statSync(entry).isDirectory()) return [entry];
	return [entry, ...readdirSync(entry).flatMap((name) => entriesUnder(path.join(entry, name)))];
}

const modified = (file: string) => statSync(file).mtimeMs;

/**
 * Whether `root`'s dist/ was compiled after the last change to a build input (CI builds before
 * the tests and the real-n8n suites, which then pack it as it is). The compiled files are
 * compared: the build copies icons and codex files with their sources' times.
 */
export function distIsCurrent(root: string): boolean {
	const dist = path.join(root, 'dist');
	if (!existsSync(dist)) return false;
	const compiled = entriesUnder(dist).filter((file) => file.endsWith('.js'));
	const inputs = BUILD_INPUTS.flatMap((input) => entriesUnder(path.join(root, input)));
	return (
		compiled.length > 0 && Math.min(...compiled.map(modified)) > Math.max(...inputs.map(modified))
	);
}
