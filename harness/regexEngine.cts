import { setSafeRegexEngine } from 'n8n-workflow';

/**
 * The regular expression engine of the runs the harness starts. n8n-workflow runs each pattern
 * (the resource locators' rules, checked before every run) in a `vm` script with a 250 ms wall-clock
 * timeout, so on a loaded machine a test failed with "Regular expression execution timed out"
 * whenever the process waited for a core that long. The harness sets, through n8n's own hook
 * (`setSafeRegexEngine`, which n8n's backend uses for the same purpose), the same operations run
 * directly: each answer is the same, and the tests no longer depend on the machine's speed. The
 * patterns are the package's own; one that backtracked without end would hang its test until jest's
 * timeout, so it still fails.
 */
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) =>
		Array.from(
			input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
		),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
