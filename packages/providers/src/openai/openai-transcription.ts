import { ProviderError, kindFromStatus } from '@svc/core';
import type { CallOptions, TranscriptionRequest, TranscriptionResult } from '../provider.js';
import type { HttpClient, HttpResponse } from '../shared/http-client.js';
import { transportError } from '../shared/http.js';
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
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? 'multipart/form-data' };
}

/** POSTs the audio as multipart and passes the answer through; `verbose_json` gives the duration. */
export async function openAITranscribe(target: OpenAITranscriptionTarget, request: TranscriptionRequest, options: CallOptions | undefined): Promise<TranscriptionResult> {
  const { body, contentType } = await buildOpenAITranscriptionBody(request);
  const url = `${target.base}/audio/${request.task === 'translation' ? 'translations' : 'transcriptions'}`;
  let response: HttpResponse;
  let text: string;
  try {
    response = await target.http.request({ url, method: 'POST', headers: { ...target.headers, 'content-type': contentType }, body, signal: options?.signal });
    text = await response.text();
  } catch (error) {
    throw transportError(target.provider, error, options?.signal);
  }
  if (response.status < 200 || response.status >= 300) {
    const classified = classifyOpenAIError(response.status, text);
    throw new ProviderError({
      provider: target.provider,
      kind: classified.kind ?? kindFromStatus(response.status),
      message: classified.message ?? (text.slice(0, 500) || `Upstream answered ${response.status}.`),
      upstreamStatus: response.status,
      upstreamCode: classified.code,
      param: classified.param ?? null,
    });
  }
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
