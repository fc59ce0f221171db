/**
 * The lint n8n's verification scanner applies to a community package: the community-nodes
 * plugin's recommended config (cloud rules included) plus eslint-plugin-n8n-nodes-base's
 * community, credentials and nodes rule sets, over package.json, nodes/, credentials/ and the
 * published JS. Inline disable comments are ignored, as the scanner ignores them. `npm run lint`
 * runs it on the sources, `test/release/` on the packed tarball.
 */
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const base = { 'n8n-nodes-base': n8nNodesBase };

/**
 * Rules of n8n-nodes-base that contradict the community plugin (it requires NodeConnectionTypes
 * where these require the 'main' literal) or n8n's own documentation URLs; n8n's node CLI turns
 * the same ones off.
 */
const contradicted = {
	'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
	'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
	'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
};

export default [
	{ ignores: ['node_modules/**', 'eslint.*config.mjs'] },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['**/*.ts', '**/*.js', 'package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	communityNodes.configs.recommended,
	{ files: ['package.json'], plugins: base, rules: n8nNodesBase.configs.community.rules },
	// the source rule sets read TypeScript sources; the built JS gets the community rules above
	{
		files: ['credentials/**/*.ts'],
		plugins: base,
		rules: { ...n8nNodesBase.configs.credentials.rules, ...contradicted },
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: base,
		rules: { ...n8nNodesBase.configs.nodes.rules, ...contradicted },
	},
];
