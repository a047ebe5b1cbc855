export { type DecodedVoiceChatRequest, MAX_VOICE_SYSTEM_CHARS, decodeVoiceChatRequest, voiceChatFormSchema } from './voice-chat-request.js';
export { MAX_CONVERSATION_ID_CHARS, OUTPUT_FORMAT_PATTERN } from './voice-fields.js';
export {
  type DecodedVoiceSynthesizeRequest,
  MAX_SYNTHESIZE_TEXT_CHARS,
  decodeVoiceSynthesizeRequest,
  voiceSynthesizeRequestSchema,
} from './voice-synthesize-request.js';
export { type DecodedVoiceTranscribeRequest, decodeVoiceTranscribeRequest, voiceTranscribeFormSchema } from './voice-transcribe-request.js';
