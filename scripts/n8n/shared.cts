/**
 * The credential every example workflow refers to. Example workflows name it in their Voice Agent CRM
 * nodes as `"credentials": {"voiceAgentCrmApi": {"id": "VoiceAgentCrmSim", "name": "Voice Agent CRM (simulator)"}}`;
 * test:n8n imports a credential with this id and name, pointing at the simulator.
 */
export const CREDENTIAL_ID = 'VoiceAgentCrmSim';
export const CREDENTIAL_NAME = 'Voice Agent CRM (simulator)';

/** The statuses n8n gives an execution that has ended (not `new`, `running` or `waiting`). */
export const FINISHED_STATUSES = new Set(['success', 'error', 'crashed', 'canceled']);

export const ACTION_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrm';
export const TRIGGER_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrmTrigger';
export const INSTANT_TRIGGER_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrmInstantTrigger';

/** The trigger node of a suite's workflow: what differs from one suite to the next. */
export interface SuiteTrigger {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	webhookId?: string;
}

/**
 * A workflow of a trigger followed by a No Operation node ("Follow-up"), the shape each trigger
 * suite imports; its node IDs are `nodeIdPrefix` + `01` and `02` (a UUID without its last two digits).
 */
export function triggerThenNoOp(
	id: string,
	name: string,
	nodeIdPrefix: string,
	trigger: SuiteTrigger,
): Record<string, unknown> {
	return {
		id,
		name,
		nodes: [
			{
				...trigger,
				id: `${nodeIdPrefix}01`,
				typeVersion: 1,
				position: [0, 0],
				credentials: { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
			{
				parameters: {},
				id: `${nodeIdPrefix}02`,
				name: 'Follow-up',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
			},
		],
		connections: { [trigger.name]: { main: [[{ node: 'Follow-up', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}
