import { invalidRequest } from '@svc/core';
import { audioUpload, formText as text } from '../shared/multipart-fields.js';

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

/**
 * Validates the multipart form of `POST /v1/audio/transcriptions` or `/translations`.
 *
 * @throws GatewayError 413 for a file above 25 MB; 400 naming the part for a missing `file` or
 *   `model`, an unknown `response_format`, a `temperature` outside 0..1.
 */
export async function decodeTranscriptionRequest(form: FormData, task: DecodedTranscriptionRequest['task']): Promise<DecodedTranscriptionRequest> {
  const upload = await audioUpload(form);
  const model = text(form, 'model');
  if (!model) throw invalidRequest("Missing required parameter: 'model'.", 'model');
  const format = text(form, 'response_format') ?? 'json';
  if (!(transcriptionFormats as readonly string[]).includes(format)) {
    throw invalidRequest(`Invalid 'response_format': must be one of ${transcriptionFormats.join(', ')} (got ${format}).`, 'response_format');
  }
  const out: DecodedTranscriptionRequest = { task, model, ...upload, responseFormat: format as TranscriptionResponseFormat };
  const language = text(form, 'language');
  if (language && task === 'transcription') out.language = language;
  const prompt = text(form, 'prompt');
  if (prompt !== undefined) out.prompt = prompt;
  const temperature = text(form, 'temperature');
  if (temperature !== undefined) {
    const value = Number(temperature);
    if (temperature.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw invalidRequest(`Invalid 'temperature': must be a number between 0 and 1 (got ${temperature}).`, 'temperature');
    }
    out.temperature = value;
  }
  return out;
}
