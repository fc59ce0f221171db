import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { visibleText } from '../../harness/secrets.cts';
import { keyRemover } from '../../nodes/VoiceAgentCrm/transport/keyRemoval';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { linesOfThisTest } from '../setup/secretScan.cts';

/**
 * Forms of the API key a service (or a proxy in front of it) may quote back: a part of 8
 * characters or more, another case, base64 at any alignment, base64url, URL-encoded, hex, HTML
 * entities (decimal, hex, named), `\uXXXX` escapes, broken up by markup or by invisible
 * characters; and the `user:password@` of the Base URL. None of them may reach an output item, an
 * error (any of its properties, enumerable or not) or a log line.
 */
const API_KEY = 'vak_Kx7+Qm2/Zp9=Lw4&Rt6_Yh3Nv8Ju5';
const PASSWORD = 'pa55-Word-of-the-proxy';

/** `text` with each character written as an HTML entity of its code. */
const entities = (text: string, entity: (code: number) => string) =>
	[...text].map((c) => entity(c.codePointAt(0)!)).join('');
/** `text` with the characters `escaped` picks written as `\uXXXX`. */
const escapes = (text: string, escaped: (c: string) => boolean) =>
	[...text]
		.map((c) => (escaped(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
		.join('');
const NAMED: Record<string, string> = {
	'+': 'plus',
	'/': 'sol',
	'=': 'equals',
	'&': 'amp',
	_: 'lowbar',
};

const base64At = (prefix: string) => Buffer.from(`${prefix}${API_KEY}`).toString('base64');

/** Each form as quoted, and the characters that must not be shown of it. */
const FORMS: Array<{ form: string; quoted: string; hidden: string[] }> = [
	{ form: 'the first 8 characters', quoted: API_KEY.slice(0, 8), hidden: [API_KEY.slice(0, 8)] },
	{ form: 'the last 12 characters', quoted: API_KEY.slice(-12), hidden: [API_KEY.slice(-12)] },
	{
		form: '8 characters from the middle',
		quoted: API_KEY.slice(11, 19),
		hidden: [API_KEY.slice(11, 19)],
	},
	{
		form: 'the key in upper case',
		quoted: API_KEY.toUpperCase(),
		hidden: [API_KEY.toUpperCase().slice(4, 12)],
	},
	{
		form: 'the key in lower case',
		quoted: API_KEY.toLowerCase(),
		hidden: [API_KEY.toLowerCase().slice(9, 17)],
	},
	...['', 'x', 'x-'].map((prefix) => ({
		form: `the key in base64 after ${prefix.length} byte(s)`,
		quoted: base64At(`x-api-key: ${prefix}`),
		hidden: [base64At(`x-api-key: ${prefix}`).slice(-24, -8)],
	})),
	{
		form: 'the key in base64url',
		quoted: Buffer.from(API_KEY).toString('base64url'),
		hidden: [Buffer.from(API_KEY).toString('base64url').slice(4, 20)],
	},
	{
		form: 'the key URL-encoded',
		quoted: `?api_key=${encodeURIComponent(API_KEY)}`,
		hidden: [encodeURIComponent(API_KEY).slice(6, 20)],
	},
	{
		form: 'the key broken up by markup',
		quoted: `<code>${API_KEY.slice(0, 5)}<b>${API_KEY.slice(5, 11)}</b>${API_KEY.slice(11)}</code>`,
		hidden: [API_KEY.slice(0, 5), API_KEY.slice(5, 11), API_KEY.slice(11, 19)],
	},
	{
		form: 'the key in hex',
		quoted: `digest ${Buffer.from(API_KEY).toString('hex')}`,
		hidden: [Buffer.from(API_KEY).toString('hex').slice(6, 30)],
	},
	{
		form: 'the key in upper-case hex, at an odd digit',
		quoted: `0${Buffer.from(API_KEY).toString('hex').toUpperCase()}`,
		hidden: [Buffer.from(API_KEY).toString('hex').toUpperCase().slice(10, 34)],
	},
	{
		form: 'the key as decimal HTML entities',
		quoted: entities(API_KEY, (code) => `&#${code};`),
		hidden: [entities(API_KEY.slice(2, 12), (code) => `&#${code};`)],
	},
	{
		form: 'the key as hex HTML entities',
		quoted: entities(API_KEY, (code) => `&#x${code.toString(16).toUpperCase()};`),
		hidden: [entities(API_KEY.slice(4, 14), (code) => `&#x${code.toString(16).toUpperCase()};`)],
	},
	{
		form: 'the key with its punctuation as named HTML entities',
		quoted: API_KEY.replace(/[+/=&_]/g, (c) => `&${NAMED[c]};`),
		hidden: [
			API_KEY.slice(0, 6),
			API_KEY.slice(17, 23).replace(/[+/=&_]/g, (c) => `&${NAMED[c]};`),
		],
	},
	{
		form: 'the key with a zero-width space between its characters',
		quoted: [...API_KEY].join('\u200b'),
		hidden: [[...API_KEY.slice(3, 12)].join('\u200b')],
	},
	{
		form: 'the key with zero-width joiners and soft hyphens in it',
		quoted: `${API_KEY.slice(0, 6)}\u200d${API_KEY.slice(6, 15)}\u00ad${API_KEY.slice(15)}`,
		hidden: [API_KEY.slice(0, 6), API_KEY.slice(6, 15), API_KEY.slice(15)],
	},
	{
		form: 'the key as \\uXXXX escapes, a JSON string quoted as written',
		quoted: escapes(API_KEY, () => true),
		hidden: [escapes(API_KEY.slice(3, 13), () => true)],
	},
	{
		form: "the key with its punctuation as \\uXXXX escapes (Go's JSON writes & as \\u0026)",
		quoted: escapes(API_KEY, (c) => /[+&=/]/.test(c)),
		hidden: [API_KEY.slice(0, 6), escapes(API_KEY.slice(17, 25), (c) => /[+&=/]/.test(c))],
	},
	{ form: "the Base URL's user info", quoted: `proxy-user:${PASSWORD}@`, hidden: [PASSWORD] },
	{ form: "the Base URL's password alone", quoted: `password ${PASSWORD}`, hidden: [PASSWORD] },
];

const tagsGetMany: INodeParameters = { resource: 'tag', operation: 'getAll', returnAll: true };

/** What a run shows: its items, its error with every own property, its saved result data. */
function shown(run: Awaited<ReturnType<typeof runNode>>): string {
	return visibleText({ items: run.items, error: run.error, resultData: run.run.data.resultData });
}

describe('every form of the API key and the Base URL user info is removed', () => {
	let sim: Simulator;
	let baseUrl = '';
	beforeAll(async () => {
		sim = await startSimulator({ apiKey: API_KEY });
		baseUrl = sim.baseUrl.replace('http://', `http://proxy-user:${PASSWORD}@`);
	});
	afterAll(() => sim.stop());
	afterEach(() => sim.faults.clear());

	const run = (continueOnFail = false) =>
		runNode({ credentials: { apiKey: API_KEY, baseUrl }, parameters: tagsGetMany, continueOnFail });

	it('the Base URL with user info still reaches the API', async () => {
		const { error, items } = await run();
		expect(error).toBeUndefined();
		expect(items.length).toBe(sim.org.tags.size);
	});

	describe.each(FORMS)('$form', ({ quoted, hidden }) => {
		const expectHidden = (text: string) => {
			for (const part of hidden) expect(text).not.toContain(part);
		};

		it("in the API message of an error, under Continue On Fail too, and in n8n's log of the failed run", async () => {
			for (const continueOnFail of [false, true]) {
				sim.faults.inject({
					method: 'GET',
					path: '/v1/tags',
					fault: {
						status: 400,
						body: { statusCode: 400, message: `Rejected: ${quoted} is not valid` },
					},
				});
				const result = await run(continueOnFail);
				const text = shown(result);
				expect(text).toContain('Rejected:');
				expect(text).toMatch(/\[API key removed\]|\[Base URL user info removed\]/);
				expectHidden(text);
			}
			const logged = linesOfThisTest().join('\n');
			expect(logged).toContain('Rejected:');
			expectHidden(logged);
		});

		it("in a proxy's web page, and in n8n's log of the failed run", async () => {
			sim.faults.inject({
				method: 'GET',
				path: '/v1/tags',
				fault: {
					status: 403,
					contentType: 'text/html',
					rawBody: `<html><body><h1>Forbidden</h1><p>Key ${quoted} refused</p></body></html>`,
				},
			});
			const result = await run();
			const text = shown(result);
			expect(text).toContain('Forbidden');
			expectHidden(text);
			const logged = linesOfThisTest().join('\n');
			expect(logged).toContain('Workflow execution finished with error');
			expectHidden(logged);
		});

		it('in an output item', async () => {
			sim.faults.inject({
				method: 'GET',
				path: '/v1/tags',
				fault: {
					status: 200,
					body: {
						statusCode: 200,
						data: [{ id: 'tag-1', name: `Echo ${quoted} here`, color: '#000' }],
					},
				},
			});
			const result = await run();
			expect(result.error).toBeUndefined();
			expect(String(result.items[0].json.name)).toMatch(/^Echo .*removed\].* here$/);
			expectHidden(shown(result));
		});
	});

	it('parts shorter than 8 characters are left as they are (they would match by accident)', () => {
		const keys = keyRemover(API_KEY);
		expect(keys.text(`x ${API_KEY.slice(0, 7)} y`)).toBe(`x ${API_KEY.slice(0, 7)} y`);
		expect(keys.text(`x ${API_KEY.slice(0, 8)} y`)).toBe('x [API key removed] y');
	});
});
