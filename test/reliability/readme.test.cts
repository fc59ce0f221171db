import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { renderMatrix } from './matrix.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const README = read('README.md');

/** The nodes the package ships, as n8n loads them (package.json's `n8n.nodes`), from their sources. */
function shippedNodes(): INodeType[] {
	const { name, n8n } = JSON.parse(read('package.json')) as {
		name: string;
		n8n: { nodes: string[] };
	};
	expect(name).toBe('n8n-nodes-voice-agent-crm');
	return n8n.nodes.map((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '');
		// the built node list names files, which only require() loads by a computed path
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(join(ROOT, source)) as Record<string, new () => INodeType>;
		return new (Object.values(module)[0])();
	});
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];

/** The README is for users: short, and what it counts is what the package has. */
describe('README', () => {
	it('is at most 300 lines', () => {
		expect(README.split('\n').length).toBeLessThanOrEqual(300);
	});

	it('names every node of the package with its node type, and counts them right', () => {
		const nodes = shippedNodes();
		const section = README.slice(README.indexOf('| Node | Node type'));
		const table = section
			.slice(0, section.indexOf('\n\n'))
			.split('\n')
			.slice(2)
			.map((line) =>
				line
					.split('|')
					.slice(1, -1)
					.map((cell) => cell.trim()),
			);
		expect(table).toEqual(
			nodes.map(({ description }) => [
				description.displayName,
				`\`n8n-nodes-voice-agent-crm.${description.name}\``,
			]),
		);
		expect(README).toContain(`The package has\n${NUMBER_WORDS[nodes.length]} nodes:`);
		expect(README).toContain(`The ${NUMBER_WORDS[nodes.length]} nodes then appear`);
		for (const { description } of nodes)
			expect(README).toContain(`- **${description.displayName}** (`);
	});

	it('states the number of operations the action node has', () => {
		const count = RESOURCES.reduce((sum, resource) => sum + resource.operations.length, 0);
		const stated = [...README.matchAll(/(\d+) operations/g)].map((match) => Number(match[1]));
		expect(stated.length).toBeGreaterThan(0);
		expect(stated).toEqual(stated.map(() => count));
	});

	it('links only to documentation pages that exist', () => {
		const links = [...README.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]);
		expect(links.length).toBeGreaterThan(8);
		expect(links.filter((link) => !existsSync(join(ROOT, link)))).toEqual([]);
	});
});

/** The fault table of docs/faults.md is the one the matrix test runs: rendered from the same policy. */
describe('docs/faults.md, "Faults and what the nodes do"', () => {
	it('shows the fault matrix as the test derives it from the request policy', () => {
		const table = /<!-- fault-matrix:start -->\n([\s\S]*?)\n<!-- fault-matrix:end -->/.exec(
			read('docs/faults.md'),
		)?.[1];
		// on a change of the policy, paste the expected table between the markers
		expect(table).toBe(renderMatrix());
	});
});
