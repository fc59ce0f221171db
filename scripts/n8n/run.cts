/**
 * `npm run test:n8n`: the package proven in a real n8n.
 *
 * 1. A pinned n8n (2.38.7, on Node 24 from the npm registry) in a cache folder outside the sources
 *    (install.sh; reused when present).
 * 2. The package built and packed (`npm pack`), the tarball installed as a community package into an
 *    isolated n8n user folder, the way n8n's own installer does it.
 * 3. The simulator started in this process (its clock is moved from here), a credential pointing at it
 *    imported, every `examples/*.json` imported unchanged and run with `n8n execute`, its output checked;
 *    then a workflow that loops back into Place AI Call stops at Max Calls per Person (loop.cts).
 * 4. `n8n start` with a Voice Agent CRM Trigger workflow published: calls finish in the simulator,
 *    exactly one execution item per finished call (read through n8n's REST API); then the Voice Agent
 *    CRM Instant Trigger (instantTrigger.cts): call events in seconds, each call once, agents' webhook
 *    URLs set on activation and restored on deactivation.
 *    Then Run Campaign, freeing the worker, across a SIGTERM and a SIGKILL restart (campaignRestart.cts).
 * 5. In parallel, the editor in headless Chromium (browser.cts): sign-in, "Place AI Call" from the
 *    nodes panel, its form, the credential test.
 * 6. A Stop as the editor's button does it, while the node's request is on its way (stop.cts): what
 *    n8n saves of the stopped execution for Tag → Create and for a file's run stopped mid-file.
 *
 * Environment: N8N_CACHE_DIR (install folder), TEST_N8N_SKIP_BROWSER=1, TEST_N8N_SKIP_TRIGGER=1,
 * TEST_N8N_SKIP_EXAMPLES=1, TEST_N8N_SKIP_STOP=1, TEST_N8N_SKIP_CAMPAIGN=1, TEST_N8N_DURABLE_POLLING=1
 * (n8n's durable scheduler for the trigger, which is then also checked across a restart of n8n;
 * the browser part is left out), TEST_N8N_SKIP_BUILD=1 (pack dist/ as it is, as happens anyway
 * when it is current), TEST_N8N_EDITOR_DONE_FILE (written once the editor's checks are over: all.sh).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { N8N_FILES } from '../../harness/examples.cts';
import { startSimulator } from '../../simulator/index.cts';
import { ensureChromium, runBrowserTest } from './browser.cts';
import { prepareCampaignRestart, runCampaignAcrossRestarts } from './campaignRestart.cts';
import { runCancelFromAnotherWorkflow } from './cancelCampaign.cts';
import { runEventFileTest } from './eventFile.cts';
import { runExamples } from './examples.cts';
import { runLoopAtTheCap } from './loop.cts';
import { runStopTest } from './stop.cts';
import {
	buildAndPack,
	byHandInstallScript,
	check,
	CheckFailure,
	checks,
	freePort,
	freshDir,
	installN8n,
	installPaths,
	keepSecret,
	log,
	N8nInstance,
	PACKAGE_NAME,
	redact,
	resolveAsN8nWould,
	ROOT,
	runOk,
	setUpOwner,
	stageTimer,
	writeJson,
} from './lib.cts';
import { disallowedRequires, externalModules } from './runtimeRequires.cts';
import {
	prepareInstantTriggerWorkflow,
	runInstantTriggerAcrossRestart,
	runInstantTriggerTest,
} from './instantTrigger.cts';
import {
	DURABLE_POLLING_ENV,
	prepareTriggerWorkflow,
	runTriggerAcrossRestart,
	runTriggerTest,
} from './trigger.cts';

// browser.cts reads the owner's type from here
export type { Owner } from './lib.cts';

async function main(): Promise<void> {
	const t0 = Date.now();
	// a folder per other n8n version: all.sh runs one beside the pinned run
	const versionSuffix = process.env.N8N_VERSION ? `-${process.env.N8N_VERSION}` : '';
	const workDir = freshDir(path.join(ROOT, 'test', '.tmp', `n8n${versionSuffix}`));
	const logDir = freshDir(path.join(workDir, 'logs'));
	const screenshotDir = freshDir(path.join(workDir, 'screenshots'));
	const { timed, summary } = stageTimer();

	// 1. n8n itself
	const cacheDir = await timed('install n8n', installN8n);
	const install = installPaths(cacheDir);
	// the durable run restarts n8n while the editor would be in use: it leaves the browser part out
	const durable = process.env.TEST_N8N_DURABLE_POLLING === '1';
	const browserTest = process.env.TEST_N8N_SKIP_BROWSER !== '1' && !durable;
	if (durable && process.env.TEST_N8N_SKIP_BROWSER !== '1')
		log('browser: skipped (TEST_N8N_DURABLE_POLLING=1 restarts n8n during the trigger checks)');
	if (browserTest) await timed('chromium', ensureChromium);
	log(`n8n: ${cacheDir}`);

	// 2. The package as users get it
	const tarball = await timed('build and pack', () => buildAndPack(workDir, logDir));
	log(`package: ${path.basename(tarball)}`);

	// outside the checkout, so that nothing resolves through the project's own node_modules
	const userFolder = mkdtempSync(path.join(tmpdir(), `${PACKAGE_NAME}-test-n8n-`));
	const n8n = new N8nInstance(install, userFolder, logDir, await freePort());
	n8n.taskBrokerPort = await freePort();
	if (durable) n8n.extraEnv = DURABLE_POLLING_ENV;
	log(`n8n user folder: ${userFolder}`);
	const version = (await n8n.cliOk(['--version'])).stdout.trim();
	check(
		!process.env.N8N_VERSION || version === process.env.N8N_VERSION,
		`n8n ${version} runs (N8N_VERSION ${process.env.N8N_VERSION ?? 'not set, install.sh default'})`,
	);
	await timed('install by hand', () => installByHand(n8n, tarball, logDir));

	// 3. The simulator, in this process
	const sim = await startSimulator({ apiKey: `vak_${randomBytes(18).toString('hex')}` });
	keepSecret(sim.apiKey);
	log(`simulator: ${sim.baseUrl}`);

	let failed: unknown;
	let campaignSim: Awaited<ReturnType<typeof startSimulator>> | undefined;
	try {
		await timed('import credential', () =>
			n8n.importSimulatorCredential(sim, path.join(workDir, 'credentials.json')),
		);

		const examples = readdirSync(path.join(ROOT, 'examples'))
			.filter((f) => f.endsWith('.json'))
			.sort();
		await timed('event file', () => runEventFileTest(n8n, sim, workDir, examples));
		const { live } =
			process.env.TEST_N8N_SKIP_EXAMPLES === '1'
				? { live: [] }
				: await timed('examples', () => runExamples(n8n, sim, examples, workDir));
		await timed('runaway loop at the cap', () => runLoopAtTheCap(n8n, sim, workDir));

		const triggerTest = process.env.TEST_N8N_SKIP_TRIGGER !== '1';
		if (!triggerTest)
			log(
				`trigger: skipped (TEST_N8N_SKIP_TRIGGER=1)${live.length ? `, and with it ${live.map((l) => l.file).join(', ')}` : ''}`,
			);
		if (triggerTest) {
			await timed('prepare trigger workflow', () =>
				prepareTriggerWorkflow(n8n, sim, workDir, live),
			);
			await timed('prepare instant trigger workflow', () =>
				prepareInstantTriggerWorkflow(n8n, sim, workDir),
			);
		}

		if (process.env.TEST_N8N_SKIP_CAMPAIGN !== '1')
			campaignSim = await timed('prepare campaign workflow', () =>
				prepareCampaignRestart(n8n, workDir),
			);

		// 4 and 5: one running n8n. Its Read/Write Files from Disk reads the Stop check's file from
		// .n8n-files in the folder it runs in (n8n's default is ~/.n8n-files: this user's home)
		n8n.extraEnv = {
			...n8n.extraEnv,
			N8N_RESTRICT_FILE_ACCESS_TO: path.join(userFolder, N8N_FILES),
		};
		await timed('n8n start', () => n8n.start());
		log(`n8n: serving ${n8n.url}`);
		const owner = await setUpOwner(n8n);
		if (process.env.TEST_N8N_PAUSE === '1') {
			// for writing the browser test: n8n and the simulator stay up until this process is stopped
			writeJson(path.join(workDir, 'session.json'), {
				url: n8n.url,
				owner,
				simulator: sim.baseUrl,
			});
			log(`paused: ${path.join(workDir, 'session.json')}`);
			await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
		}

		const work: Array<Promise<void>> = [];
		if (triggerTest) {
			// the instant trigger's calls come after the polling trigger's checks, which count every finished call
			// under the durable scheduler the polling trigger is also checked across a restart of n8n
			work.push(
				timed('trigger live', () => runTriggerTest(n8n, sim, live, { durable }))
					.then(async () => {
						if (durable)
							await timed('trigger across a restart', () =>
								runTriggerAcrossRestart(n8n, sim, owner),
							);
					})
					.then(() => timed('instant trigger live', () => runInstantTriggerTest(n8n, sim))),
			);
		}
		if (browserTest) {
			work.push(
				timed('editor in chromium', () => runBrowserTest(n8n, sim, owner, screenshotDir)).finally(
					signalEditorDone,
				),
			);
		} else signalEditorDone();
		const outcomes = await Promise.allSettled(work);
		const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
		if (rejected) throw rejected.reason;
		if (process.env.TEST_N8N_SKIP_STOP !== '1')
			await timed('stop in the editor', () => runStopTest(n8n, sim));
		if (triggerTest)
			await timed('instant trigger across a restart', () =>
				runInstantTriggerAcrossRestart(n8n, sim, owner),
			);
		if (campaignSim) {
			await timed('campaign across restarts', () =>
				runCampaignAcrossRestarts(n8n, campaignSim!, owner, workDir),
			);
			await timed('cancel campaign from another workflow', () =>
				runCancelFromAnotherWorkflow(n8n, campaignSim!),
			);
		}
	} catch (error) {
		failed = error;
	} finally {
		signalEditorDone();
		await n8n.stop();
		await sim.stop();
		await campaignSim?.stop();
	}

	const seconds = Math.round((Date.now() - t0) / 1000);
	log(summary());
	log(`logs: ${logDir}`);
	log(`screenshots: ${screenshotDir}`);
	if (failed) log(`n8n user folder kept: ${userFolder}`);
	else rmSync(userFolder, { recursive: true, force: true });
	if (failed) {
		const message = failed instanceof Error ? failed.message : String(failed);
		log(`FAILED after ${seconds}s: ${failed instanceof CheckFailure ? '' : 'error: '}${message}`);
		if (!(failed instanceof CheckFailure) && failed instanceof Error)
			console.error(redact(failed.stack ?? ''));
		console.log(`test:n8n: ${checks.passed} passed, 1 failed`);
		process.exit(1);
	}
	console.log(`test:n8n: ${checks.passed} passed, 0 failed (${seconds}s)`);
	process.exit(0);
}

/**
 * Tells all.sh (through the file TEST_N8N_EDITOR_DONE_FILE names) that the editor's checks are over:
 * the other suites start beside this run from then on, not while the browser's clicks race the clock.
 */
