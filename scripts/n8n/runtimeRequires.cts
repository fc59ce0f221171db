/**
 * What the built package requires at run time. The package has no `dependencies`: every module a
 * built file requires must be a relative file of the package, a Node built-in, or a module n8n itself
 * provides to community packages. Used by test/release (the rule) and by `npm run test:n8n` (that the
 * real n8n under test provides each).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The peer dependency plus the modules n8n's community lint allows because n8n ships them
 * (`allowedModules` of @n8n/eslint-plugin-community-nodes' no-restricted-imports). That rule also lets
 * devDependencies through, assuming a bundler; this package is compiled by tsc, not bundled, so a
 * devDependency required from `dist/` would be missing on a user's n8n.
 */
export const N8N_PROVIDED_MODULES = [
	'n8n-workflow',
	'lodash',
	'luxon',
	'moment',
	'p-limit',
	'zod',
] as const;

export interface RequireSite {
	/** The built file, relative to the scanned folder. */
	file: string;
	/** What it requires, as written; `undefined` when the argument is not a string literal. */
	request: string | undefined;
}

// `require("x")`, `require('x')`, and any other `require(` call whose argument cannot be read
const REQUIRE_CALL = /\brequire\s*\(\s*(?:(["'])([^"'\n]*)\1\s*\)|)/g;

function builtFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return builtFiles(full);
		return name.endsWith('.js') ? [full] : [];
	});
}

/** Every `require(...)` of every `.js` file under `dir`. */
export function findRequires(dir: string): RequireSite[] {
	return builtFiles(dir).flatMap((file) =>
		[...readFileSync(file, 'utf8').matchAll(REQUIRE_CALL)].map((match) => ({
			file: path.relative(dir, file),
			request: match[2],
		})),
	);
}

/** `zod/v4` → `zod`, `@scope/name/x` → `@scope/name`. */
export function packageName(request: string): string {
	const parts = request.split('/');
	return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isRelative(request: string): boolean {
	return request.startsWith('./') || request.startsWith('../');
}

function isBuiltin(request: string): boolean {
	return request.startsWith('node:') || builtinModules.includes(request);
}

/** A relative require inside the package resolves to a file of the package, as Node would find it. */
function relativeTargetExists(dir: string, site: RequireSite, request: string): boolean {
	const target = path.resolve(dir, path.dirname(site.file), request);
	if (!target.startsWith(dir + path.sep)) return false;
	return [target, `${target}.js`, `${target}.json`, path.join(target, 'index.js')].some(
		(candidate) => existsSync(candidate) && statSync(candidate).isFile(),
	);
}

/** What breaks the rule, one line each (empty when the package requires only what it may). */
export function disallowedRequires(dir: string): string[] {
	const allowed = new Set<string>(N8N_PROVIDED_MODULES);
	return findRequires(dir).flatMap((site) => {
		const { request } = site;
		if (request === undefined)
			return [`${site.file}: a require whose module is not a string literal`];
		if (isRelative(request))
			return relativeTargetExists(dir, site, request)
				? []
				: [`${site.file}: "${request}" is not a file of the package`];
		if (isBuiltin(request) || allowed.has(packageName(request))) return [];
		return [
			`${site.file}: "${request}" is neither a Node built-in nor provided by n8n (${N8N_PROVIDED_MODULES.join(', ')})`,
		];
	});
}

/** The modules from outside the package and Node that the built files require, each once. */
export function externalModules(dir: string): string[] {
	const requests = findRequires(dir)
		.map((site) => site.request)
		.filter(
			(request): request is string =>
				request !== undefined && !isRelative(request) && !isBuiltin(request),
		);
	return [...new Set(requests)].sort();
}
