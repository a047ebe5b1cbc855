export { VOICE_FEE_MODEL, VOICE_FEE_PROVIDER, SPOKEN_CHARS_PER_SECOND, type VoiceFee, spokenSeconds, voiceFee } from './voice-billing.js';
export { type VoiceChatOptions, type VoiceChatRequest, type VoiceChatResult, chatByVoice } from './voice-chat.js';
export { resolveVoiceMode } from './voice-mode.js';
export { type SynthesisPlan, checkVoice, planSynthesis } from './voice-models.js';
export { type KvVoiceSessionSettings, type VoiceSessionStore, type VoiceTurn, createKvVoiceSessionStore } from './voice-session.js';
export type { VoiceAudio, VoiceChatDeps, VoiceCost, VoiceDeps, VoiceSettings } from './voice-steps.js';
export { type VoiceSynthesis, type VoiceSynthesizeRequest, synthesizeVoice } from './voice-synthesize.js';
export { type VoiceTranscribeRequest, type VoiceTranscription, transcribeVoice } from './voice-transcribe.js';
