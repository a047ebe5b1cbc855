import * as v from 'valibot';
import { type AudioUpload, formTextPart, parseMultipartForm, readUpload } from '../shared/multipart-fields.js';
import { MAX_CONVERSATION_ID_CHARS, languagePart, modelPart, outputFormatPart, trimmedTextPart, voiceFormSchema } from './voice-fields.js';

/** Longest system prompt a voice chat takes. */
export const MAX_VOICE_SYSTEM_CHARS = 8_000;

/** A validated `POST /v1/voice/chat` form. */
export interface DecodedVoiceChatRequest extends AudioUpload {
  /** ISO 639 primary code of the speech (`en`). */
  language: string;
  /** Speech-to-text model slug; absent: chosen by language. */
  sttModel?: string;
  /** Text-to-speech model slug; absent: a cheap default (of `provider` when set). */
  ttsModel?: string;
  /** The text-to-speech provider to use when `tts_model` is absent. */
  provider?: string;
  /** Voice of the reply; absent: the TTS model's default. */
  voice?: string;
  /** `<format>_<rate>` of the reply's audio; absent: the TTS model's default. */
  outputFormat?: string;
  /** The chat model (slug or alias); absent: `svc/auto`. */
  model?: string;
  /** A system prompt for the chat step. */
  system?: string;
  /** The voice session (form field `conversation_id`). */
  conversationId?: string;
}

const providerPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** valibot schema of the multipart form of `POST /v1/voice/chat` (the one the route publishes). */
export const voiceChatFormSchema = voiceFormSchema({
    language: languagePart,
    stt_model: v.optional(v.pipe(modelPart, v.description('Speech-to-text model slug; absent: chosen by language.'))),
    tts_model: v.optional(v.pipe(modelPart, v.description('Text-to-speech model slug; absent: a cheap default (of `provider` when set).'))),
    provider: v.optional(
      v.pipe(
        formTextPart,
        v.regex(providerPattern, 'must be a provider id such as openai, deepgram or elevenlabs'),
        v.description('The text-to-speech provider when `tts_model` is absent.'),
      ),
    ),
    voice: v.optional(v.pipe(trimmedTextPart(200), v.description("Voice of the reply; absent: the TTS model's default."))),
    output_format: v.optional(v.pipe(outputFormatPart, v.description("`<format>_<rate>` of the reply's audio; absent: the TTS model's default."))),
    model: v.optional(v.pipe(modelPart, v.description('The chat model (slug or alias); absent: `svc/auto`.'))),
    system: v.optional(v.pipe(trimmedTextPart(MAX_VOICE_SYSTEM_CHARS), v.description('A system prompt for the chat step.'))),
    conversation_id: v.optional(v.pipe(trimmedTextPart(MAX_CONVERSATION_ID_CHARS), v.description('The voice session (else the `x-svc-conversation-id` header).'))),
});

/**
 * Validates the multipart form of `POST /v1/voice/chat`: the audio (`file` or `audio`), the
 * required `language`, optional `stt_model`, `tts_model`, `provider`, `voice`, `output_format`,
 * `model`, `system` and `conversation_id`.
 *
 * @throws GatewayError 413 above 25 MB; 400 naming the part for a missing audio part or
 *   `language`, a `language` that is not a code, a malformed `provider` or `output_format`, an
 *   empty or overlong text part.
 */
export async function decodeVoiceChatRequest(form: FormData): Promise<DecodedVoiceChatRequest> {
  const parts = parseMultipartForm(voiceChatFormSchema, form);
  const out: DecodedVoiceChatRequest = { ...(await readUpload((parts.file ?? parts.audio)!)), language: parts.language };
  if (parts.provider !== undefined) out.provider = parts.provider;
  if (parts.stt_model !== undefined) out.sttModel = parts.stt_model;
  if (parts.tts_model !== undefined) out.ttsModel = parts.tts_model;
  if (parts.model !== undefined) out.model = parts.model;
  if (parts.voice !== undefined) out.voice = parts.voice;
  if (parts.output_format !== undefined) out.outputFormat = parts.output_format;
  if (parts.system !== undefined) out.system = parts.system;
  if (parts.conversation_id !== undefined) out.conversationId = parts.conversation_id;
  return out;
}
