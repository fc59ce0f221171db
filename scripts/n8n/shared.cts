/**
 * The credential every example workflow refers to. Example workflows name it in their Voice Agent CRM
 * nodes as `"credentials": {"voiceAgentCrmApi": {"id": "VoiceAgentCrmSim", "name": "Voice Agent CRM (simulator)"}}`;
 * test:n8n imports a credential with this id and name, pointing at the simulator.
 */
export const CREDENTIAL_ID = 'VoiceAgentCrmSim';
export const CREDENTIAL_NAME = 'Voice Agent CRM (simulator)';

export const ACTION_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrm';
export const TRIGGER_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrmTrigger';
export const INSTANT_TRIGGER_NODE_TYPE = 'n8n-nodes-voice-agent-crm.voiceAgentCrmInstantTrigger';
