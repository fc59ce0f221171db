const path = require('node:path');

const files = require('../../jest.config.js');

/**
 * `npm test`: the test files in a few parts, each part one jest test file whose files share one
 * module registry (test/parts/parts.cts), so that n8n-core loads once a part, not once a file.
 * `JEST_EACH_FILE=1 npm test` runs the same files one by one, as `npx jest` does.
 *
 * @type {import('jest').Config}
 */
module.exports = {
	...files,
	rootDir: path.join(__dirname, '..', '..'),
	testMatch:
		process.env.JEST_EACH_FILE === '1' ? files.testMatch : ['<rootDir>/test/parts/*.part.cts'],
};
