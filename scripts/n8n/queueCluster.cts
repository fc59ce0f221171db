/**
 * n8n in queue mode for `npm run test:n8n:queue` (recipe: ../shared/queue-mode.md): Redis and
 * Postgres as this run's own processes on free loopback ports, then a main, two workers and a
 * webhook process of the pinned n8n sharing one user folder, one encryption key and one database.
 * Everything started is registered with `stopAll`, which the run calls also on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	chownSync,
	createWriteStream,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	CheckFailure,
	freePort,
	log,
	N8nInstance,
	redact,
	runOk,
	sleep,
	tail,
	type N8nInstall,
} from './lib.cts';
import { FINISHED_STATUSES } from './shared.cts';
import { executionsOf, type ExecutionDetail } from './trigger.cts';

// ---------------------------------------------------------------------------------------------
// Clean-up: what was started, stopped in reverse order

const stops: Array<{ what: string; stop: () => Promise<void> }> = [];

/** Register something to stop at the end of the run. */
export function onStop(what: string, stop: () => Promise<void>): void {
	stops.push({ what, stop });
}

export async function stopAll(): Promise<void> {
	while (stops.length) {
		const { what, stop } = stops.pop()!;
		try {
			await stop();
		} catch (error) {
			log(`stopping ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Redis and Postgres from Debian's packages

function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
	const found = versions
		.map((v) => path.join(root, v, 'bin'))
		.find((dir) => existsSync(path.join(dir, 'initdb')));
	return found;
}

function hasRedis(): boolean {
	return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].some((file) => existsSync(file));
}

/** Install redis-server and postgresql with apt-get when missing (CI runs as root on a fresh machine). */
export async function ensureServices(): Promise<void> {
	if (hasRedis() && postgresBin()) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			'test:n8n:queue needs redis-server and postgresql: install them (apt-get install redis-server postgresql) or run as root',
		);
	}
	log('services: installing redis-server and postgresql with apt-get');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await runOk('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
	await runOk(
		'apt-get',
		['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql'],
		{ env, timeoutMs: 15 * 60_000 },
	);
	if (!hasRedis() || !postgresBin())
		throw new Error('apt-get ran, yet redis-server or postgresql is still missing');
}

export async function startRedis(workDir: string): Promise<number> {
	const port = await freePort();
	const pidFile = path.join(workDir, 'redis.pid');
	await runOk('redis-server', [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--daemonize',
		'yes',
		'--pidfile',
		pidFile,
		'--logfile',
		path.join(workDir, 'logs', 'redis.log'),
		'--dir',
		workDir,
	]);
	stops.push({ what: 'redis', stop: () => stopByPidFile(pidFile) });
	log(`redis: 127.0.0.1:${port}`);
	return port;
}

async function stopByPidFile(pidFile: string): Promise<void> {
	for (let i = 0; i < 20 && !existsSync(pidFile); i++) await sleep(100);
	if (!existsSync(pidFile)) return;
	const pid = Number(readFileSync(pidFile, 'utf8').trim());
	if (pid > 0) process.kill(pid, 'SIGTERM');
}

export interface Database {
	port: number;
	password: string;
}

/**
 * A Postgres cluster of this run, in a temporary folder the `postgres` user can reach (the
 * checkout may not be), run as that user when this process is root, as initdb requires.
 */
export async function startPostgres(logDir: string): Promise<Database> {
	const bin = postgresBin()!;
	const port = await freePort();
	const root = mkdtempSync(path.join(tmpdir(), 'n8n-queue-pg-'));
	const dataDir = path.join(root, 'data');
	const logFile = path.join(root, 'postgres.log');
	const asPostgres = process.getuid?.() === 0;
	if (asPostgres) {
		const { uid, gid } = await postgresIds();
		chownSync(root, uid, gid);
	}
	const pg = (tool: string, args: string[]) =>
		asPostgres
			? runOk('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: root })
			: runOk(path.join(bin, tool), args, { cwd: root });
	await pg('initdb', [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
		'--locale=C.UTF-8',
	]);
	await pg('pg_ctl', [
		'-D',
		dataDir,
		'-l',
		logFile,
		'-o',
		`-p ${port} -h 127.0.0.1 -k ${root} -c fsync=off`,
		'-w',
		'start',
	]);
	stops.push({
		what: 'postgres',
		stop: async () => {
			await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
			if (existsSync(logFile))
				createWriteStream(path.join(logDir, 'postgres.log')).end(readFileSync(logFile));
			rmSync(root, { recursive: true, force: true });
		},
	});
	const password = randomBytes(12).toString('hex');
	await runOk('psql', [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		'postgres',
		'-v',
		'ON_ERROR_STOP=1',
		'-c',
		`create user n8n password '${password}';`,
		'-c',
		'create database n8n owner n8n;',
	]);
	log(`postgres: 127.0.0.1:${port} (${bin})`);
	return { port, password };
}

/**
 * Publish imported workflows as `n8n publish:workflow --id=…` does (the workflow's current version
 * made its active one: `WorkflowRepository.publishVersion` in n8n 2.38.7), in one statement rather
 * than one n8n CLI start per workflow (about 10 s each on a loaded machine).
 */
export async function publishWorkflows(database: Database, ids: string[]): Promise<void> {
	const list = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ');
	const { stdout } = await runOk(
		'psql',
		[
			'-h',
			'127.0.0.1',
			'-p',
			String(database.port),
			'-U',
			'n8n',
			'-d',
			'n8n',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			`update workflow_entity set active = true, "activeVersionId" = "versionId" where id in (${list}) and exists (select 1 from workflow_history h where h."workflowId" = workflow_entity.id and h."versionId" = workflow_entity."versionId");`,
		],
		{ env: { ...process.env, PGPASSWORD: database.password } },
	);
	if (stdout.trim() !== `UPDATE ${ids.length}`)
		throw new Error(`publishing ${ids.length} workflows in Postgres answered: ${stdout.trim()}`);
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
	const uid = Number((await runOk('id', ['-u', 'postgres'])).stdout.trim());
	const gid = Number((await runOk('id', ['-g', 'postgres'])).stdout.trim());
	return { uid, gid };
}

// ---------------------------------------------------------------------------------------------
// n8n in queue mode

/** The n8n CLI and REST API of the cluster: every process shares this environment. */
export class QueueN8n extends N8nInstance {
	redisPort = 0;
	database?: Database;
	/** Where call webhooks and resume URLs point: the webhook process. */
	webhookBaseUrl = '';
	readonly encryptionKey = randomBytes(24).toString('hex');

	override env(): NodeJS.ProcessEnv {
		return {
			...super.env(),
			N8N_WEBHOOK_URL: this.webhookBaseUrl,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			EXECUTIONS_MODE: 'queue',
			// what n8n 3.0 always does: manual executions run on the workers too
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redisPort),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.database?.port ?? 0),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: this.database?.password ?? '',
		};
	}
}

export type Role = 'main' | 'webhook' | 'worker';

/** One long-running n8n process of the cluster; `restart` keeps its ports and log file. */
export class N8nProcess {
	private child?: ChildProcess;
	private exited?: Promise<void>;
	readonly logFile: string;
	/** Each graceful stop: when SIGTERM was sent and when the process exited (ms since the epoch). */
	readonly shutdowns: { signalledAt: number; exitedAt: number }[] = [];

	private constructor(
		private readonly cluster: QueueN8n,
		readonly name: string,
		readonly role: Role,
		readonly port: number,
		private readonly brokerPort: number,
		private readonly healthPort: number,
	) {
		this.logFile = path.join(cluster.logDir, `${name}.log`);
	}

	static async create(
		cluster: QueueN8n,
		name: string,
		role: Role,
		port?: number,
	): Promise<N8nProcess> {
		return new N8nProcess(
			cluster,
			name,
			role,
			port ?? (await freePort()),
			await freePort(),
			await freePort(),
		);
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	private args(): string[] {
		if (this.role === 'worker') return ['worker', '--concurrency=5'];
		return [this.role === 'main' ? 'start' : 'webhook'];
	}

	async start(): Promise<void> {
		const env: NodeJS.ProcessEnv = {
			...this.cluster.env(),
			N8N_PORT: String(this.port),
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			...(this.role === 'worker'
				? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(this.healthPort) }
				: {}),
		};
		const { nodeBin, n8nBin } = this.cluster.install as N8nInstall;
		const child = spawn(nodeBin, [n8nBin, ...this.args()], {
			cwd: this.cluster.userFolder,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.child = child;
		const out = createWriteStream(this.logFile, { flags: 'a' });
		const write = (chunk: Buffer) => out.write(redact(chunk.toString()));
		child.stdout!.on('data', write);
		child.stderr!.on('data', write);
		this.exited = new Promise((resolve) => child.on('exit', () => (out.end(), resolve())));
		if (!stops.some((s) => s.what === this.name))
			stops.push({ what: this.name, stop: () => this.stop() });
		const readiness = `http://127.0.0.1:${this.role === 'worker' ? this.healthPort : this.port}/healthz/readiness`;
		const deadline = Date.now() + 180_000;
		while (Date.now() < deadline) {
			if (child.exitCode !== null)
				throw new Error(`${this.name} exited early:\n${tail(this.log())}`);
			try {
				if ((await fetch(readiness)).ok) return;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		throw new Error(`${this.name} was not ready within 180 s:\n${tail(this.log())}`);
	}

	/** SIGTERM: n8n's graceful shutdown, as a service manager stops it. */
	async stop(): Promise<void> {
		if (!this.child || this.child.exitCode !== null) return;
		const signalledAt = Date.now();
		this.child.kill('SIGTERM');
		const stopped = await Promise.race([
			this.exited!.then(() => true),
			sleep(45_000).then(() => false),
		]);
		if (!stopped) {
			this.child.kill('SIGKILL');
			await this.exited;
		}
		this.shutdowns.push({ signalledAt, exitedAt: Date.now() });
	}

	/** SIGKILL: a crash or an out-of-memory kill, no shutdown at all. */
	async kill(): Promise<void> {
		if (!this.child || this.child.exitCode !== null) return;
		this.child.kill('SIGKILL');
		await this.exited;
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	log(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
	}
}

// ---------------------------------------------------------------------------------------------
// Executions of the cluster

/** Start an execution through a webhook process, as production traffic would. */
export async function postToWebhook(
	webhookProcessUrl: string,
	webhookPath: string,
	body: Record<string, unknown>,
): Promise<void> {
	const response = await fetch(`${webhookProcessUrl}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await response.arrayBuffer();
	if (response.status !== 200)
		throw new Error(`POST /webhook/${webhookPath} answered ${response.status}`);
}

export type Execution = ExecutionDetail;

type Listed = { data: { results: Array<{ id: string; status: string }> } };

function listExecutions(n8n: QueueN8n, workflowId: string): Promise<Listed> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return n8n.restOk<Listed>('GET', `/executions?filter=${filter}&limit=250`);
}

/** Wait until `count` executions of the workflow, besides those listed in `before`, are done. */
export async function executionsDone(
	n8n: QueueN8n,
	workflowId: string,
	count: number,
	before: Set<string>,
	timeoutMs: number,
): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = await listExecutions(n8n, workflowId);
		const fresh = list.data.results.filter((e) => !before.has(e.id));
		const done = fresh.filter((e) => FINISHED_STATUSES.has(e.status));
		if (done.length >= count) {
			const ids = new Set(done.map((e) => e.id));
			return (await executionsOf(n8n, workflowId)).filter((e) => ids.has(e.summary.id));
		}
		if (Date.now() > deadline) {
			const statuses = fresh.map((e) => e.status).join(',');
			throw new CheckFailure(
				`timed out: ${done.length} of ${count} executions of ${workflowId} done (statuses: ${statuses})`,
			);
		}
		await sleep(2_000);
	}
}

export async function executionIds(n8n: QueueN8n, workflowId: string): Promise<Set<string>> {
	return new Set((await listExecutions(n8n, workflowId)).data.results.map((e) => e.id));
}
