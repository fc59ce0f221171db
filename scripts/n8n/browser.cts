/**
 * The editor in a real browser: Debian's Chromium, headless, driven by playwright-core.
 *
 * The owner (set up through the REST API) signs in through the sign-in form. The three nodes on one
 * canvas, in the light and the dark theme, show three different icons, each its own file. Place AI
 * Call as an AI Agent's tool offers no wait, and the model defines To Number and Full Name. Then a
 * new workflow: the nodes panel searched for "Place AI Call", the action added, and the form must
 * render: the agent picker lists the simulator's agents, the From Number picker its numbers, the schedule fields show.
 * Every operation's form opens without an error notice (resources and operations read from the built
 * node's description, so the test follows the values that land). The voice list (Agent → Create)
 * loads the simulator's voices. WhatsApp → Send Template is driven from the lists (active WABA
 * channels only; the template with its language) and executed: the simulator records the en_US send.
 * The credential's test succeeds against the simulator, and fails saying what to fix for a wrong
 * key, a web page at the Base URL, a Base URL without scheme and a refused connection. Screenshots
 * of every step go to the folder the run prints.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromium, selectors } from 'playwright-core';

import { closedAddress, startWebPage } from '../../harness/addresses.cts';
import type { Simulator } from '../../simulator/index.cts';
import { VOICES } from '../../simulator/index.cts';
import { check, log, type N8nInstance, PACKAGE_NAME, ROOT, runOk, sleep } from './lib.cts';
import type { Owner } from './run.cts';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from './shared.cts';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, installed when missing (CI runs as root). */
export async function ensureChromium(): Promise<void> {
	if (existsSync(CHROMIUM)) return;
	log('chromium: installing the Debian package');
	const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await runOk(
		sudo[0] ?? 'apt-get',
		[...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'],
		{ env, timeoutMs: 300_000 },
	);
	await runOk(
		sudo[0] ?? 'apt-get',
		[
			...(sudo.length ? ['apt-get'] : []),
			'install',
			'-y',
			'-qq',
			'--no-install-recommends',
			'chromium',
		],
		{ env, timeoutMs: 600_000 },
	);
}

export async function runBrowserTest(
	n8n: N8nInstance,
	sim: Simulator,
	owner: Owner,
	dir: string,
): Promise<void> {
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

		await threeNodesOnOneCanvas(page, n8n, screenshot);
		await toolForm(page, n8n, screenshot);

		// a new workflow; the nodes panel searched for the operation
		await page.goto(`${n8n.url}/workflow/new`);
		await page.getByTestId('canvas-add-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Place AI Call');
		const nodeItem = page
			.getByTestId('node-creator-item-name')
			.getByText('Voice Agent CRM', { exact: true })
			.first();
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
		const action = page
			.getByTestId('node-creator-item-name')
			.getByText('Place AI call', { exact: true })
			.first();
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
			...(await credentialSelect
				.locator('input')
				.evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))),
		].join(' ');
		check(
			credentialText.includes(CREDENTIAL_NAME),
			`editor: the credential "${CREDENTIAL_NAME}" is selected by itself`,
		);

		const agents = [...sim.org.agents.values()].map((a) => a.name);
		const listedAgents = await openLocatorList(page, 'agentId', agents[agents.length - 1], () =>
			screenshot('agent-picker'),
		);
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
			(await ndv.getByText('Time Zone', { exact: true }).first().isVisible()) &&
				(await ndv.getByText('Wait for Outcome', { exact: true }).isVisible()),
			'editor: the schedule fields show (Schedule → Date and Time, Time Zone) beside Wait for Outcome',
		);

		// every operation's form, as the built node describes them
		const forms = operationForms();
		for (const { resource, operation } of forms) {
			await choose(page, 'resource', resource);
			await choose(page, 'operation', operation);
			await ndv.getByTestId('parameter-input-operation').waitFor();
			await page.waitForTimeout(300);
			const problems = await errorNotices(page);
			await screenshot(`form-${slug(resource)}-${slug(operation)}`);
			check(
				problems.length === 0,
				`editor: the form of ${resource} → ${operation} opens without an error notice`,
				() => problems.join(' | '),
			);
		}
		check(
			forms.length >= 33,
			`editor: ${forms.length} operation forms opened, each with a screenshot`,
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
			voices.length === VOICES.length &&
				VOICES.every((v) => voices.some((text) => text.startsWith(v.name))),
			`editor: the voice list loads the simulator's ${VOICES.length} voices (${voices.map((v) => v.split(' ')[0]).join(', ')})`,
			() => `listed: ${voices.join(' | ')}`,
		);

		await sendTemplateFromTheLists(page, sim, screenshot);

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

		// new credentials that fail the test, each saying what to fix
		const webPage = await startWebPage();
		try {
			const cases = [
				{
					what: 'a wrong key',
					apiKey: 'vak_wrong_key_typed_in_the_browser',
					baseUrl: sim.baseUrl,
					says: 'The API key was refused',
				},
				{
					what: 'a web page at the Base URL',
					apiKey: sim.apiKey,
					baseUrl: webPage.url,
					says: 'The Base URL does not point at the API',
				},
				{
					what: 'a Base URL without http://',
					apiKey: sim.apiKey,
					baseUrl: sim.baseUrl.replace(/^http:\/\//, ''),
					says: 'The Base URL must start with http:// or https://',
				},
				{
					what: 'a refused connection',
					apiKey: sim.apiKey,
					baseUrl: await closedAddress(),
					says: 'The service did not answer: the connection was refused',
				},
			];
			for (const failing of cases) {
				const reason = await credentialTestFailure(
					page,
					failing.apiKey,
					failing.baseUrl,
					failing.says,
				);
				await screenshot(`credential-test-${slug(failing.what)}`);
				check(true, `editor: with ${failing.what} the credential test fails clearly ("${reason}")`);
				await closeCredentialModal(page);
			}
		} finally {
			webPage.server.close();
		}
	} catch (error) {
		if (page) await screenshot('failure').catch(() => undefined);
		throw error;
	} finally {
		await browser?.close();
	}
	log(`editor: ${shot} screenshots in ${dir}`);
}

