/**
 * The lint n8n's verification scanner applies to a community package: the community-nodes
 * plugin's recommended config (cloud rules included) plus eslint-plugin-n8n-nodes-base's
 * community, credentials and nodes rule sets, over package.json, nodes/, credentials/ and the
 * built JS. Inline disable comments are ignored, as the scanner ignores them.
 */
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const base = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{ ignores: ['node_modules/**', 'eslint.config.mjs'] },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['**/*.ts', '**/*.js', 'package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	communityNodes.configs.recommended,
	{ files: ['package.json'], plugins: base, rules: n8nNodesBase.configs.community.rules },
	{
		files: ['credentials/**/*.ts', 'dist/credentials/**/*.js'],
		plugins: base,
		rules: n8nNodesBase.configs.credentials.rules,
	},
	{
		files: ['nodes/**/*.ts', 'dist/nodes/**/*.js'],
		plugins: base,
		rules: n8nNodesBase.configs.nodes.rules,
	},
];
