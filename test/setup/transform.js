const { transform } = require('sucrase');

/**
 * TypeScript to CommonJS for jest, file by file without types (`npm run typecheck` checks them
 * once). Sucrase keeps every line where it was, so stack traces point at the source.
 */
module.exports = {
	process(source, filePath) {
		return {
			code: transform(source, {
				transforms: ['typescript', 'imports'],
				filePath,
				production: true,
			}).code,
		};
	},
};