/** What the page's script sees of the browser window (the project compiles without the DOM types). */
interface Window {
	localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void };
}

const CREDENTIALS = { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

/** A workflow made through the REST API (as the signed-in owner), opened in the editor. */
async function openWorkflow(
	page: Page,
	n8n: N8nInstance,
	name: string,
	nodes: Array<{ name: string; type: string; position: [number, number]; parameters?: object }>,
): Promise<void> {
	const { data } = await n8n.restOk<{ data: { id: string } }>('POST', '/workflows', {
		name,
		active: false,
		connections: {},
		settings: {},
		nodes: nodes.map((node) => ({
			id: randomUUID(),
			typeVersion: 1,
			parameters: {},
			credentials: CREDENTIALS,
			...node,
		})),
	});
	await page.goto(`${n8n.url}/workflow/${data.id}`);
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 120_000 });
	await page.waitForTimeout(1_000);
}

/** The icons the canvas shows for the package's nodes, by their file, with the SVG each serves. */
async function canvasIcons(page: Page, n8n: N8nInstance): Promise<Map<string, string>> {
	const sources = await page
		.getByTestId('canvas-node')
		.locator('img')
		.evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
	const icons = new Map<string, string>();
	for (const source of sources.filter((src) => src.includes(PACKAGE_NAME))) {
		const answer = await page.request.get(new URL(source, n8n.url).toString());
		icons.set(source.split('?')[0].slice(source.indexOf('/nodes/') + 1), await answer.text());
	}
	return icons;
}

/**
 * The action node and both triggers side by side, in the light and the dark theme: three icons a
 * user tells apart, each its node's own file (the dark one in the dark theme).
 */
