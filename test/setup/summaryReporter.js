/**
 * Prints the run's totals as one plain closing line ("N passed, N failed, N skipped"), which CI
 * reads whatever the test runner.
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		process.stdout.write(
			`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`,
		);
	}
}

module.exports = SummaryReporter;
