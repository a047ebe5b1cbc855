import type { CallOptions, Recognition, RecognitionRequest } from '../provider.js';
import { postBody } from '../shared/http.js';
import type { KeyedTarget } from '../shared/keyed-target.js';
import { languageCode } from '../shared/language-code.js';
import { parseAnswer } from '../shared/parse-answer.js';
import { deepgramListenResponseSchema } from './deepgram-api.js';
import { classifyDeepgramError } from './deepgram-error.js';

/** The `/v1/listen` query: the model, punctuated and formatted text, the language or its detection. */
export function deepgramListenUrl(base: string, request: RecognitionRequest): string {
  const query = new URLSearchParams({ model: request.model, smart_format: 'true' });
  if (request.language !== undefined) query.set('language', request.language);
  else query.set('detect_language', 'true');
  return `${base}/v1/listen?${query.toString()}`;
}

/**
 * Pre-recorded speech to text: POSTs the audio bytes as the body (Deepgram reads the container
 * itself; the content type is the client's, else `audio/*`) and reads the first channel's
 * transcript, the detected (else asked) language and the duration Deepgram bills.
 */
export async function deepgramListen(target: KeyedTarget, request: RecognitionRequest, options: CallOptions | undefined): Promise<Recognition> {
  const { response, text } = await postBody({
    provider: target.provider,
    http: target.http,
    url: deepgramListenUrl(target.base, request),
    headers: target.headers(options),
    body: request.file,
    contentType: request.fileType ?? 'audio/*',
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: classifyDeepgramError,
  });
  const answer = parseAnswer(target.provider, deepgramListenResponseSchema, text, response.status, 'transcription');
  const channel = answer.results.channels[0]!;
  const recognition: Recognition = { text: channel.alternatives[0]!.transcript, durationSeconds: answer.metadata.duration };
  const language = languageCode(channel.detected_language ?? undefined) ?? request.language;
  if (language !== undefined) recognition.language = language;
  return recognition;
}
