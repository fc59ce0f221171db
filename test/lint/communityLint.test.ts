import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Lint one piece of source as if it were a file of the package, with the project's lint config. */
function lintAs(relativePath: string, source: string): { ok: boolean; output: string } {
	try {
		const output = execFileSync(
			path.join(root, 'node_modules/.bin/eslint'),
			[
				'-c',
				'eslint.config.mjs',
				'--stdin',
				'--stdin-filename',
				relativePath,
				'--format',
				'stylish',
			],
			{ cwd: root, input: source, encoding: 'utf8' },
		);
		return { ok: true, output };
	} catch (error) {
		return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
	}
}

describe('the community-node lint guards the node sources', () => {
	it('rejects setTimeout in a node file', () => {
		const result = lintAs(
			'nodes/VoiceAgentCrm/Probe.ts',
			'export const wait = () => new Promise((r) => setTimeout(r, 10));\n',
		);
		expect(result.ok).toBe(false);
		expect(result.output).toMatch(/setTimeout/);
	});

	it('rejects process.env in a node file', () => {
		const result = lintAs(
			'nodes/VoiceAgentCrm/Probe.ts',
			'export const key = process.env.API_KEY;\n',
		);
		expect(result.ok).toBe(false);
	});

	it('accepts sleep from n8n-workflow in the same place', () => {
		const result = lintAs(
			'nodes/VoiceAgentCrm/Probe.ts',
			"import { sleep } from 'n8n-workflow';\nexport const wait = async () => await sleep(10);\n",
		);
		expect(result.output).toBe('');
		expect(result.ok).toBe(true);
	});
});
