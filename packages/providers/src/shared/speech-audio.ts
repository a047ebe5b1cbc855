import type { SpeechFormat, SpeechResult } from '../provider-audio.js';
import type { HttpResponse } from './http-client.js';

/** The content type of each output format, for an upstream that sends none (or a generic one). */
export const speechContentTypes: Readonly<Record<SpeechFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  ulaw: 'audio/basic',
  alaw: 'audio/x-alaw-basic',
};

/** A 2xx speech answer, its audio not read yet: the upstream's `audio/*` content type, else the format's. */
export function speechResult(response: HttpResponse, format: SpeechFormat): SpeechResult {
  const upstreamType = response.headers.get('content-type');
  const contentType = upstreamType?.startsWith('audio/') ? upstreamType : speechContentTypes[format];
  return { contentType, body: response.body };
}
