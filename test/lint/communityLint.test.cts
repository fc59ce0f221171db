import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The three lints `npm run lint` runs: n8n's stock config (`n8n-node lint`), the verification
 * scanner's lint of the package sources, and the dev code's lint. Each config lints a tree of
 * probe files once (ESLint takes the working folder as the base of a config's file patterns).
 */

const root = path.resolve(__dirname, '../..');

const TIMER = 'export const wait = () => new Promise((r) => setTimeout(r, 10));\n';
const SLEEP =
	"import { sleep } from 'n8n-workflow';\nexport const wait = async () => await sleep(10);\n";
const DEV_CODE =
	"import { readFileSync } from 'node:fs';\n" +
	'export const read = (file: string) =>\n' +
	'\tnew Promise((r) => setTimeout(() => r(readFileSync(file, process.env.ENCODING as BufferEncoding)), 1));\n';

const PROBES: Record<string, string> = {
	'nodes/VoiceAgentCrm/Timer.ts': TIMER,
	'nodes/VoiceAgentCrm/DisabledTimer.ts': `// eslint-disable-next-line\n${TIMER}`,
	'nodes/VoiceAgentCrm/Env.ts': 'export const key = process.env.API_KEY;\n',
	'nodes/VoiceAgentCrm/Sleep.ts': SLEEP,
	'test/Probe.cts': DEV_CODE,
	'scripts/n8n/Probe.cts': DEV_CODE,
	'harness/Unused.cts': 'const unused = 1;\n',
};

type Findings = Record<string, string[]>;

/**
 * ESLint run once over several configs (`-c` of each, as the lint scripts give it): one process, so
 * that ESLint and TypeScript load once, not once a config.
 */
const LINT_EACH_CONFIG = `
import { ESLint } from 'eslint';
const results = [];
for (const { config, files } of JSON.parse(process.argv[1]))
	results.push(await new ESLint({ overrideConfigFile: config }).lintFiles(files));
process.stdout.write(JSON.stringify(results));
`;

/** The rules (or, for a file no config block matches, the message) each probe gets from each config. */
function lint(probes: string, runs: Array<{ config: string; files: string[] }>): Findings[] {
	const output = execFileSync(
		process.execPath,
		[
			'--input-type=module',
			'-e',
			LINT_EACH_CONFIG,
			JSON.stringify(runs.map(({ config, files }) => ({ config: path.join(root, config), files }))),
		],
		{ cwd: probes, encoding: 'utf8' },
	);
	const results = JSON.parse(output) as Array<
		Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string }> }>
	>;
	return results.map((run) =>
		Object.fromEntries(
			run.map((result) => [
				path.relative(probes, result.filePath),
				result.messages.map((message) => message.ruleId ?? message.message),
			]),
		),
	);
}

let stock: Findings;
let scanner: Findings;
let dev: Findings;
let probes: string;

beforeAll(() => {
	mkdirSync(path.join(root, 'test', '.tmp'), { recursive: true });
	// inside the checkout, so that the probes resolve n8n-workflow from its node_modules
	probes = mkdtempSync(path.join(root, 'test', '.tmp', 'lint-'));
	for (const [file, source] of Object.entries(PROBES)) {
		mkdirSync(path.dirname(path.join(probes, file)), { recursive: true });
		writeFileSync(path.join(probes, file), source);
	}
	const nodeFiles = Object.keys(PROBES).filter((file) => file.startsWith('nodes/'));
	const devFiles = Object.keys(PROBES).filter((file) => !file.startsWith('nodes/'));
	[stock, scanner, dev] = lint(probes, [
		{ config: 'eslint.config.mjs', files: [...nodeFiles, 'test/Probe.cts'] },
		{ config: 'eslint.scanner.config.mjs', files: nodeFiles },
		{ config: 'eslint.dev.config.mjs', files: devFiles },
	]);
}, 120_000);

afterAll(() => rmSync(probes, { recursive: true, force: true }));

describe("n8n's stock config (n8n-node lint) guards the node sources", () => {
	it('rejects setTimeout in a node file', () => {
		expect(stock['nodes/VoiceAgentCrm/Timer.ts']).toEqual([
			'@n8n/community-nodes/no-restricted-globals',
		]);
	});

	it('accepts sleep from n8n-workflow in the same place', () => {
		expect(stock['nodes/VoiceAgentCrm/Sleep.ts']).toEqual([]);
	});

	it('leaves the dev code (.cts) to the dev lint', () => {
		expect(stock['test/Probe.cts']).toEqual([
			'File ignored because no matching configuration was supplied.',
		]);
	});
});

describe("the scanner's lint of the package sources", () => {
	it('rejects setTimeout in a node file even under an inline disable comment', () => {
		expect(scanner['nodes/VoiceAgentCrm/DisabledTimer.ts']).toContain(
			'@n8n/community-nodes/no-restricted-globals',
		);
	});

	it('rejects process.env in a node file', () => {
		expect(scanner['nodes/VoiceAgentCrm/Env.ts']).toContain(
			'@n8n/community-nodes/no-restricted-globals',
		);
	});

	it('accepts sleep from n8n-workflow in the same place', () => {
		expect(scanner['nodes/VoiceAgentCrm/Sleep.ts']).toEqual([]);
	});
});

describe("the dev code's lint", () => {
	it.each(['test/Probe.cts', 'scripts/n8n/Probe.cts'])(
		'accepts Node built-ins, process and timers in %s',
		(file) => {
			expect(dev[file]).toEqual([]);
		},
	);

	it('still lints it: an unused variable fails', () => {
		expect(dev['harness/Unused.cts']).toEqual(['@typescript-eslint/no-unused-vars']);
	});
});