async function threeNodesOnOneCanvas(
	page: Page,
	n8n: N8nInstance,
	screenshot: (name: string) => Promise<string>,
): Promise<void> {
	const nodes = [
		{ name: 'Voice Agent CRM Trigger', type: `${PACKAGE_NAME}.voiceAgentCrmTrigger` },
		{
			name: 'Voice Agent CRM Call Events Trigger',
			type: `${PACKAGE_NAME}.voiceAgentCrmInstantTrigger`,
			parameters: { registration: 'manual' },
		},
		{ name: 'Voice Agent CRM', type: `${PACKAGE_NAME}.voiceAgentCrm` },
	].map((node, index) => ({ ...node, position: [index * 300, 0] as [number, number] }));
	await openWorkflow(page, n8n, 'The three nodes', nodes);
	const expected = (suffix: string) =>
		['VoiceAgentCrmTrigger', 'VoiceAgentCrmInstantTrigger', 'VoiceAgentCrm']
			.map((folder) => `nodes/${folder}/${folder[0].toLowerCase()}${folder.slice(1)}${suffix}.svg`)
			.sort();
	for (const theme of ['light', 'dark'] as const) {
		if (theme === 'dark') {
			await page.evaluate(
				(value) => (globalThis as unknown as Window).localStorage.setItem('N8N_THEME', value),
				theme,
			);
			await page.reload();
			// the editor loads again from nothing: slow on a busy machine
			await page.getByTestId('canvas-node').first().waitFor({ timeout: 120_000 });
			await page.waitForTimeout(1_000);
		}
		await screenshot(`three-nodes-${theme}`);
		const icons = [...(await canvasIcons(page, n8n))].map(([source, svg]) => ({
			file: source.replace(/^.*?nodes\//, 'nodes/'),
			svg,
		}));
		const files = icons.map(({ file }) => file).sort();
		check(
			files.join() === expected(theme === 'dark' ? '.dark' : '').join() &&
				new Set(icons.map(({ svg }) => svg)).size === 3 &&
				icons.every(({ file, svg }) => svg === readFileSync(path.join(ROOT, file), 'utf8')),
			`editor (${theme} theme): the three nodes on one canvas show three different icons, each its own file`,
			() => `icons: ${files.join(', ')}`,
		);
	}
	await page.evaluate(() => (globalThis as unknown as Window).localStorage.removeItem('N8N_THEME'));
}

/**
 * Place AI Call as an AI Agent's tool: no Wait for Outcome; To Number and Full Name are defined by
 * the model, each with its description; the agent stays a list to pick from.
 */
async function toolForm(
	page: Page,
	n8n: N8nInstance,
	screenshot: (name: string) => Promise<string>,
): Promise<void> {
	await openWorkflow(page, n8n, 'Place AI Call as a tool', [
		{
			name: 'Place AI Call Tool',
			type: `${PACKAGE_NAME}.voiceAgentCrmTool`,
			position: [0, 0],
			parameters: { resource: 'call', operation: 'placePhoneCall' },
		},
	]);
	await page.getByTestId('canvas-node').first().dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.getByText('Tool Description', { exact: true }).first().waitFor();
	await page.waitForTimeout(500);
	await screenshot('place-ai-call-tool-form');
	const text = await ndv.innerText();
	const byModel = await ndv.getByText(/Defined automatically by the/).count();
	check(
		!/Wait for Outcome|Until the Call Ends|Until Its Analysis Is Ready|Free the Worker/.test(text),
		'editor: Place AI Call as a tool offers no wait (no Wait for Outcome, no Until the Call Ends or Until Its Analysis Is Ready)',
	);
	check(
		byModel === 2 && text.includes('To Number') && text.includes('Full Name'),
		`editor: in the tool form To Number and Full Name are defined by the model (${byModel} fields), the agent and the From Number stay the user's`,
	);
	await page.keyboard.press('Escape');
}

/** Resources and operations as the built node describes them, by their labels in the editor. */
function operationForms(): Array<{ resource: string; operation: string }> {
	const { VoiceAgentCrm } = require(
		path.join(ROOT, 'dist/nodes/VoiceAgentCrm/VoiceAgentCrm.node.js'),
	) as {
		VoiceAgentCrm: new () => { description: INodeTypeDescription };
	};
	const { properties } = new VoiceAgentCrm().description;
	const options = (property: INodeProperties | undefined) =>
		(property?.options ?? []) as INodePropertyOptions[];
	const resources = options(properties.find((p) => p.name === 'resource'));
	return resources.flatMap((resource) =>
		options(
			properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
			),
		).map((operation) => ({
			resource: resource.name,
			operation: operation.name,
		})),
	);
}

