import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { renderMatrix } from './matrix';

/** The README's fault table is the one the matrix test runs: rendered from the same policy. */
describe('README, "Faults and what the nodes do"', () => {
	it('shows the fault matrix as the test derives it from the request policy', () => {
		const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
		const table = /<!-- fault-matrix:start -->\n([\s\S]*?)\n<!-- fault-matrix:end -->/.exec(
			readme,
		)?.[1];
		// on a change of the policy, paste the expected table between the markers
		expect(table).toBe(renderMatrix());
	});
});
