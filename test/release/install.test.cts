import { readFileSync } from 'node:fs';
import path from 'node:path';

import { byHandInstallScript } from '../../scripts/n8n/lib.cts';

/**
 * The README's install instructions are the ones `npm run test:n8n` follows (it runs the README's
 * by-hand lines with the tarball in place of the name), and its compatibility line names the n8n
 * versions CI runs that suite on.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe("README's by-hand install", () => {
	it("creates n8n's nodes folder and installs the package there without its peer dependency", () => {
		expect(byHandInstallScript(README).trim().split('\n')).toEqual([
			'mkdir -p ~/.n8n/nodes',
			'cd ~/.n8n/nodes',
			"[ -f package.json ] || echo '{}' > package.json",
			'npm install --legacy-peer-deps n8n-nodes-voice-agent-crm',
		]);
	});

	it('is the script test:n8n runs, with only the package name replaced by the tarball', () => {
		const tarball = '/tmp/packed/n8n-nodes-voice-agent-crm-0.1.0.tgz';
		const asRun = byHandInstallScript(README, tarball).split('\n');
		const asWritten = byHandInstallScript(README).split('\n');
		expect(asRun.filter((line, i) => line !== asWritten[i])).toEqual([
			`npm install --legacy-peer-deps ${tarball}`,
		]);
		expect(read('scripts/n8n/run.cts')).toMatch(
			/byHandInstallScript\(readFileSync\(path\.join\(ROOT, 'README\.md'\), 'utf8'\), tarball\)/,
		);
	});

	it("is shown after n8n's own installer (Settings → Community Nodes)", () => {
		const section = README.slice(README.indexOf('## Install in n8n'));
		expect(section.indexOf('Settings → Community Nodes')).toBeGreaterThan(-1);
		expect(section.indexOf('Settings → Community Nodes')).toBeLessThan(
			section.indexOf('<!-- by-hand install:'),
		);
	});
});

describe("README's compatibility line", () => {
	it('names exactly the n8n versions test:n8n runs on in CI', () => {
		const pinned = /^N8N_VERSION="\$\{N8N_VERSION:-([\d.]+)\}"$/m.exec(
			read('scripts/n8n/install.sh'),
		)?.[1];
		// CI runs the real-n8n suites through all.sh: the pinned version, then the newest it names
		expect(read('.ci/run')).toMatch(/^(part )?npm run test:n8n:all( -- .+)?$/m);
		const all = read('scripts/n8n/all.sh');
		const others = [...all.matchAll(/^NEWEST_N8N=([\d.]+)$/gm)].map((match) => match[1]);
		expect(all).toMatch(/ N8N_VERSION="\$NEWEST_N8N" [\s\S]*?npm run test:n8n \|\|/);
		const line = /^\*\*Compatibility:\*\* n8n (.+?),/m.exec(README)?.[1];
		expect(line?.split(/ and |, /).sort()).toEqual([pinned, ...others].sort());
		expect(others.length).toBeGreaterThan(0);
	});
});