function slug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

/** Error toasts and parameter load problems on screen. */
async function errorNotices(page: Page): Promise<string[]> {
	const toasts = await page
		.locator('.el-notification:visible')
		.filter({ has: page.locator('.el-notification--error') })
		.allInnerTexts();
	const loading = await page
		.getByText(
			/There was a problem loading the parameter options|Error fetching options|\[object Object\]/,
		)
		.filter({ visible: true })
		.allInnerTexts();
	return [...toasts, ...loading];
}

/**
 * WhatsApp → Send Template chosen entirely from the lists: the channel (only active WABA ones are
 * offered), the contact, the template with its language; Language Code left empty. Executed, the
 * simulator must record the send in en_US, answered 200.
 */
async function sendTemplateFromTheLists(
	page: Page,
	sim: Simulator,
	screenshot: (name: string) => Promise<string>,
): Promise<void> {
	await choose(page, 'resource', 'WhatsApp (WABA)');
	await choose(page, 'operation', 'Send Template');
	const waba = [...sim.org.channels.values()].find(
		(c) => c.type === 'WABA' && c.status === 'active',
	)!;
	const others = [...sim.org.channels.values()].filter(
		(c) => c.type !== 'WABA' || c.status !== 'active',
	);

	// another channel given by ID: the template list fails, and the editor shows the node's message
	const channelLocator = page.getByTestId('resource-locator-channelId');
	await chooseLocatorMode(page, 'channelId', 'By ID');
	const answered = () =>
		sim.requestsTo('GET', '/v1/waba/templates').filter((r) => r.status !== 0).length;
	const answeredBefore = answered();
	await channelLocator.getByTestId('rlc-input').fill(others[0].id);
	// n8n loads the options as soon as the channel changes; once that load has failed it disables
	// the input, so the click that opens the list is only needed while it is still enabled
	const templateInput = page.getByTestId('parameter-input-templateName').locator('input').first();
	await templateInput.click({ timeout: 3_000 }).catch(() => undefined);
	// the load answered (on a loaded machine it can take longer than the pause below)
	for (let waited = 0; answered() === answeredBefore && waited < 30_000; waited += 250)
		await page.waitForTimeout(250);
	await page.waitForTimeout(2_000);
	// close the dropdown without leaving the form (Escape would close the node's window)
	await page.getByTestId('ndv').getByText('Language Code', { exact: true }).first().click();
	const issues = page.getByTestId('ndv').getByTestId('parameter-issues').first();
	// n8n marks the field with the node's message only when the list was opened before it failed
	const opened = await issues.waitFor({ timeout: 10_000 }).then(
		() => true,
		() => false,
	);
	const problem = page.getByText(/There was a problem loading the parameter options/).first();
	let shown = '';
	// the tooltip opens on hover; a hover while the page is busy may not open it
	for (let attempt = 0; opened && !shown && attempt < 3; attempt++) {
		await issues.hover();
		shown = await problem.waitFor({ timeout: 10_000 }).then(
			async () => (await problem.innerText()).trim(),
			() => '',
		);
		if (!shown) await page.mouse.move(0, 0);
	}
	if (shown) {
		await screenshot('whatsapp-template-list-error');
		check(
			/The API rejected the request as invalid.*The API said: .*WABA/.test(shown) &&
				!shown.includes('[object Object]'),
			`editor: a template list that fails shows the node's message ("${shown}")`,
		);
	} else {
		const value = await templateInput.inputValue();
		await screenshot('whatsapp-template-list-error');
		check(
			/Error fetching options from Voice Agent CRM/.test(value),
			`editor: a template list that failed before it was opened shows it failed ("${value}")`,
		);
	}
	await chooseLocatorMode(page, 'channelId', 'From list');

	const channels = await openLocatorList(page, 'channelId', waba.name, () =>
		screenshot('whatsapp-channel-list'),
	);
	check(
		channels.length > 0 && others.every((c) => !channels.some((text) => text.includes(c.name))),
		`editor: the WhatsApp Channel list offers only active WABA channels (${channels.join(', ')})`,
	);
	const john = [...sim.org.contacts.values()].find((c) => c.full_name === 'John Smith')!;
	await openLocatorList(page, 'contactId', john.full_name!);
	await openSelect(page, 'templateName');
	const templates = await dropdownItems(page).allInnerTexts();
	await screenshot('whatsapp-template-list');
	await dropdownItems(page).filter({ hasText: 'welcome_offer (en_US)' }).first().click();
	check(
		templates.some((t) => t.includes('welcome_offer (en_US)')) &&
			templates.some((t) => t.includes('appointment_reminder (es)')),
		`editor: the template list shows each approved template with its language (${templates.map((t) => t.split('\n')[0]).join(', ')})`,
	);
	const before = sim.requests.length;
	await page.getByTestId('node-execute-button').first().click();
	const sent = await waitFor(
		() =>
			sim.requests
				.slice(before)
				.find((r) => r.method === 'POST' && r.path === '/v1/waba/send-template'),
		60_000,
	);
	await page.getByTestId('ndv').getByText('message_id', { exact: true }).first().waitFor();
	await screenshot('whatsapp-send-template-executed');
	const body = (sent?.body ?? {}) as Record<string, unknown>;
	check(
		sent?.status === 200 &&
			body.template_name === 'welcome_offer' &&
			body.language_code === 'en_US' &&
			body.channel_id === waba.id,
		`editor: Send Template, chosen from the lists and executed, sends welcome_offer in en_US (answered ${sent?.status})`,
		() => JSON.stringify(body),
	);
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined || Date.now() > end) return value;
		await sleep(250);
	}
}

