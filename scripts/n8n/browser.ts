/**
 * The editor in a real browser: Debian's Chromium, headless, driven by playwright-core.
 *
 * The owner (set up through the REST API) signs in through the sign-in form, opens a new workflow,
 * searches the nodes panel for "Place AI Call", adds the action, and the form must render: the agent
 * picker lists the simulator's agents, the From Number picker its numbers, the schedule fields show.
 * The voice list (Agent → Create) loads the simulator's voices. The credential's test succeeds against
 * the simulator, and a credential with a wrong key fails with the 401 message. Screenshots of every
 * step go to the folder the run prints.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import type { Simulator } from '../../simulator';
import { VOICES } from '../../simulator';
import { check, log, type N8nInstance, runOk } from './lib';
import type { Owner } from './run';
import { CREDENTIAL_NAME } from './shared';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, installed when missing (CI runs as root). */
export async function ensureChromium(): Promise<void> {
	if (existsSync(CHROMIUM)) return;
	log('chromium: installing the Debian package');
	const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await runOk(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'], { env, timeoutMs: 300_000 });
	await runOk(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env, timeoutMs: 600_000 });
}

export async function runBrowserTest(n8n: N8nInstance, sim: Simulator, owner: Owner, dir: string): Promise<void> {
	selectors.setTestIdAttribute('data-test-id');
	let browser: Browser | undefined;
	let shot = 0;
	let page: Page | undefined;
	const screenshot = async (name: string) => {
		const file = path.join(dir, `${String(++shot).padStart(2, '0')}-${name}.png`);
		await page!.screenshot({ path: file });
		return file;
	};
	try {
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			headless: true,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
			],
		});
		page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(30_000);

		// sign in as the owner
		await page.goto(`${n8n.url}/signin`);
		await page.locator('#emailOrLdapLoginId').fill(owner.email);
		await page.locator('#password').fill(owner.password);
		await screenshot('sign-in');
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
		check(true, `editor: signed in as the owner (${new URL(page.url()).pathname})`);

		// a new workflow; the nodes panel searched for the operation
		await page.goto(`${n8n.url}/workflow/new`);
		await page.getByTestId('canvas-add-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Place AI Call');
		const nodeItem = page.getByTestId('node-creator-item-name').getByText('Voice Agent CRM', { exact: true }).first();
		const found = await nodeItem
			.waitFor({ timeout: 10_000 })
			.then(() => true)
			.catch(() => false);
		await screenshot('nodes-panel-search');
		check(
			found,
			'editor: searching the nodes panel for "Place AI Call" finds the Voice Agent CRM node',
			() =>
				'n8n leaves nodes whose codex categories include "AI" out of its search on a canvas without AI nodes, and matches names and codex aliases only',
		);
		await nodeItem.click();
		await page.getByTestId('node-creator-category-item').filter({ hasText: 'Actions' }).click();
		const action = page.getByTestId('node-creator-item-name').getByText('Place AI call', { exact: true }).first();
		await action.waitFor();
		await screenshot('node-actions');
		await action.click();

		// the form
		const ndv = page.getByTestId('ndv');
		await ndv.waitFor();
		await screenshot('place-ai-call-form');
		const credentialSelect = page.getByTestId('node-credentials-select');
		const credentialText = [
			await credentialSelect.innerText(),
			...(await credentialSelect.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))),
		].join(' ');
		check(credentialText.includes(CREDENTIAL_NAME), `editor: the credential "${CREDENTIAL_NAME}" is selected by itself`);

		const agents = [...sim.org.agents.values()].map((a) => a.name);
		const listedAgents = await openLocatorList(page, 'agentId', agents[agents.length - 1], () => screenshot('agent-picker'));
		check(
			agents.length > 0 && agents.every((name) => listedAgents.some((text) => text.includes(name))),
			`editor: the agent picker lists the simulator's agents (${listedAgents.join(', ')})`,
			() => `expected ${agents.join(', ')}`,
		);

		const numbers = [...sim.org.phoneNumbers.values()].map((n) => n.phone_number);
		const listedNumbers = await openLocatorList(page, 'fromNumber', numbers[0]);
		await screenshot('agent-and-number-chosen');
		check(
			numbers.every((n) => listedNumbers.some((text) => text.includes(n))),
			`editor: the From Number picker lists the simulator's numbers (${numbers.join(', ')})`,
			() => `listed: ${listedNumbers.join(' | ')}`,
		);

		await page.getByTestId('collection-parameter-add').click();
		await dropdownItems(page).getByText('Schedule', { exact: true }).click();
		await page.getByTestId('fixed-collection-schedule').getByTestId('fixed-collection-add').click();
		await ndv.getByText('Date and Time', { exact: true }).first().waitFor();
		await screenshot('schedule-fields');
		check(
			(await ndv.getByText('Time Zone', { exact: true }).first().isVisible()) && (await ndv.getByText('Wait for Outcome', { exact: true }).isVisible()),
			'editor: the schedule fields show (Schedule → Date and Time, Time Zone) beside Wait for Outcome',
		);

		// the voice list, on Agent → Create
		await choose(page, 'resource', 'Agent');
		await choose(page, 'operation', 'Create');
		await openSelect(page, 'voice_id');
		const voiceItems = dropdownItems(page);
		const voices = await voiceItems.allInnerTexts();
		await screenshot('voice-list');
		await voiceItems.filter({ hasText: VOICES[2].name }).first().click();
		check(
			voices.length === VOICES.length && VOICES.every((v) => voices.some((text) => text.startsWith(v.name))),
			`editor: the voice list loads the simulator's ${VOICES.length} voices (${voices.map((v) => v.split(' ')[0]).join(', ')})`,
			() => `listed: ${voices.join(' | ')}`,
		);

		// the credential's test: the imported one succeeds against the simulator
		const before = sim.requests.length;
		await page.getByTestId('credential-edit-button').click();
		const success = page.getByTestId('credentials-config-container-test-success');
		await success.waitFor();
		await screenshot('credential-test-succeeds');
		const tested = sim.requests.slice(before).filter((r) => r.path === '/v1/agents/voices');
		check(
			tested.some((r) => r.status === 200),
			`editor: the credential's test succeeds ("${(await success.innerText()).split('\n')[0].trim()}"), answered 200 by the simulator`,
		);
		await closeCredentialModal(page);

		// a new credential with a wrong key: the test fails, and says why
		await page.getByTestId('node-credentials-select').click();
		await page.getByTestId('node-credentials-select-item-new').click();
		const fields = page.getByTestId('credential-connection-parameter');
		await fields.nth(0).locator('input').fill('vak_wrong_key_typed_in_the_browser');
		await fields.nth(1).locator('input').fill(sim.baseUrl);
		const beforeWrong = sim.requests.length;
		await page.getByTestId('credential-save-button').click();
		const failure = page.getByText('Couldn’t connect with these settings').or(page.getByText("Couldn't connect with these settings")).first();
		await failure.waitFor();
		await page.getByText('More details', { exact: true }).first().click();
		const reason = page.getByText('The API key was refused (401)', { exact: false }).first();
		await reason.waitFor();
		await screenshot('credential-test-wrong-key');
		const refused = sim.requests.slice(beforeWrong).filter((r) => r.path === '/v1/agents/voices');
		check(
			refused.some((r) => r.status === 401),
			`editor: with a wrong key the test fails clearly ("${(await reason.innerText()).trim()}"), answered 401 by the simulator`,
		);
	} catch (error) {
		if (page) await screenshot('failure').catch(() => undefined);
		throw error;
	} finally {
		await browser?.close();
	}
	log(`editor: ${shot} screenshots in ${dir}`);
}

