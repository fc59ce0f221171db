import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parseDocument } from 'yaml';

/**
 * GitHub Actions: ci.yml runs what .ci/run runs; publish.yml publishes a version tag with npm
 * provenance after lint and build.
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

/** The commands of .ci/run after its set-up lines (shell options, cd, the Node version printed). */
function ciRunCommands(): string[] {
	return readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#') && !/^(set |cd |node --version$)/.test(line));
}

describe('.github/workflows/ci.yml', () => {
	const flow = workflow('ci.yml');

	it('runs on pull requests and on pushes to main', () => {
		expect(Object.keys(flow.on).sort()).toEqual(['pull_request', 'push']);
		expect(flow.on.push).toEqual({ branches: ['main'] });
	});

	it('checks out the sources, then runs exactly the commands of .ci/run, in order', () => {
		expect(ciRunCommands()).toEqual(
			expect.arrayContaining(['npm run build', 'npm run lint', 'npm test', 'npm run test:n8n']),
		);
		expect(commands(flow)).toEqual(ciRunCommands());
		expect(Object.values(flow.jobs)[0].steps[0].uses).toMatch(/^actions\/checkout@/);
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

	it('installs, builds, lints, then publishes with provenance, publicly, to the npm registry', () => {
		const run = commands(flow);
		const at = (command: string) => run.indexOf(command);
		expect(at('npm run build')).toBeGreaterThan(at('npm install --no-audit --no-fund'));
		expect(at('npm run lint')).toBeGreaterThan(at('npm run build'));
		expect(run[run.length - 1]).toBe('npm publish --provenance --access public');
		expect(at('npm install --no-audit --no-fund')).toBeGreaterThan(-1);
		const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
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
