/**
 * The lint of the code that is not the package: test/, simulator/, harness/, scripts/, bench/.
 * It runs in the developer's Node, where Node's modules, process, timers and the console are the
 * point, so it gets n8n's node-cli lint (JavaScript and TypeScript recommended, imports) without
 * the rules written for node code that n8n runs: the cloud rules (Node built-ins, globals) and
 * the community-node rules (child processes, raw errors, secrets in code).
 */
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

const DEV_FOLDERS = ['test', 'simulator', 'harness', 'scripts', 'bench'];
const DEV_FILES = DEV_FOLDERS.map((folder) => `${folder}/**/*.cts`);

const withoutNodeRules = (rules = {}) =>
	Object.fromEntries(
		Object.entries(rules).filter(([rule]) => !rule.startsWith('@n8n/community-nodes/')),
	);

/** The node-cli's TypeScript blocks, aimed at the dev code; its package.json and node blocks are left out. */
const nodeCliTypeScript = configWithoutCloudSupport
	.filter((block) => !block.files || block.files.includes('**/*.ts'))
	.map((block) =>
		block.files ? { ...block, files: DEV_FILES, rules: withoutNodeRules(block.rules) } : block,
	);

export default [
	{ ignores: ['**/.tmp/**'] },
	...nodeCliTypeScript,
	{
		files: DEV_FILES,
		rules: {
			'no-console': 'off',
			// the project's convention for a parameter or a destructured key that is kept unused
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrorsIgnorePattern: '^_',
					ignoreRestSiblings: true,
				},
			],
		},
	},
	{
		// the conformance tests read the simulator's answers as untyped JSON, which their
		// assertions then check field by field
		files: ['simulator/client.*', 'simulator/conformance/**'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	{
		// modules of the real n8n installation, found at run time
		files: ['scripts/**/*.cts'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
];
