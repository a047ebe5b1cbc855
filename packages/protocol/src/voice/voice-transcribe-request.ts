import { type AudioUpload, audioUpload, formText } from '../shared/multipart-fields.js';
import { languageField, modelField } from './voice-fields.js';

/** A validated `POST /v1/voice/transcribe` form. */
export interface DecodedVoiceTranscribeRequest extends AudioUpload {
  /** A speech-to-text model slug; absent: the gateway picks one by language. */
  sttModel?: string;
  /** ISO 639 primary code of the speech (`en`); absent: unspecified. */
  language?: string;
}

/**
 * Validates the multipart form of `POST /v1/voice/transcribe`: the audio (`file`, or `audio`),
 * optional `stt_model` and `language`.
 *
 * @throws GatewayError 413 above 25 MB; 400 naming the part: a missing or non-file `file`, an
 *   empty `stt_model`, a `language` that is not a language code.
 */
export async function decodeVoiceTranscribeRequest(form: FormData): Promise<DecodedVoiceTranscribeRequest> {
  const out: DecodedVoiceTranscribeRequest = await audioUpload(form, ['file', 'audio']);
  const sttModel = modelField(form, 'stt_model');
  if (sttModel !== undefined) out.sttModel = sttModel;
  const language = formText(form, 'language');
  if (language !== undefined && language.trim() !== '') out.language = languageField(language);
  return out;
}
