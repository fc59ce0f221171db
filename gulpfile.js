const { src, dest } = require('gulp');

/** Copy node and credential icons (and codex files) next to the compiled JS in dist/. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
