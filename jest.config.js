/**
 * Jest as a jest user runs it: `npx jest <file>`, `--watch`, `--findRelatedTests <source>` run test
 * files one by one, each in its own module registry. `npm test` runs the whole suite in parts
 * instead (`test/parts/jest.config.js`), where one registry serves a part's files.
 *
 * @type {import('jest').Config}
 */
module.exports = {
	// jest's Node environment, failing a test file that leaves fake timers or n8n's binary data
	// mode behind (test/setup/environment.js)
	testEnvironment: '<rootDir>/test/setup/environment.js',
	// the sources too, so that --findRelatedTests and --watch follow a change in nodes/ or harness/
	// to the tests that import it
	roots: ['<rootDir>/test', '<rootDir>/simulator', '<rootDir>/nodes', '<rootDir>/harness'],
	// the dev code is TypeScript with the `.cts` extension (docs/decisions.md, "n8n's toolchain")
	testMatch: ['**/*.test.cts'],
	// what the real-n8n suites and the recipe leave in test/.tmp is not the suite's
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/.tmp/'],
	watchPathIgnorePatterns: ['<rootDir>/test/.tmp/'],
	// jest's default list, with .cts
	moduleFileExtensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'cts', 'tsx', 'json', 'node'],
	// types stripped file by file (sucrase, test/setup/transform.js): `npm run typecheck` checks the
	// types of everything once, so each test file does not type-check the package and harness again
	transform: {
		'^.+\\.c?ts$': '<rootDir>/test/setup/transform.js',
	},
	testTimeout: 60_000,
	setupFilesAfterEnv: ['<rootDir>/test/setup/secretScan.cts'],
	reporters: ['default', '<rootDir>/test/setup/summaryReporter.js'],
	// the engine and the simulator share one process; two cores in CI
	maxWorkers: 2,
	// In jest's sandbox (a vm context) every read of a global goes through a slow lookup: the key
	// scan's `Math.imul` loop ran 13 times slower than in node, so that the 100,000-call state bound
	// test spent 57 of its 82 s there. Handed to each module as a parameter, these read as fast as
	// in n8n. Only names no module declares itself at its top level (a `const Buffer = …` would
	// clash), and none that fake time replaces (`Date`, the timers).
	sandboxInjectedGlobals: ['Math', 'JSON', 'Object', 'Array', 'String', 'Number'],
};
