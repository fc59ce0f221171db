import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parseDocument } from 'yaml';

/**
 * GitHub Actions: ci.yml runs what .ci/run runs; publish.yml releases a version tag through
 * n8n's node CLI, which lints, builds and publishes with npm provenance.
 */

const ROOT = path.resolve(__dirname, '..', '..');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, { steps: Step[]; permissions?: Record<string, string> }>;
}

function workflow(file: string): Workflow {
	const document = parseDocument(
		readFileSync(path.join(ROOT, '.github', 'workflows', file), 'utf8'),
	);
	expect(document.errors.map((error) => error.message)).toEqual([]);
	return document.toJS() as Workflow;
}

/** The shell commands of a workflow's only job, in order, one per line of each `run`. */
function commands(flow: Workflow): string[] {
	const jobs = Object.values(flow.jobs);
	expect(jobs).toHaveLength(1);
	return jobs[0].steps
		.flatMap((step) => (step.run ?? '').split('\n').map((line) => line.trim()))
		.filter(Boolean);
}

/**
 * The commands of .ci/run after its set-up lines (shell options, cd, the Node version printed, the
 * timing of its parts, which ends with the `trap` that prints them), each without `part`.
 */
function ciRunCommands(): string[] {
	const lines = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
		.split('\n')
		.map((line) => line.trim());
	return lines
		.slice(lines.findIndex((line) => line.startsWith('trap ')) + 1)
		.filter((line) => line && !line.startsWith('#'))
		.map((line) => line.replace(/^((?:[A-Z0-9_]+=\S+ )*)part /, '$1'));
}

/** The package's npm scripts. */
const scripts = (
	JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	}
).scripts;

describe("n8n's node CLI builds, lints and releases the package", () => {
	it('npm run build and npm run lint start with n8n-node build and n8n-node lint', () => {
		expect(scripts.build).toMatch(/^n8n-node build( &&|$)/);
		expect(scripts.lint).toMatch(/^n8n-node lint( &&|$)/);
	});

	it('npm run release is n8n-node release, and a plain npm publish is refused', () => {
		expect(scripts.release).toBe('n8n-node release');
		expect(scripts.prepublishOnly).toBe('n8n-node prerelease');
	});
});