async function chooseLocatorMode(page: Page, parameter: string, mode: string): Promise<void> {
	await page.getByTestId(`resource-locator-${parameter}`).getByTestId('rlc-mode-selector').click();
	await dropdownItems(page).filter({ hasText: mode }).first().click();
}

/** A new credential with these values, saved (which tests it): the failure's details must say `says`. */
async function credentialTestFailure(
	page: Page,
	apiKey: string,
	baseUrl: string,
	says: string,
): Promise<string> {
	await page.getByTestId('node-credentials-select').click();
	await page.getByTestId('node-credentials-select-item-new').click();
	const fields = page.getByTestId('credential-connection-parameter');
	await fields.nth(0).locator('input').fill(apiKey);
	await fields.nth(1).locator('input').fill(baseUrl);
	await page.getByTestId('credential-save-button').click();
	const failure = page
		.getByText('Couldn’t connect with these settings')
		.or(page.getByText("Couldn't connect with these settings"))
		.first();
	await failure.waitFor();
	await page.getByText('More details', { exact: true }).first().click();
	const reason = page.getByText(says, { exact: false }).first();
	await reason.waitFor();
	return (await reason.innerText()).trim();
}

/** Open a resource locator's list, read its entries, and choose the one with `pick` in it (which closes the list). */
async function openLocatorList(
	page: Page,
	parameter: string,
	pick: string,
	whileOpen?: () => Promise<unknown>,
): Promise<string[]> {
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
	const close = modal
		.locator('.el-dialog__headerbtn, [aria-label="Close"], [aria-label="Close this dialog"]')
		.first();
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
	await dropdownItems(page)
		.filter({ has: page.getByText(label, { exact: true }) })
		.first()
		.click();
	// closed before the next select opens: choosing the value already set (a default) changes nothing
	// on the form, and the fading list would be read as the next one
	await dropdownItems(page).first().waitFor({ state: 'hidden' });
}