function signalEditorDone(): void {
	const file = process.env.TEST_N8N_EDITOR_DONE_FILE;
	if (file) writeFileSync(file, `${new Date().toISOString()}\n`);
}

/**
 * The tarball installed as the README's by-hand install says (its lines run in bash, HOME being the
 * user folder, on the machine's Node and npm, with the tarball's path in place of the package name),
 * then checked to be the install a user gets: the package alone in n8n's nodes folder, its run-time
 * requirements missing from there and provided by this n8n.
 */
async function installByHand(n8n: N8nInstance, tarball: string, logDir: string): Promise<void> {
	const script = byHandInstallScript(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), tarball);
	log(`package: README's by-hand install, HOME=${n8n.userFolder}:\n${script.trim()}`);
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH ?? '',
		HOME: n8n.userFolder,
		LANG: process.env.LANG ?? 'C.UTF-8',
	};
	await runOk('bash', ['-euo', 'pipefail', '-c', script], {
		cwd: n8n.userFolder,
		env,
		logFile: path.join(logDir, 'install-by-hand.log'),
	});

	const modulesDir = path.join(n8n.n8nDir, 'nodes', 'node_modules');
	const installed = readdirSync(modulesDir).filter((name) => !name.startsWith('.'));
	check(
		installed.length === 1 && installed[0] === PACKAGE_NAME,
		`by-hand install: ${modulesDir} holds the package alone (no peer dependency installed beside it)`,
		() => installed.join(', '),
	);

	const packageDir = path.join(modulesDir, PACKAGE_NAME);
	const entry = path.join(
		packageDir,
		(
			JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
				n8n: { nodes: string[] };
			}
		).n8n.nodes[0],
	);
	const required = externalModules(path.join(packageDir, 'dist'));
	check(
		disallowedRequires(path.join(packageDir, 'dist')).length === 0,
		`installed package requires only relative files, Node built-ins and ${required.join(', ')}`,
	);
	for (const { module, fromPackage, fromN8n } of await resolveAsN8nWould(
		n8n.install,
		entry,
		required,
	)) {
		check(
			fromPackage === null,
			`${module}: not reachable from the user folder by itself (resolution is a user's, not the checkout's)`,
			() => String(fromPackage),
		);
		check(
			fromN8n?.startsWith(path.join(n8n.install.cacheDir, 'n8n', 'node_modules') + path.sep),
			`${module}: provided by this n8n (${fromN8n ? path.relative(n8n.install.cacheDir, fromN8n) : 'not found'})`,
		);
	}
}

void main().catch((error: unknown) => {
	console.error(redact(error instanceof Error ? (error.stack ?? error.message) : String(error)));
	console.log('test:n8n: 0 passed, 1 failed');
	process.exit(1);
});
