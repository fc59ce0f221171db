/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/simulator'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': 'ts-jest' },
	testTimeout: 60_000,
	setupFilesAfterEnv: ['<rootDir>/test/setup/secretScan.ts'],
	reporters: ['default', '<rootDir>/test/setup/summaryReporter.js'],
	// the engine and the simulator share one process per file; two cores in CI
	maxWorkers: 2,
};
