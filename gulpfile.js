const { src, dest } = require('gulp');

/**
 * Copy the nodes' codex files (`<Node>.node.json`: categories, documentation links) next to the
 * compiled JS. `n8n-node build` compiles and copies the icons, but no codex file.
 */
function buildCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:codex'] = buildCodex;
