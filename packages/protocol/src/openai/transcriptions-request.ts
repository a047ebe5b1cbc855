import { payloadTooLarge } from '@svc/core';
import * as v from 'valibot';
import { oneOf } from '../shared/fields.js';
import { issueToError } from '../shared/issue-to-error.js';
import { MAX_AUDIO_FILE_BYTES } from '../shared/multipart-fields.js';

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

const textField = v.string('must be a text field, not a file');
const temperatureMessage = 'must be a number between 0 and 1';

/**
 * valibot schema of the multipart form of `POST /v1/audio/transcriptions` and `/translations`
 * (spec §Limits: the file up to 25 MB, answered 413 above). Multipart text parts arrive as
 * strings, so `temperature` is checked as text and converted.
 */
export const transcriptionFormSchema = v.object({
  file: v.pipe(v.blob('must be an audio file part (multipart/form-data)'), v.description(`The audio file, at most ${MAX_AUDIO_FILE_BYTES} bytes (413 above).`)),
  model: v.pipe(textField, v.minLength(1, 'must not be empty')),
  language: v.optional(v.pipe(textField, v.description('ISO 639-1 language of the audio.'))),
  prompt: v.optional(textField),
  response_format: v.optional(oneOf(transcriptionFormats)),
  temperature: v.optional(
    v.pipe(
      textField,
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
const formFields = Object.keys(transcriptionFormSchema.entries);

/**
 * Validates the multipart form of `POST /v1/audio/transcriptions` or `/translations`.
 *
 * @throws GatewayError 413 for a file above 25 MB; 400 naming the part for a missing `file` or
 *   `model`, an unknown `response_format`, a `temperature` outside 0..1.
 */
export async function decodeTranscriptionRequest(form: FormData, task: DecodedTranscriptionRequest['task']): Promise<DecodedTranscriptionRequest> {
  const upload = form.get('file');
  if (upload instanceof Blob && upload.size > MAX_AUDIO_FILE_BYTES) throw payloadTooLarge(MAX_AUDIO_FILE_BYTES);
  const parts: Record<string, unknown> = {};
  for (const name of formFields) {
    const value = form.get(name);
    if (value !== null) parts[name] = value;
  }
  const parsed = v.safeParse(forms[task], parts, { abortEarly: true });
  if (!parsed.success) throw issueToError(parsed.issues[0]);
  const { file, model, prompt, response_format: responseFormat = 'json', temperature } = parsed.output;
  const language = 'language' in parsed.output ? parsed.output.language : undefined;
  const out: DecodedTranscriptionRequest = {
    task,
    model,
    file: new Uint8Array(await file.arrayBuffer()),
    filename: (file instanceof File && file.name) || 'audio',
    responseFormat,
  };
  if (file.type) out.fileType = file.type;
  if (language) out.language = language;
  if (prompt !== undefined) out.prompt = prompt;
  if (temperature !== undefined) out.temperature = temperature;
  return out;
}
