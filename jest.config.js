/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/simulator'],
	// the dev code is TypeScript with the `.cts` extension (docs/decisions.md, "n8n's toolchain");
	// the test files run in a few parts, each part's files in one module registry
	// (test/parts/parts.cts), unless JEST_EACH_FILE=1 asks for jest's file by file
	testMatch:
		process.env.JEST_EACH_FILE === '1' ? ['**/*.test.cts'] : ['<rootDir>/test/parts/*.part.cts'],
	// jest's default list, with .cts
	moduleFileExtensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'cts', 'tsx', 'json', 'node'],
	// types stripped file by file (sucrase, test/setup/transform.js): `npm run typecheck` checks the
	// types of everything once, so each part does not type-check the package and harness again
	transform: {
		'^.+\\.c?ts$': '<rootDir>/test/setup/transform.js',
	},
	testTimeout: 60_000,
	setupFilesAfterEnv: ['<rootDir>/test/setup/secretScan.cts'],
	reporters: ['default', '<rootDir>/test/setup/summaryReporter.js'],
	// the engine and the simulator share one process per part; two cores in CI
	maxWorkers: 2,
	// In jest's sandbox (a vm context) every read of a global goes through a slow lookup: the key
	// scan's `Math.imul` loop ran 13 times slower than in node, so that the 100,000-call state bound
	// test spent 57 of its 82 s there. Handed to each module as a parameter, these read as fast as
	// in n8n. Only names no module declares itself at its top level (a `const Buffer = …` would
	// clash), and none that fake time replaces (`Date`, the timers).
	sandboxInjectedGlobals: ['Math', 'JSON', 'Object', 'Array', 'String', 'Number'],
};
