import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository paths README.md and docs/*.md name, and those that name nothing: a doc that
 * points a newcomer at a file that was renamed is worse than one that names none.
 */

/** Folders a path in the docs may start with: the repository's own. */
const REPOSITORY_FOLDERS = [
	'nodes',
	'credentials',
	'simulator',
	'harness',
	'test',
	'scripts',
	'bench',
	'examples',
	'docs',
	'.ci',
	'.github',
];

/** How a file name ends: a name in backticks with one of these is a file name. */
const FILE_ENDINGS = /\.(ts|cts|js|mjs|json|md|sh|yml|csv|ndjson|png|svg|txt)$/;

/**
 * Files the docs name that are not the repository's: n8n's own sources (read to explain what
 * n8n does), what a build or a run makes, and files in a user's n8n folder.
 */
const NOT_OURS = [
	/^dist\//, // the build's output
	/^test\/\.tmp\//, // what test runs leave
	/^\.n8n-files\//, // an n8n user's files folder
	/^node_modules\//,
	/^n8n\/dist\//, // n8n's package
	/^(live-webhooks\.ts|binary-data\.config\.js|poll-trigger-executor\.js)$/, // n8n's sources
	/^<file>\.not-accepted\.csv$/, // the result file a run writes
];

/** Every file and folder of the repository, relative to its root, `/`-separated. */
export function repositoryPaths(root: string): Set<string> {
	const skip = new Set(['node_modules', '.git', 'dist']);
	const found = new Set<string>();
	const walk = (folder: string) => {
		for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
			if (skip.has(entry.name) || (folder === 'test' && entry.name === '.tmp')) continue;
			const relative = folder ? `${folder}/${entry.name}` : entry.name;
			found.add(relative);
			if (entry.isDirectory()) walk(relative);
		}
	};
	walk('');
	return found;
}

/** A name in backticks that reads as a repository path (not a MIME type, a package or an API path). */
function isPathLike(name: string): boolean {
	if (/[\s<>*{}$~]/.test(name) || /^[/.]\w*$|^\/|:\/\//.test(name)) return false;
	const first = name.split('/')[0];
	return FILE_ENDINGS.test(name) || (name.includes('/') && REPOSITORY_FOLDERS.includes(first));
}

/**
 * Whether a backticked name names a file or folder: from the root, or as the end of a path
 * (docs name `transport/redirects.ts` inside `nodes/VoiceAgentCrm/`, `baseNodes.cts` by itself).
 */
function backtickedExists(name: string, paths: Set<string>): boolean {
	const bare = name.replace(/\/$/, '');
	if (paths.has(bare)) return true;
	for (const candidate of paths) if (candidate.endsWith(`/${bare}`)) return true;
	return false;
}

/** The paths a Markdown text names in backticks or as relative links that name nothing. */
export function missingPaths(text: string, docPath: string, paths: Set<string>): string[] {
	const missing: string[] = [];
	const prose = text.replace(/^```[\s\S]*?^```/gm, '');
	for (const [, name] of prose.matchAll(/`([^`\n]+)`/g)) {
		if (!isPathLike(name) || NOT_OURS.some((pattern) => pattern.test(name))) continue;
		if (!backtickedExists(name, paths)) missing.push(name);
	}
	for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^([a-z]+:|#)/.test(target)) continue;
		const file = path.posix.normalize(
			path.posix.join(path.posix.dirname(docPath), target.split('#')[0]),
		);
		if (!paths.has(file.replace(/\/$/, ''))) missing.push(target);
	}
	return missing;
}
