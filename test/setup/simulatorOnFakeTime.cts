import { installFakeTime, type FakeTime } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/**
 * Registers, for the enclosing describe, a fake clock and a simulator started after it (so that
 * its clock follows the fake one) before each test, both stopped after it; `use` receives them.
 * `once`: one clock and one simulator for all the describe's tests.
 */
export function withSimulatorOnFakeTime(
	use: (time: FakeTime, sim: Simulator) => void,
	{ once = false } = {},
): void {
	let time: FakeTime;
	let sim: Simulator;
	(once ? beforeAll : beforeEach)(async () => {
		time = installFakeTime();
		sim = await startSimulator();
		use(time, sim);
	});
	(once ? afterAll : afterEach)(async () => {
		await sim.stop();
		time.uninstall();
	});
}
