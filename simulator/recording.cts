/**
 * The recording of a finished call: a small, real audio file (RIFF/WAVE, 8 kHz, 16-bit mono PCM),
 * made in code so that no binary blob is kept in the repository. Its length is the call's duration
 * capped at one second, so that a recording is a few kilobytes at most.
 */
export const RECORDING_MIME_TYPE = 'audio/wav';
const SAMPLE_RATE = 8_000;
const TONE_HZ = 440;

/** The path of a call's recording on the simulator, under its own origin (so the API key may go with it). */
export function recordingPath(callId: string): string {
	return `/v1/calls/${callId}/recording`;
}

export function recordingFileName(callId: string): string {
	return `call-${callId}.wav`;
}

/** A WAV file of `seconds` (at least a tenth, at most one) of a quiet 440 Hz tone. */
export function wavRecording(seconds: number): Buffer {
	const samples = Math.round(SAMPLE_RATE * Math.min(1, Math.max(0.1, seconds)));
	const dataBytes = samples * 2;
	const wav = Buffer.alloc(44 + dataBytes);
	wav.write('RIFF', 0, 'ascii');
	wav.writeUInt32LE(36 + dataBytes, 4);
	wav.write('WAVE', 8, 'ascii');
	wav.write('fmt ', 12, 'ascii');
	wav.writeUInt32LE(16, 16); // fmt chunk size
	wav.writeUInt16LE(1, 20); // PCM
	wav.writeUInt16LE(1, 22); // mono
	wav.writeUInt32LE(SAMPLE_RATE, 24);
	wav.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
	wav.writeUInt16LE(2, 32); // block align
	wav.writeUInt16LE(16, 34); // bits per sample
	wav.write('data', 36, 'ascii');
	wav.writeUInt32LE(dataBytes, 40);
	for (let i = 0; i < samples; i++) {
		wav.writeInt16LE(
			Math.round(3_000 * Math.sin((2 * Math.PI * TONE_HZ * i) / SAMPLE_RATE)),
			44 + 2 * i,
		);
	}
	return wav;
}
