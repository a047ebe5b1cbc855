import { invalidRequest } from '@svc/core';
import { formText } from '../shared/multipart-fields.js';

/** `<format>_<sample rate>`, the shape of `output_format` (`mp3_44100`, `pcm_16000`, `wav_24000`). */
export const OUTPUT_FORMAT_PATTERN = /^[a-z][a-z0-9]*_\d{4,6}$/;
export const OUTPUT_FORMAT_MESSAGE = 'must be a format name with its sample rate, such as mp3_44100, pcm_16000 or wav_24000';

/** Longest conversation id the voice endpoints keep a session under. */
export const MAX_CONVERSATION_ID_CHARS = 256;

const languagePattern = /^([a-z]{2,3})(?:-[a-z0-9]{2,8})*$/i;

/**
 * A `language` field as its ISO 639 primary code, lowercased (`en-US` -> `en`).
 *
 * @throws GatewayError 400 naming `language` for anything else.
 */
export function languageField(value: string): string {
  const match = languagePattern.exec(value.trim());
  if (!match) throw invalidRequest(`Invalid 'language': must be an ISO 639-1 language code such as en or de (got ${value.slice(0, 40)}).`, 'language');
  return match[1]!.toLowerCase();
}

/** An optional non-empty text part of at most `max` characters; 400 naming it otherwise. */
export function optionalText(form: FormData, name: string, max: number): string | undefined {
  const value = formText(form, name);
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > max) throw invalidRequest(`Invalid '${name}': must be a non-empty string of at most ${max} characters.`, name);
  return trimmed;
}

/** A model slug part (`stt_model`, `tts_model`, `model`): non-empty, at most 200 characters. */
export function modelField(form: FormData, name: string): string | undefined {
  return optionalText(form, name, 200);
}

/** `output_format` of a form: `<format>_<rate>`; 400 naming it otherwise. */
export function outputFormatField(form: FormData): string | undefined {
  const value = formText(form, 'output_format');
  if (value === undefined) return undefined;
  if (!OUTPUT_FORMAT_PATTERN.test(value)) throw invalidRequest(`Invalid 'output_format': ${OUTPUT_FORMAT_MESSAGE} (got ${value.slice(0, 40)}).`, 'output_format');
  return value;
}
