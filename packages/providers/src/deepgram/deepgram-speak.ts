import { ProviderError } from '@svc/core';
import type { CallOptions, SpeechFormat, SpeechRequest, SpeechResult } from '../provider.js';
import { postJson } from '../shared/http.js';
import type { KeyedTarget } from '../shared/keyed-target.js';
import { speechResult } from '../shared/speech-audio.js';
import { classifyDeepgramError } from './deepgram-error.js';

/** Each format as Deepgram's `encoding` and `container`; `rate` when the format takes a sample rate. */
const encodings: Readonly<Record<SpeechFormat, { encoding: string; container?: string; rate: boolean }>> = {
  mp3: { encoding: 'mp3', rate: false },
  opus: { encoding: 'opus', container: 'ogg', rate: false },
  aac: { encoding: 'aac', rate: false },
  flac: { encoding: 'flac', rate: true },
  wav: { encoding: 'linear16', container: 'wav', rate: true },
  pcm: { encoding: 'linear16', container: 'none', rate: true },
  ulaw: { encoding: 'mulaw', container: 'none', rate: true },
  alaw: { encoding: 'alaw', container: 'none', rate: true },
};

/** The `/v1/speak` query: `model` is `<model>-<voice>` (`aura-2-thalia-en`), then the output format. */
export function deepgramSpeakUrl(base: string, request: SpeechRequest): string {
  const format = encodings[request.responseFormat ?? 'mp3'];
  const query = new URLSearchParams({ model: `${request.model}-${request.voice}`, encoding: format.encoding });
  if (format.container !== undefined) query.set('container', format.container);
  if (format.rate && request.sampleRate !== undefined) query.set('sample_rate', String(request.sampleRate));
  return `${base}/v1/speak?${query.toString()}`;
}

/**
 * Aura text to speech (`POST /v1/speak` with `{text}`); resolves on a 2xx with the audio not yet
 * read. Deepgram's REST API takes neither `speed` nor `instructions`: asking for them is refused
 * before any call rather than silently ignored.
 */
export async function deepgramSpeak(target: KeyedTarget, request: SpeechRequest, options: CallOptions | undefined): Promise<SpeechResult> {
  for (const param of ['speed', 'instructions'] as const) {
    if (request[param] !== undefined) {
      throw new ProviderError({ provider: target.provider, kind: 'invalid_request', message: `'${param}' is not supported by Deepgram's text-to-speech.`, param });
    }
  }
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: deepgramSpeakUrl(target.base, request),
    headers: target.headers(options),
    body: { text: request.input },
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: classifyDeepgramError,
  });
  return speechResult(response, request.responseFormat ?? 'mp3');
}
