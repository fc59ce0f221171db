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

/** The rules (or, for a file no config block matches, the message) each probe gets from `config`. */
function lint(probes: string, config: string, files: string[]): Findings {
	let output: string;
	try {
		output = execFileSync(
			path.join(root, 'node_modules/.bin/eslint'),
			['-c', path.join(root, config), '--format', 'json', ...files],
			{ cwd: probes, encoding: 'utf8' },
		);
	} catch (error) {
		output = String((error as { stdout?: string }).stdout);
	}
	const results = JSON.parse(output) as Array<{
		filePath: string;
		messages: Array<{ ruleId: string | null; message: string }>;
	}>;
	return Object.fromEntries(
		results.map((result) => [
			path.relative(probes, result.filePath),
			result.messages.map((message) => message.ruleId ?? message.message),
		]),
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
	stock = lint(probes, 'eslint.config.mjs', [...nodeFiles, 'test/Probe.cts']);
	scanner = lint(probes, 'eslint.scanner.config.mjs', nodeFiles);
	dev = lint(probes, 'eslint.dev.config.mjs', devFiles);
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
