import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ENDPOINTS, type Endpoint } from '../../nodes/VoiceAgentCrm/transport/endpoints';
import {
	MAY_HAVE_TAKEN_EFFECT,
	OUTCOME_UNKNOWN,
	PLAIN_HTTP,
	STATUS_ADVICE,
	STOPPED_BEFORE_SENDING,
} from '../../nodes/VoiceAgentCrm/transport/errors';

/** The first cells of the README's troubleshooting table: how each message starts. */
function messageStarts(): string[] {
	const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
	const section = readme.slice(
		readme.indexOf('## Troubleshooting'),
		readme.indexOf('\n## ', readme.indexOf('## Troubleshooting') + 1),
	);
	return section
		.split('\n')
		.filter((line) => line.startsWith('| ') && !line.startsWith('| Message'))
		.map((line) => line.split(' | ')[0].slice(2).trim());
}

/** The words a message starts with, up to its first stop (a colon, a semicolon, a period, a placeholder). */
const opening = (message: string) => message.split(/[:;.{(]/)[0].trim();

/**
 * Every headline the failure contract can produce has its row in the README's troubleshooting
 * table, so the table cannot drift from what the node says.
 */
describe('README, "Troubleshooting", against the failure contract', () => {
	const starts = messageStarts();
	const headlines = new Set<string>([
		...Object.values(STATUS_ADVICE),
		PLAIN_HTTP,
		STOPPED_BEFORE_SENDING,
		MAY_HAVE_TAKEN_EFFECT,
		OUTCOME_UNKNOWN,
		...Object.values<Endpoint>(ENDPOINTS).flatMap(({ failure }) =>
			[failure.mayHaveHappened, ...Object.values(failure.byStatus ?? {})].filter(
				(text): text is string => !!text,
			),
		),
	]);
	it.each([...headlines].map(opening))('has a row for "%s…"', (start) => {
		expect(starts.some((cell) => cell.startsWith(start))).toBe(true);
	});

	it('has one row per message', () => {
		expect(new Set(starts).size).toBe(starts.length);
	});

	it('names the option of event IDs as the node shows it', () => {
		expect(ENDPOINTS.sendEvents.failure.check).toContain('Derive Missing Event IDs');
	});
});
