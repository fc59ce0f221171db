/**
 * `npm run test:n8n:prepare`: what the real-n8n suites need from outside the repository, installed
 * once before CI runs them side by side: the pinned n8n in its cache folder (install.sh), Chromium
 * for the editor part, Redis and Postgres for queue mode. Each is skipped when present; two suites
 * installing the same n8n or running apt-get at once would get in each other's way.
 */
import { ensureChromium } from './browser.cts';
import { installN8n, log } from './lib.cts';
import { ensureServices } from './queueCluster.cts';

async function main(): Promise<void> {
	log(`n8n: ${await installN8n()}`);
	await ensureChromium();
	await ensureServices();
	log('chromium, redis and postgres: present');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
