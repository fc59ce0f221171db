import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	disallowedRequires,
	externalModules,
	findRequires,
	N8N_PROVIDED_MODULES,
} from '../../scripts/n8n/runtimeRequires';

/**
 * The package as npm would publish it: what `npm pack` puts in the tarball, and what its built
 * files require at run time (it has no `dependencies`; n8n has to provide every module it needs).
 */

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
	dependencies?: Record<string, string>;
};

let packed: string[] = [];

beforeAll(() => {
	// the tarball is made from dist/: build it from the sources of this checkout first
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
	const [listing] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		}).toString(),
	) as Array<{
		files: Array<{ path: string }>;
	}>;
	packed = listing.files.map((file) => file.path).sort();
}, 120_000);

describe('npm pack', () => {
	it('ships package.json, README.md, LICENSE and dist/ only', () => {
		const outside = packed.filter(
			(file) =>
				!file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file),
		);
		expect(outside).toEqual([]);
		expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
	});

	it('ships every node and credential package.json names, each node with its codex file', () => {
		const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		const codexFiles = manifest.n8n.nodes.map((node) => node.replace(/\.js$/, '.json'));
		expect(packed).toEqual(expect.arrayContaining([...declared, ...codexFiles]));
	});

	it('ships every icon the nodes and the credential name, light and dark', () => {
		const sources = [...manifest.n8n.nodes, ...manifest.n8n.credentials].map((file) =>
			path.join(ROOT, file),
		);
		const icons = sources.flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(/['"]file:([^'"]+\.svg)['"]/g)].map((match) =>
				path.posix.join(path.posix.dirname(path.relative(ROOT, file)), match[1]),
			),
		);
		expect(icons.filter((icon) => icon.endsWith('.dark.svg')).length).toBe(sources.length);
		expect(packed).toEqual(expect.arrayContaining(icons));
	});

	it('ships no TypeScript sources, tests, simulator, harness or scripts', () => {
		expect(packed.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
		expect(
			packed.filter(
				(file) =>
					/(^|\/)(test|simulator|harness|scripts|bench|examples)\//.test(file) ||
					/\.test\.js$/.test(file),
			),
		).toEqual([]);
	});

	it('ships no built file left over from a source that no longer exists', () => {
		const orphans = packed
			.filter((file) => file.endsWith('.js'))
			.filter((file) => {
				const source = path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
				try {
					readFileSync(source);
					return false;
				} catch {
					return true;
				}
			});
		expect(orphans).toEqual([]);
	});
});

describe('run-time requirements of the built package', () => {
	it('has no dependencies: n8n provides what it needs', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
	});

	it('requires only relative files, Node built-ins and modules n8n provides', () => {
		expect(findRequires(DIST).length).toBeGreaterThan(100);
		expect(disallowedRequires(DIST)).toEqual([]);
		expect(
			externalModules(DIST).every((name) =>
				(N8N_PROVIDED_MODULES as readonly string[]).includes(name),
			),
		).toBe(true);
	});

	describe('fails when a built file requires something else', () => {
		let copy: string;
		const actionNode = path.join('nodes', 'VoiceAgentCrm', 'VoiceAgentCrm.node.js');

		beforeEach(() => {
			copy = mkdtempSync(path.join(tmpdir(), 'voice-agent-crm-dist-'));
			cpSync(DIST, copy, { recursive: true });
		});
		afterEach(() => rmSync(copy, { recursive: true, force: true }));

		const inject = (line: string) => {
			const file = path.join(copy, actionNode);
			writeFileSync(file, `${readFileSync(file, 'utf8')}\n${line}\n`);
		};

		it.each([
			[
				'a devDependency',
				'const axios = require("axios");',
				'"axios" is neither a Node built-in nor provided by n8n',
			],
			[
				'a scoped package',
				"const x = require('@n8n/di');",
				'"@n8n/di" is neither a Node built-in nor provided by n8n',
			],
			[
				'a relative file that is not shipped',
				'require("../../simulator");',
				'"../../simulator" is not a file of the package',
			],
			[
				'a module computed at run time',
				'const name = "zod"; require(name);',
				'a require whose module is not a string literal',
			],
		])('%s', (_what, line, message) => {
			inject(line);
			expect(disallowedRequires(copy)).toEqual([
				`${actionNode}: ${message}${message.endsWith('n8n') ? ` (${N8N_PROVIDED_MODULES.join(', ')})` : ''}`,
			]);
		});

		it('accepts a Node built-in and a subpath of a provided module', () => {
			inject('require("node:path"); require("crypto"); require("zod/v4"); require("lodash/get");');
			expect(disallowedRequires(copy)).toEqual([]);
		});
	});
});
