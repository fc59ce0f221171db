import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Start `npm run simulator`'s program and collect the credential lines it prints. */
function startCli(): Promise<{ child: ChildProcess; lines: Record<string, string> }> {
	const child = spawn(path.join(root, 'node_modules/.bin/ts-node'), ['--transpile-only', 'simulator/cli.ts'], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const lines = Object.fromEntries(
				out.split('\n').filter((l) => /^\w+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
			);
			if (lines.base_url && lines.api_key) resolve({ child, lines });
		});
		child.on('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
	});
}

describe('npm run simulator', () => {
	it('prints base_url= and api_key= lines; the key lists the voices, no key gets 401', async () => {
		const { child, lines } = await startCli();
		try {
			expect(lines.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const withKey = await fetch(`${lines.base_url}/v1/agents/voices`, { headers: { 'x-api-key': lines.api_key } });
			expect(withKey.status).toBe(200);
			expect(((await withKey.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
			const withoutKey = await fetch(`${lines.base_url}/v1/agents/voices`);
			expect(withoutKey.status).toBe(401);
		} finally {
			child.kill('SIGTERM');
		}
	});
});
