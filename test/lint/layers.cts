import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One row of docs/architecture.md's folder table: a folder and the repository folders it may import. */
export interface LayerRule {
	folder: string;
	mayImport: string[];
}

export interface LayerViolation {
	file: string;
	imported: string;
	rule: string;
}

/**
 * The folder table of docs/architecture.md, read as the rules: the document and the check cannot
 * drift apart. A row's first cell names the folder; backticked paths in its last cell name what it
 * may import (a folder may always import its own files).
 */
export function layerRulesOf(markdown: string): LayerRule[] {
	const rules: LayerRule[] = [];
	for (const line of markdown.split('\n')) {
		const cells = line.split('|').map((cell) => cell.trim());
		const folder = /^`([^`]+\/)`$/.exec(cells[1] ?? '')?.[1];
		if (!folder || cells.length < 5) continue;
		const mayImport = [...cells[cells.length - 2].matchAll(/`([^`]+)`/g)]
			.map((match) => match[1])
			.filter((target) => target.endsWith('/') || /\.c?ts$/.test(target));
		rules.push({ folder, mayImport });
	}
	return rules;
}

/** The rule of a file: the row of the longest folder that holds it. */
function ruleOf(file: string, rules: LayerRule[]): LayerRule | undefined {
	return rules
		.filter((rule) => file.startsWith(rule.folder))
		.sort((a, b) => b.folder.length - a.folder.length)[0];
}

const RELATIVE_IMPORT =
	/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]*|\.{1,2})['"]/g;

/** Repository paths (posix, relative to the root) a file imports. */
function importsOf(root: string, file: string): string[] {
	const source = readFileSync(path.join(root, file), 'utf8');
	return [...source.matchAll(RELATIVE_IMPORT)].map((match) =>
		path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])),
	);
}

function isAllowed(imported: string, rule: LayerRule): boolean {
	const target = [
		imported,
		...['.ts', '.cts', '/', '/index.ts', '/index.cts'].map((ending) => `${imported}${ending}`),
	];
	return [rule.folder, ...rule.mayImport].some((allowed) =>
		target.some((candidate) =>
			allowed.endsWith('/') ? candidate.startsWith(allowed) : candidate === allowed,
		),
	);
}

function typeScriptFiles(root: string, folder: string): string[] {
	const absolute = path.join(root, folder);
	if (!existsSync(absolute)) return [];
	return readdirSync(absolute).flatMap((name) => {
		const relative = path.posix.join(folder, name);
		if (name === 'node_modules') return [];
		if (statSync(path.join(root, relative)).isDirectory()) return typeScriptFiles(root, relative);
		// the package's files are .ts, the dev code's .cts (docs/decisions.md, "n8n's toolchain")
		return /\.c?ts$/.test(name) ? [relative] : [];
	});
}

/** Every import under the table's folders that its row does not allow. */
export function layerViolations(root: string, rules: LayerRule[]): LayerViolation[] {
	const tops = [...new Set(rules.map((rule) => rule.folder.split('/')[0]))];
	return tops.flatMap((top) =>
		typeScriptFiles(root, top).flatMap((file) => {
			const rule = ruleOf(file, rules);
			if (!rule) return [];
			return importsOf(root, file)
				.filter((imported) => !isAllowed(imported, rule))
				.map((imported) => ({ file, imported, rule: rule.folder }));
		}),
	);
}
