import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { distIsCurrent } from '../../scripts/dist.cts';
import {
	disallowedRequires,
	externalModules,
	findRequires,
	N8N_PROVIDED_MODULES,
} from '../../scripts/n8n/runtimeRequires.cts';

/**
 * The package as npm would publish it: built once from this checkout, packed once with
 * `npm pack`, the tarball unpacked; what it ships, what its built files require at run time (it
 * has no `dependencies`; n8n has to provide every module it needs), and n8n's verification
 * scanner's lint of it.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
	dependencies?: Record<string, string>;
};

/** A file that breaks the cloud rules, linted beside the unpacked package: the lint can fail. */
const PROBE = path.join('dist', 'nodes', 'LintProbe.js');

let work: string;
/** The unpacked tarball. */
let unpacked: string;
let DIST: string;
let packed: string[] = [];
let scannerFindings: Record<string, string[]> = {};

/** The rules n8n's scanner lint reports per file of the unpacked package. */
function scannerLint(packageDir: string): Record<string, string[]> {
	let output: string;
	try {
		output = execFileSync(
			path.join(ROOT, 'node_modules/.bin/eslint'),
			[
				'-c',
				path.join(ROOT, 'eslint.scanner.config.mjs'),
				'--format',
				'json',
				'package.json',
				'dist',
			],
			{ cwd: packageDir, encoding: 'utf8' },
		);
	} catch (error) {
		output = String((error as { stdout?: string }).stdout);
	}
	const results = JSON.parse(output) as Array<{
		filePath: string;
		messages: Array<{ ruleId: string | null }>;
	}>;
	return Object.fromEntries(
		results.map((result) => [
			path.relative(packageDir, result.filePath),
			result.messages.map((message) => String(message.ruleId)),
		]),
	);
}

beforeAll(() => {
	// the tarball is made from dist/: built from the sources of this checkout unless it already is
	if (!distIsCurrent(ROOT)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
	work = mkdtempSync(path.join(tmpdir(), 'voice-agent-crm-pack-'));
	const [tarball] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		}).toString(),
	) as Array<{ filename: string; files: Array<{ path: string }> }>;
	packed = tarball.files.map((file) => file.path).sort();
	execFileSync('tar', ['-xzf', path.join(work, tarball.filename), '-C', work]);
	unpacked = path.join(work, 'package');
	DIST = path.join(unpacked, 'dist');
	writeFileSync(path.join(unpacked, PROBE), 'setTimeout(() => undefined, 10);\n');
	scannerFindings = scannerLint(unpacked);
	rmSync(path.join(unpacked, PROBE));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("n8n's verification scanner, lint leg, on the packed tarball", () => {
	it('finds nothing in package.json or any built file', () => {
		const { [PROBE]: _probe, ...shipped } = scannerFindings;
		expect(Object.keys(shipped)).toEqual(
			expect.arrayContaining(['package.json', ...manifest.n8n.nodes, ...manifest.n8n.credentials]),
		);
		expect(Object.entries(shipped).filter(([, rules]) => rules.length > 0)).toEqual([]);
	});

	it('reports a built file that breaks the cloud rules', () => {
		expect(scannerFindings[PROBE]).toEqual(['@n8n/community-nodes/no-restricted-globals']);
	});
});

describe('npm pack', () => {
	it("ships package.json, README.md, LICENSE and dist/'s nodes and credential only", () => {
		const outside = packed.filter(
			(file) =>
				!/^dist\/(nodes|credentials)\//.test(file) &&
				!['package.json', 'README.md', 'LICENSE'].includes(file),
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
			path.join(unpacked, file),
		);
		const icons = sources.flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(/['"]file:([^'"]+\.svg)['"]/g)].map((match) =>
				path.posix.join(path.posix.dirname(path.relative(unpacked, file)), match[1]),
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

		let original: string;

		// one copy of dist/; each case starts from the action node as built
		beforeAll(() => {
			copy = mkdtempSync(path.join(tmpdir(), 'voice-agent-crm-dist-'));
			cpSync(DIST, copy, { recursive: true });
			original = readFileSync(path.join(copy, actionNode), 'utf8');
		});
		beforeEach(() => writeFileSync(path.join(copy, actionNode), original));
		afterAll(() => rmSync(copy, { recursive: true, force: true }));

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
