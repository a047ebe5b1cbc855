import { invalidRequest, payloadTooLarge } from '@svc/core';

/** Largest audio file a transcription or translation takes (spec §Limits): 25 MB. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

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

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid '${name}': must be a text field, not a file.`, name);
  return value;
}

/**
 * Validates the multipart form of `POST /v1/audio/transcriptions` or `/translations`.
 *
 * @throws GatewayError 413 for a file above 25 MB; 400 naming the part for a missing `file` or
 *   `model`, an unknown `response_format`, a `temperature` outside 0..1.
 */
export async function decodeTranscriptionRequest(form: FormData, task: DecodedTranscriptionRequest['task']): Promise<DecodedTranscriptionRequest> {
  const file = form.get('file');
  if (file === null) throw invalidRequest("Missing required parameter: 'file'.", 'file');
  if (typeof file === 'string') throw invalidRequest("Invalid 'file': must be an audio file part (multipart/form-data).", 'file');
  if (file.size > MAX_AUDIO_FILE_BYTES) throw payloadTooLarge(MAX_AUDIO_FILE_BYTES);
  const model = text(form, 'model');
  if (!model) throw invalidRequest("Missing required parameter: 'model'.", 'model');
  const format = text(form, 'response_format') ?? 'json';
  if (!(transcriptionFormats as readonly string[]).includes(format)) {
    throw invalidRequest(`Invalid 'response_format': must be one of ${transcriptionFormats.join(', ')} (got ${format}).`, 'response_format');
  }
  const out: DecodedTranscriptionRequest = {
    task,
    model,
    file: new Uint8Array(await file.arrayBuffer()),
    filename: file.name || 'audio',
    responseFormat: format as TranscriptionResponseFormat,
  };
  if (file.type) out.fileType = file.type;
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
