import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { timingsFrom } from '../cli.cts';

const root = path.resolve(__dirname, '../..');

/** Start `npm run simulator`'s program and collect the credential lines it prints, and all it prints. */
function startCli(
	args: string[] = [],
): Promise<{ child: ChildProcess; lines: Record<string, string>; out: string }> {
	const child = spawn(
		path.join(root, 'node_modules/.bin/ts-node'),
		['--transpile-only', 'simulator/cli.cts', ...args],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const lines = Object.fromEntries(
				out
					.split('\n')
					.filter((l) => /^\w+=/.test(l))
					.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
			);
			if (lines.base_url && lines.api_key && out.includes('Ctrl+C stops the simulator'))
				resolve({ child, lines, out });
		});
		// a signal names what ended it from outside (a kill, the OOM killer), not the simulator itself
		child.on('exit', (code, signal) =>
			reject(new Error(`simulator exited with ${signal ? `signal ${signal}` : `code ${code}`}`)),
		);
	});
}

describe('npm run simulator: credentials, call timings and a clock of its own', () => {
	it('takes the timings in seconds and refuses what is not a number of seconds', () => {
		expect(timingsFrom({ queue: '0.5', talk: '3', 'analysis-delay': '1' })).toEqual({
			queueMs: 500,
			talkMs: 3000,
			analysisDelayMs: 1000,
		});
		expect(() => timingsFrom({ ring: 'soon' })).toThrow('--ring takes a number of seconds');
		expect(() => timingsFrom({ talk: '-1' })).toThrow('--talk takes a number of seconds');
	});

	/** One simulator (one start costs a second of CPU) with short call timings and an events budget of 2 a minute. */
	let cli: Awaited<ReturnType<typeof startCli>>;
	beforeAll(async () => {
		cli = await startCli([
			'--queue',
			'0.1',
			'--ring',
			'0.2',
			'--talk',
			'0.5',
			'--finished-delay',
			'0.1',
			'--reason-delay',
			'0.1',
			'--analysis-delay',
			'0.3',
			'--events-limit',
			'2',
		]);
	});
	afterAll(() => cli.child.kill('SIGTERM'));

	it('prints base_url= and api_key= lines; the key lists the voices, no key gets 401', async () => {
		const { lines } = cli;
		expect(lines.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const withKey = await fetch(`${lines.base_url}/v1/agents/voices`, {
			headers: { 'x-api-key': lines.api_key },
		});
		expect(withKey.status).toBe(200);
		expect(((await withKey.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
		const withoutKey = await fetch(`${lines.base_url}/v1/agents/voices`);
		expect(withoutKey.status).toBe(401);
	});

	it('a call placed with short timings runs its whole life cycle and sends its webhooks with no further request', async () => {
		const received: string[] = [];
		const receiver = http.createServer((req, res) => {
			let text = '';
			req.on('data', (chunk) => (text += chunk));
			req.on('end', () => {
				received.push((JSON.parse(text) as { event: string }).event);
				res.end('ok');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		const { lines } = cli;
		try {
			const headers = { 'x-api-key': lines.api_key, 'content-type': 'application/json' };
			const agents = (await (await fetch(`${lines.base_url}/v1/agents`, { headers })).json()) as {
				data: Array<{ id: string }>;
			};
			const placed = await fetch(`${lines.base_url}/v1/calls/single-phone-call`, {
				method: 'POST',
				headers,
				body: JSON.stringify({
					from_number: '+14155550100',
					to_number: '+34600000009',
					full_name: 'Marta Ruiz',
					agent_id: agents.data[0].id,
					webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
				}),
			});
			expect(placed.status).toBe(201);
			const deadline = Date.now() + 15_000;
			while (received.length < 3 && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 100));
			expect(received).toEqual(['call_started', 'call_ended', 'transcript_ready']);
		} finally {
			await new Promise<void>((resolve) => receiver.close(() => resolve()));
		}
	});

	it('answers the events endpoint with the budget given on the command line', async () => {
		const { lines, out } = cli;
		expect(out).toContain('requests per minute: events 2, anonymous-events 20, ip 600');
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
	});
});
