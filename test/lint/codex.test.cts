import actionCodex from '../../nodes/VoiceAgentCrm/VoiceAgentCrm.node.json';
import instantTriggerCodex from '../../nodes/VoiceAgentCrmInstantTrigger/VoiceAgentCrmInstantTrigger.node.json';
import triggerCodex from '../../nodes/VoiceAgentCrmTrigger/VoiceAgentCrmTrigger.node.json';

/**
 * Found in a real n8n 2.38 editor: the nodes panel hides nodes of the "AI" category on a canvas
 * without AI nodes, and its search matches node names and aliases, not action names.
 */
describe('codex files keep the nodes findable in the editor', () => {
	it.each([
		['Voice Agent CRM', actionCodex, 'Place AI Call'],
		['Voice Agent CRM Trigger', triggerCodex, 'Call finished'],
		['Voice Agent CRM Instant Trigger', instantTriggerCodex, 'Call webhook'],
	])('%s: no "AI" category, and an alias users search for', (_name, codex, alias) => {
		expect(codex.categories).not.toContain('AI');
		expect(codex.alias).toContain(alias);
	});

	/** What n8n's nodes panel matches a search against: the node's name and its codex aliases. */
	const searchable = ['Voice Agent CRM', ...actionCodex.alias].map((text) => text.toLowerCase());

	it.each(['campaign', 'dialer', 'call list', 'run campaign', 'upsert', 'sync'])(
		'the nodes panel finds Voice Agent CRM for "%s" (Call → Run Campaign, Contact → Create or Update)',
		(search) => {
			expect(searchable.some((text) => text.includes(search))).toBe(true);
		},
	);
});
