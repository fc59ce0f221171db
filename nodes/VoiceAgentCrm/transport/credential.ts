/** The credential the nodes authenticate with (`credentials/VoiceAgentCrmApi.credentials.ts`). */
export const CREDENTIAL_NAME = 'voiceAgentCrmApi';

/** The credential test of the editor's Test button (`methods/credentialTest.ts`, `testedBy`). */
export const CREDENTIAL_TEST = 'voiceAgentCrmApiTest';
