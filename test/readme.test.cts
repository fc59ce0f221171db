import { readFileSync } from 'node:fs';
import path from 'node:path';

import { RESOURCES } from '../nodes/VoiceAgentCrm/actions/resources';
import { ENDPOINTS, type Budget } from '../nodes/VoiceAgentCrm/transport/endpoints';

/**
 * The README's operation table is written by hand; this keeps it equal to the node: every
 * resource and operation, the request each sends (the endpoint the operation declares), and
 * whether the API reference documents it.
 */

/** The budget column's words for the endpoint table's budgets. */
const BUDGET_NAMES: Record<Budget, string> = {
	org: 'organization',
	listing: 'listing',
	events: 'events',
};

const README = readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');

/** Rows of the table under "## Operations": [resource, operation, request, reference]. */
function operationTable(): string[][] {
	const section = README.split(/^## /m).find((part) => part.startsWith('Operations\n'));
	if (!section) throw new Error('README.md has no "## Operations" section');
	return section
		.split('\n')
		.filter((line) => line.startsWith('|') && !line.startsWith('|---'))
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		)
		.filter((cells) => cells[0] !== 'Resource');
}

function expectedRows(): string[][] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.map((operation) => {
			const endpoint = ENDPOINTS[operation.endpoint];
			return [
				resource.option.name,
				operation.option.name,
				`\`${endpoint.method} ${endpoint.path}\``,
				endpoint.inferred ? 'inferred' : 'documented',
				BUDGET_NAMES[endpoint.budget],
			];
		}),
	);
}

describe('README', () => {
	it('lists exactly the operations of the node, each with its request, whether it is documented or inferred, and its budget', () => {
		expect(operationTable()).toEqual(expectedRows());
	});

	it('keeps the inferred mark out of the editor: it is derived from the declared endpoint into the table above', () => {
		const saying = RESOURCES.flatMap((resource) =>
			resource.operations
				.filter((operation) => /inferred/i.test(operation.option.description ?? ''))
				.map((operation) => `${resource.option.name} → ${operation.option.name}`),
		);
		expect(saying).toEqual([]);
	});

	it('starts with the install, demo and test commands', () => {
		const firstBlock = /```bash\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
		expect(
			firstBlock
				.split('\n')
				.map((line) => line.split('#')[0].trim())
				.filter(Boolean),
		).toEqual(['npm install', 'npm run demo', 'npm test']);
	});
});
