const { TestEnvironment } = require('jest-environment-node');

/** Where `harness/openChanges.cts` keeps the changes to shared state a test has not undone yet. */
const OPEN = Symbol.for('n8n-nodes-voice-agent-crm.openChanges');
/** A part's describe for one of its test files (test/parts/parts.cts) is named after the file. */
const TEST_FILE = /\.test\.cts$/;

/**
 * Jest's Node environment, with a guard: a test file that ends with fake timers installed or a
 * change to shared n8n state open (`harness/openChanges.cts`: n8n's binary data mode) fails, and
 * the state is put back. `npm test`'s parts check each file at the end of its describe, so that the
 * next file of the part starts clean; a plain `npx jest` run checks the file at its end, after
 * every hook of the file. (The registered API keys are the parts runner's to forget: every run
 * registers its key, so each file's keys are forgotten at its end, test/parts/parts.cts.)
 */
class GuardedEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.realTimers = { setTimeout: this.global.setTimeout, Date: this.global.Date };
		this.checkedFiles = 0;
	}

	async handleTestEvent(event, state) {
		if (
			event.name === 'run_describe_finish' &&
			event.describeBlock.parent === state.rootDescribeBlock &&
			TEST_FILE.test(event.describeBlock.name)
		) {
			this.checkedFiles++;
			this.guard(event.describeBlock.name, state);
		} else if (event.name === 'run_finish' && this.checkedFiles === 0) {
			this.guard('This test file', state);
		}
	}

	/** Fails the file (as an error of its run) with what it left behind, and puts it back. */
	guard(file, state) {
		const left = this.leftBehind();
		if (left.length)
			state.unhandledErrors.push(
				new Error(`${file} left behind: ${left.join('; ')}. Undo it in an afterEach or afterAll.`),
			);
	}

	leftBehind() {
		const left = [];
		const global = this.global;
		if (global.setTimeout !== this.realTimers.setTimeout || global.Date !== this.realTimers.Date) {
			left.push('fake timers installed');
			// @sinonjs/fake-timers (harness/fakeTime.cts) marks each faked function with its clock
			global.setTimeout.clock?.uninstall();
			this.fakeTimersModern?.useRealTimers();
			global.setTimeout = this.realTimers.setTimeout;
			global.Date = this.realTimers.Date;
		}
		const open = global[OPEN];
		for (const [what, undo] of open ?? []) {
			left.push(what);
			undo();
		}
		open?.clear();
		return left;
	}
}

module.exports = GuardedEnvironment;
