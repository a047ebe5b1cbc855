import type { CallOptions, SpeechFormat, SpeechRequest, SpeechResult } from '../provider.js';
import type { HttpClient } from '../shared/http-client.js';
import { postJson } from '../shared/http.js';
import { classifyOpenAIError } from './openai-error.js';

/** Where one `/audio/speech` call goes. */
export interface OpenAISpeechTarget {
  provider: string;
  http: HttpClient;
  /** Full `/audio/speech` URL. */
  url: string;
  headers: Record<string, string>;
}

/** The content type of each output format, for an upstream that sends none. */
export const speechContentTypes: Readonly<Record<SpeechFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

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
    classify: classifyOpenAIError,
  });
  const upstreamType = response.headers.get('content-type');
  const contentType = upstreamType?.startsWith('audio/') ? upstreamType : speechContentTypes[request.responseFormat ?? 'mp3'];
  return { contentType, body: response.body };
}
