import * as v from 'valibot';
import { type AudioUpload, parseMultipartForm, readUpload } from '../shared/multipart-fields.js';
import { modelPart, optionalLanguagePart, voiceFormSchema } from './voice-fields.js';

/** A validated `POST /v1/voice/transcribe` form. */
export interface DecodedVoiceTranscribeRequest extends AudioUpload {
  /** A speech-to-text model slug; absent: the gateway picks one by language. */
  sttModel?: string;
  /** ISO 639 primary code of the speech (`en`); absent: unspecified. */
  language?: string;
}

/** valibot schema of the multipart form of `POST /v1/voice/transcribe` (the one the route publishes). */
export const voiceTranscribeFormSchema = voiceFormSchema({
    stt_model: v.optional(v.pipe(modelPart, v.description('A speech-to-text model slug; absent: chosen by language.'))),
    language: v.optional(optionalLanguagePart),
});

/**
 * Validates the multipart form of `POST /v1/voice/transcribe`: the audio (`file`, or `audio`),
 * optional `stt_model` and `language`.
 *
 * @throws GatewayError 413 above 25 MB; 400 naming the part: a missing or non-file `file`, an
 *   empty `stt_model`, a `language` that is not a language code.
 */
export async function decodeVoiceTranscribeRequest(form: FormData): Promise<DecodedVoiceTranscribeRequest> {
  const parts = parseMultipartForm(voiceTranscribeFormSchema, form);
  const out: DecodedVoiceTranscribeRequest = await readUpload((parts.file ?? parts.audio)!);
  if (parts.stt_model !== undefined) out.sttModel = parts.stt_model;
  if (parts.language !== undefined) out.language = parts.language;
  return out;
}