describe('.github/workflows/ci.yml', () => {
	const flow = workflow('ci.yml');

	it('runs on pull requests and on pushes to main', () => {
		expect(Object.keys(flow.on).sort()).toEqual(['pull_request', 'push']);
		expect(flow.on.push).toEqual({ branches: ['main'] });
	});

	it('checks out the sources, then runs exactly the commands of .ci/run, in order', () => {
		expect(ciRunCommands()).toEqual(
			// the README's test command runs beside the queue suite, through all.sh (scripts/n8n/all.sh)
			expect.arrayContaining(['npm run build', 'npm run lint', 'npm run test:n8n:all -- npm test']),
		);
		expect(commands(flow)).toEqual(ciRunCommands());
		expect(Object.values(flow.jobs)[0].steps[0].uses).toMatch(/^actions\/checkout@/);
	});

	it('lints and builds as the release does (n8n-node release runs npm run lint, then npm run build)', () => {
		const run = commands(flow);
		expect(run.indexOf('npm run lint')).toBeGreaterThan(
			run.indexOf('npm install --no-audit --no-fund'),
		);
		expect(run.indexOf('npm run build')).toBeGreaterThan(run.indexOf('npm run lint'));
	});

	describe("fails unless n8n's node CLI reports cloud support ENABLED", () => {
		const check = () =>
			commands(flow).find((line) => line.startsWith('npx n8n-node cloud-support')) ?? '';
		let folder: string;

		/** The check, as CI runs it (colours on), in a package with this eslint.config.mjs and strict mode. */
		const runCheck = (eslintConfig: string, strict: boolean): boolean => {
			writeFileSync(
				path.join(folder, 'package.json'),
				JSON.stringify({ name: 'n8n-nodes-probe', version: '0.1.0', n8n: { strict, nodes: [] } }),
			);
			writeFileSync(path.join(folder, 'eslint.config.mjs'), eslintConfig);
			// npx finds n8n-node in node_modules/.bin; found there directly, each run spares npm's
			// start (1.5 of 2.6 s measured)
			const line = check().replace(/^npx n8n-node /, 'n8n-node ');
			try {
				execFileSync('bash', ['-o', 'pipefail', '-c', line], {
					cwd: folder,
					stdio: 'pipe',
					env: {
						...process.env,
						FORCE_COLOR: '1',
						PATH: `${path.join(folder, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
					},
				});
				return true;
			} catch {
				return false;
			}
		};
		const STOCK = "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n";

		beforeAll(() => {
			folder = mkdtempSync(path.join(tmpdir(), 'voice-agent-crm-cloud-support-'));
			// the CLI of this checkout, not one npx would download
			symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'));
		});
		afterAll(() => rmSync(folder, { recursive: true, force: true }));

		it('is a step of its own', () => {
			expect(check()).toBe("npx n8n-node cloud-support | grep 'Cloud support is .*ENABLED'");
		});

		it("passes with strict mode and n8n's stock config", () => {
			expect(runCheck(STOCK, true)).toBe(true);
		}, 60_000);

		it('fails without strict mode, or with a config of its own', () => {
			expect(runCheck(STOCK, false)).toBe(false);
			expect(runCheck(`${STOCK}// more\nexport const more = 1;\n`, true)).toBe(false);
		}, 60_000);
	});
});

describe('.github/workflows/publish.yml', () => {
	const flow = workflow('publish.yml');
	const job = Object.values(flow.jobs)[0];

	it('runs on version tags only', () => {
		expect(Object.keys(flow.on)).toEqual(['push']);
		expect(flow.on.push).toEqual({ tags: expect.arrayContaining(['v*.*.*']) });
	});

	it('may mint the OIDC token npm signs the provenance with, and only read the repository', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	it('installs, checks the package, then releases through n8n-node release to the npm registry', () => {
		const run = commands(flow);
		const at = (command: string) => run.indexOf(command);
		expect(at('npm install --no-audit --no-fund')).toBeGreaterThan(-1);
		expect(at('JEST_EACH_FILE=1 npx jest test/release test/lint')).toBeGreaterThan(
			at('npm install --no-audit --no-fund'),
		);
		expect(run[run.length - 1]).toBe('npm run release');
		expect(run.filter((line) => /\bnpm publish\b/.test(line))).toEqual([]);
		const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
		// npm's trusted publishing needs npm 11.5.1, which Node 24 brings
		expect(Number(setup?.with?.['node-version'])).toBeGreaterThanOrEqual(24);
	});

	it("uses no npm token: trusted publishing through GitHub's OIDC token", () => {
		const text = readFileSync(path.join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8')
			.split('\n')
			.filter((line) => !line.trim().startsWith('#'))
			.join('\n');
		expect(text).not.toMatch(/secrets\.|NPM_TOKEN|NODE_AUTH_TOKEN/);
	});

	it('refuses a tag that does not name package.json version', () => {
		expect(commands(flow)).toContain(
			'test "${GITHUB_REF_NAME#v}" = "$(node -p "require(\'./package.json\').version")"',
		);
	});
});

describe('package.json', () => {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		repository: { type: string; url: string };
		bugs: { url: string };
	};

	it('names the GitHub repository provenance and the verification scanner find the sources in', () => {
		expect(manifest.repository.type).toBe('git');
		const [, repo] =
			/^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository.url) ?? [];
		expect(repo).toBe('voice-agent-crm/n8n-nodes-voice-agent-crm');
		expect(manifest.bugs.url).toBe(`https://github.com/${repo}/issues`);
	});
});
