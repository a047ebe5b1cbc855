import type { CallOptions, TranscriptionRequest, TranscriptionResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { encodeMultipart, postBody } from '../shared/http.js';
import { classifyOpenAIError } from './openai-error.js';

/** Where one `/audio/transcriptions` or `/audio/translations` call goes. */
export interface OpenAITranscriptionTarget {
  provider: string;
  http: HttpClient;
  /** Base URL including the version path; `/audio/transcriptions` or `/audio/translations` is appended. */
  base: string;
  headers: Record<string, string>;
}

/** The multipart body and its content type (with the boundary), serialised by the platform's own encoder. */
export async function buildOpenAITranscriptionBody(request: TranscriptionRequest): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  const type = request.fileType === undefined ? {} : { type: request.fileType };
  form.append('file', new Blob([request.file], type), request.filename);
  form.append('model', request.model);
  if (request.language !== undefined && request.task === 'transcription') form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  if (request.responseFormat !== undefined) form.append('response_format', request.responseFormat);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  return encodeMultipart(form);
}

/** POSTs the audio as multipart and passes the answer through; `verbose_json` gives the duration. */
export async function openAITranscribe(target: OpenAITranscriptionTarget, request: TranscriptionRequest, options: CallOptions | undefined): Promise<TranscriptionResult> {
  const { body, contentType } = await buildOpenAITranscriptionBody(request);
  const url = `${target.base}/audio/${request.task === 'translation' ? 'translations' : 'transcriptions'}`;
  const { response, text } = await postBody({ provider: target.provider, http: target.http, url, headers: target.headers, body, contentType, signal: options?.signal, onResponse: options?.onResponse, classify: classifyOpenAIError });
  const result: TranscriptionResult = { contentType: response.headers.get('content-type') ?? 'application/json', body: text };
  const duration = request.responseFormat === 'verbose_json' ? readDuration(text) : undefined;
  if (duration !== undefined) result.durationSeconds = duration;
  return result;
}

function readDuration(text: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const duration = typeof parsed === 'object' && parsed !== null && 'duration' in parsed ? parsed.duration : undefined;
    return typeof duration === 'number' && Number.isFinite(duration) ? duration : undefined;
  } catch {
    return undefined;
  }
}