/** Open a resource locator's list, read its entries, and choose the one with `pick` in it (which closes the list). */
async function openLocatorList(page: Page, parameter: string, pick: string, whileOpen?: () => Promise<unknown>): Promise<string[]> {
	await page.getByTestId(`resource-locator-${parameter}`).getByTestId('rlc-input').click();
	const items = page.getByTestId('rlc-item');
	await items.first().waitFor();
	const texts = await items.allInnerTexts();
	await whileOpen?.();
	await items.filter({ hasText: pick }).first().click();
	await items.first().waitFor({ state: 'hidden' });
	return texts;
}

async function closeCredentialModal(page: Page): Promise<void> {
	const modal = page.getByTestId('editCredential-modal');
	const close = modal.locator('.el-dialog__headerbtn, [aria-label="Close"], [aria-label="Close this dialog"]').first();
	if (await close.count()) await close.click();
	else await page.keyboard.press('Escape');
	await modal.waitFor({ state: 'hidden' });
}

function dropdownItems(page: Page): Locator {
	return page.locator('.el-select-dropdown__item:visible');
}

/** Open an options parameter's dropdown; the click is repeated while a closing dropdown swallows it. */
async function openSelect(page: Page, parameter: string): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		await page.getByTestId(`parameter-input-${parameter}`).locator('input').first().click();
		const opened = await dropdownItems(page)
			.first()
			.waitFor({ timeout: 5_000 })
			.then(() => true)
			.catch(() => false);
		if (opened) return;
		if (attempt === 3) throw new Error(`the dropdown of ${parameter} did not open`);
	}
}

async function choose(page: Page, parameter: string, label: string): Promise<void> {
	await openSelect(page, parameter);
	await dropdownItems(page).filter({ has: page.getByText(label, { exact: true }) }).first().click();
}
