import { ProviderError } from '@svc/core';
import type { CallOptions, SpeechFormat, SpeechRequest, SpeechResult } from '../provider.js';
import { postJson } from '../shared/http.js';
import type { KeyedTarget } from '../shared/keyed-target.js';
import { speechResult } from '../shared/speech-audio.js';
import { classifyElevenLabsError } from './elevenlabs-error.js';

/** Bit rate ElevenLabs pairs with each MP3 sample rate; Opus is asked for at 64 kbit/s. */
const mp3BitRates: Readonly<Record<number, number>> = { 22050: 32, 24000: 48, 44100: 128 };
/** The rate of a format when the request names none: ElevenLabs' own defaults. */
const defaultRates: Partial<Record<SpeechFormat, number>> = { mp3: 44100, opus: 48000, pcm: 24000, wav: 44100, ulaw: 8000, alaw: 8000 };

/** ElevenLabs' `output_format` (`mp3_44100_128`, `pcm_16000`, `ulaw_8000`, ...), or undefined for a format it does not produce. */
export function elevenlabsOutputFormat(format: SpeechFormat, sampleRate: number | undefined): string | undefined {
  const rate = sampleRate ?? defaultRates[format];
  if (rate === undefined) return undefined;
  switch (format) {
    case 'mp3':
      return mp3BitRates[rate] === undefined ? undefined : `mp3_${rate}_${mp3BitRates[rate]}`;
    case 'opus':
      return `opus_${rate}_64`;
    case 'pcm':
    case 'wav':
    case 'ulaw':
    case 'alaw':
      return `${format}_${rate}`;
    default:
      return undefined;
  }
}

/**
 * Text to speech (`POST /v1/text-to-speech/{voice_id}?output_format=...` with `{text, model_id}`);
 * resolves on a 2xx with the audio not yet read. `speed` goes in `voice_settings`; a format
 * ElevenLabs does not produce (AAC, FLAC) and `instructions` are refused before any call.
 */
export async function elevenlabsSpeak(target: KeyedTarget, request: SpeechRequest, options: CallOptions | undefined): Promise<SpeechResult> {
  const format = request.responseFormat ?? 'mp3';
  const outputFormat = elevenlabsOutputFormat(format, request.sampleRate);
  if (outputFormat === undefined) {
    throw new ProviderError({ provider: target.provider, kind: 'invalid_request', message: `ElevenLabs does not produce ${format}${request.sampleRate ? ` at ${request.sampleRate} Hz` : ''}.`, param: 'response_format' });
  }
  if (request.instructions !== undefined) {
    throw new ProviderError({ provider: target.provider, kind: 'invalid_request', message: "'instructions' is not supported by ElevenLabs' text-to-speech.", param: 'instructions' });
  }
  const body: Record<string, unknown> = { text: request.input, model_id: request.model };
  if (request.speed !== undefined) body.voice_settings = { speed: request.speed };
  const response = await postJson({
    provider: target.provider,
    http: target.http,
    url: `${target.base}/v1/text-to-speech/${encodeURIComponent(request.voice)}?output_format=${outputFormat}`,
    headers: { accept: 'audio/*', ...target.headers(options) },
    body,
    signal: options?.signal,
    onResponse: options?.onResponse,
    classify: classifyElevenLabsError,
  });
  return speechResult(response, format);
}
