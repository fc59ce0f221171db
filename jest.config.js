/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': 'ts-jest' },
	testTimeout: 60_000,
	setupFilesAfterEnv: ['<rootDir>/test/harness/setupSecrets.ts'],
	reporters: ['default', '<rootDir>/test/harness/summaryReporter.js'],
	// the engine and the simulator share one process per file; two cores in CI
	maxWorkers: 2,
};
