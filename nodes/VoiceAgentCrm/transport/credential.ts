/** The credential the nodes authenticate with (`credentials/VoiceAgentCrmApi.credentials.ts`). */
export const CREDENTIAL_NAME = 'voiceAgentCrmApi';
