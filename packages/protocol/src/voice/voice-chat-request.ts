import { invalidRequest } from '@svc/core';
import { type AudioUpload, audioUpload, formText } from '../shared/multipart-fields.js';
import { MAX_CONVERSATION_ID_CHARS, languageField, modelField, optionalText, outputFormatField } from './voice-fields.js';

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
  const upload = await audioUpload(form, ['file', 'audio']);
  const language = formText(form, 'language');
  if (language === undefined || language.trim() === '') throw invalidRequest("Missing required parameter: 'language'.", 'language');
  const out: DecodedVoiceChatRequest = { ...upload, language: languageField(language) };
  const provider = formText(form, 'provider');
  if (provider !== undefined) {
    if (!providerPattern.test(provider)) throw invalidRequest(`Invalid 'provider': must be a provider id such as openai, deepgram or elevenlabs (got ${provider.slice(0, 40)}).`, 'provider');
    out.provider = provider;
  }
  for (const [field, key] of [['stt_model', 'sttModel'], ['tts_model', 'ttsModel'], ['model', 'model']] as const) {
    const value = modelField(form, field);
    if (value !== undefined) out[key] = value;
  }
  const voice = optionalText(form, 'voice', 200);
  if (voice !== undefined) out.voice = voice;
  const outputFormat = outputFormatField(form);
  if (outputFormat !== undefined) out.outputFormat = outputFormat;
  const system = optionalText(form, 'system', MAX_VOICE_SYSTEM_CHARS);
  if (system !== undefined) out.system = system;
  const conversationId = optionalText(form, 'conversation_id', MAX_CONVERSATION_ID_CHARS);
  if (conversationId !== undefined) out.conversationId = conversationId;
  return out;
}
