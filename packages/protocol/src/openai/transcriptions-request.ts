import * as v from 'valibot';
import { oneOf } from '../shared/fields.js';
import { audioFilePart, formTextPart, parseMultipartForm, readUpload } from '../shared/multipart-fields.js';

export { MAX_AUDIO_FILE_BYTES } from '../shared/multipart-fields.js';

export const transcriptionFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptionResponseFormat = (typeof transcriptionFormats)[number];

/** The content type each response format is answered with. */
export const transcriptionContentTypes: Readonly<Record<TranscriptionResponseFormat, string>> = {
  json: 'application/json',
  verbose_json: 'application/json',
  text: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/** A validated transcription or translation request. */
export interface DecodedTranscriptionRequest {
  task: 'transcription' | 'translation';
  model: string;
  file: Uint8Array;
  filename: string;
  fileType?: string;
  /** ISO 639-1; transcriptions only (dropped on translations, which are always English). */
  language?: string;
  prompt?: string;
  /** Default `json`. */
  responseFormat: TranscriptionResponseFormat;
  /** 0..1. */
  temperature?: number;
}

const temperatureMessage = 'must be a number between 0 and 1';

/**
 * valibot schema of the multipart form of `POST /v1/audio/transcriptions` and `/translations`
 * (spec §Limits: the file up to 25 MB, answered 413 above). Multipart text parts arrive as
 * strings, so `temperature` is checked as text and converted.
 */
export const transcriptionFormSchema = v.object({
  file: audioFilePart,
  model: v.pipe(formTextPart, v.minLength(1, 'must not be empty')),
  language: v.optional(v.pipe(formTextPart, v.description('ISO 639-1 language of the audio.'))),
  prompt: v.optional(formTextPart),
  response_format: v.optional(oneOf(transcriptionFormats)),
  temperature: v.optional(
    v.pipe(
      formTextPart,
      v.check((value) => value.trim() !== '' && Number.isFinite(Number(value)), temperatureMessage),
      v.transform(Number),
      v.minValue(0, temperatureMessage),
      v.maxValue(1, temperatureMessage),
    ),
  ),
});

/** The translation form: the same without `language` (the output is always English; a sent one is ignored). */
export const translationFormSchema = v.omit(transcriptionFormSchema, ['language']);

const forms = { transcription: transcriptionFormSchema, translation: translationFormSchema } as const;

/**
 * Validates the multipart form of `POST /v1/audio/transcriptions` or `/translations`.
 *
 * @throws GatewayError 413 for a file above 25 MB; 400 naming the part for a missing `file` or
 *   `model`, an unknown `response_format`, a `temperature` outside 0..1.
 */
export async function decodeTranscriptionRequest(form: FormData, task: DecodedTranscriptionRequest['task']): Promise<DecodedTranscriptionRequest> {
  const parts = parseMultipartForm(forms[task], form);
  const { file, model, prompt, response_format: responseFormat = 'json', temperature } = parts;
  const language = 'language' in parts ? parts.language : undefined;
  const out: DecodedTranscriptionRequest = { task, model, ...(await readUpload(file)), responseFormat };
  if (language) out.language = language;
  if (prompt !== undefined) out.prompt = prompt;
  if (temperature !== undefined) out.temperature = temperature;
  return out;
}
