import { spawn } from 'node:child_process';
import path from 'node:path';

import { limitsFrom } from '../cli.cts';

const root = path.resolve(__dirname, '../..');

describe('npm run simulator: request budgets for benchmarks', () => {
	it('takes the budgets in requests per minute and refuses what is not a whole positive number', () => {
		expect(limitsFrom({ 'events-limit': '100000', 'ip-limit': '6000' })).toEqual({
			events: 100_000,
			ip: 6000,
		});
		expect(limitsFrom({})).toEqual({});
		for (const bad of ['0', '-5', '1.5', 'many', ''])
			expect(() => limitsFrom({ 'anonymous-events-limit': bad })).toThrow(
				'--anonymous-events-limit takes a whole number of requests per minute',
			);
	});

	it('answers the events endpoint with the budget given on the command line', async () => {
		const child = spawn(
			path.join(root, 'node_modules/.bin/ts-node'),
			['--transpile-only', 'simulator/cli.cts', '--events-limit', '2'],
			{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
		);
		try {
			const lines = await new Promise<Record<string, string>>((resolve, reject) => {
				let out = '';
				child.stdout.on('data', (chunk: Buffer) => {
					out += chunk.toString();
					const found = Object.fromEntries(
						[...out.matchAll(/^(base_url|api_key)=(.*)$/gm)].map((m) => [m[1], m[2]]),
					);
					if (found.base_url && found.api_key && out.includes('requests per minute:'))
						resolve({ ...found, out });
				});
				child.on('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
			});
			expect(lines.out).toContain('requests per minute: events 2, anonymous-events 20, ip 600');
			const send = () =>
				fetch(`${lines.base_url}/v1/events`, {
					method: 'POST',
					headers: { 'x-api-key': lines.api_key, 'content-type': 'application/json' },
					body: JSON.stringify({
						events: [{ event_name: 'cli_budget', contact: { email: 'cli@example.com' } }],
					}),
				});
			const first = await send();
			expect(first.headers.get('x-ratelimit-limit')).toBe('2');
			await send();
			expect((await send()).status).toBe(429);
		} finally {
			child.kill('SIGTERM');
		}
	});
});
