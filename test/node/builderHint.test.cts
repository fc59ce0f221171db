import type { INodeTypeDescription } from 'n8n-workflow';

import { ACTION_NODE, INSTANT_TRIGGER_NODE, TRIGGER_NODE } from '../../harness/nodeTypes.cts';
import { VoiceAgentCrm } from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node';
import { VoiceAgentCrmInstantTrigger } from '../../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node';
import { VoiceAgentCrmTrigger } from '../../nodes/VoiceAgentCrmTrigger/VoiceAgentCrmTrigger.node';

/**
 * n8n's AI workflow builder searches nodes by their `builderHint.searchHint` and wires the
 * `relatedNodes` together: each node says what it is for and names the package's other two by the
 * type IDs n8n gives them once the package is installed.
 */
const NODES: Array<[string, INodeTypeDescription]> = [
	[ACTION_NODE, new VoiceAgentCrm().description],
	[TRIGGER_NODE, new VoiceAgentCrmTrigger().description],
	[INSTANT_TRIGGER_NODE, new VoiceAgentCrmInstantTrigger().description],
];

describe("Hints for n8n's AI workflow builder", () => {
	it.each(NODES)('%s says what it is for and names the two others', (type, description) => {
		const hint = description.builderHint!;
		expect(hint.searchHint).toMatch(/Voice Agent CRM/);
		const related = (hint.relatedNodes ?? []).map((node) => node.nodeType).sort();
		expect(related).toEqual(
			NODES.map(([other]) => other)
				.filter((other) => other !== type)
				.sort(),
		);
		for (const node of hint.relatedNodes!) expect(node.relationHint.length).toBeGreaterThan(10);
		// what n8n's lint (no-builder-hint-leakage) refuses: wire-format expressions, connection types
		expect(JSON.stringify(hint)).not.toMatch(/=\{\{|\bai_[a-z]/);
	});
});
