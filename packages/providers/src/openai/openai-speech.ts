import type { CallOptions, SpeechRequest, SpeechResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { postJson } from '../shared/http.js';
import { speechResult } from '../shared/speech-audio.js';
import { classifyOpenAIError } from './openai-error.js';

/** Where one `/audio/speech` call goes. */
export interface OpenAISpeechTarget {
  provider: string;
  http: HttpClient;
  /** Full `/audio/speech` URL. */
  url: string;
  headers: Record<string, string>;
}

/** The `/audio/speech` body: only the fields the request sets. */
export function buildOpenAISpeechBody(request: SpeechRequest): Record<string, string | number> {
  const body: Record<string, string | number> = { model: request.model, input: request.input, voice: request.voice };
  if (request.responseFormat !== undefined) body.response_format = request.responseFormat;
  if (request.speed !== undefined) body.speed = request.speed;
  if (request.instructions !== undefined) body.instructions = request.instructions;
  return body;
}

/** POSTs one `/audio/speech` request; resolves on a 2xx with the audio not yet read. */
export async function openAISpeech(target: OpenAISpeechTarget, request: SpeechRequest, options: CallOptions | undefined): Promise<SpeechResult> {
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: target.url,
    headers: target.headers,
    body: buildOpenAISpeechBody(request),
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: classifyOpenAIError,
  });
  return speechResult(response, request.responseFormat ?? 'mp3');
}
