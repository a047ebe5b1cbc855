import type { ModelInfo } from '../model.js';
import { audio, released } from './define.js';

// Moderation, speech and transcription models: no token prices, no output tokens. Speech is
// priced per million input characters, transcription per minute of audio (`unitPrices`).
// Source: openai.com/api/pricing (2026). Moderation is free.

export const openaiModerationModels = /* @__PURE__ */ audio('openai', 'moderation', [
  { upstreamId: 'omni-moderation-latest', family: 'omni-moderation', tier: 'T1', contextWindow: 32_768, created: released('2024-09-26'), qualityPrior: 0.8 },
  { upstreamId: 'text-moderation-latest', family: 'text-moderation', tier: 'T2', contextWindow: 32_768, created: released('2023-08-14'), qualityPrior: 0.6 },
]);

// Every format at 24 kHz (OpenAI's output rate; `pcm` is 24 kHz 16-bit little-endian); Opus
// decodes at 48 kHz by definition.
const openaiFormats = ['mp3_24000', 'opus_48000', 'aac_24000', 'flac_24000', 'wav_24000', 'pcm_24000'] as const;
const tts1Voices = ['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer'] as const;
const tts = (voices: readonly string[]) => ({ languages: 'multilingual', outputFormats: openaiFormats, voices, maxChars: 4_096 }) as const;

export const openaiSpeechModels = /* @__PURE__ */ audio('openai', 'speech', [
  { upstreamId: 'tts-1', family: 'tts-1', tier: 'T3', created: released('2023-11-06'), qualityPrior: 0.6, unitPrices: { perMChars: 15 }, voice: tts(tts1Voices) },
  { upstreamId: 'tts-1-hd', family: 'tts-1-hd', tier: 'T1', created: released('2023-11-06'), qualityPrior: 0.75, unitPrices: { perMChars: 30 }, voice: tts(tts1Voices) },
  { upstreamId: 'gpt-4o-mini-tts', family: 'gpt-4o-mini-tts', tier: 'T2', created: released('2025-03-20'), qualityPrior: 0.72, unitPrices: { perMChars: 12 },
    voice: tts([...tts1Voices, 'ballad', 'verse', 'marin', 'cedar']) },
]);

export const openaiTranscriptionModels = /* @__PURE__ */ audio('openai', 'transcription', [
  { upstreamId: 'whisper-1', family: 'whisper-1', tier: 'T2', created: released('2023-03-01'), qualityPrior: 0.65, unitPrices: { perMinute: 0.006 }, voice: { languages: 'multilingual' } },
  { upstreamId: 'gpt-4o-transcribe', family: 'gpt-4o-transcribe', tier: 'T1', created: released('2025-03-20'), qualityPrior: 0.8, unitPrices: { perMinute: 0.006 }, voice: { languages: 'multilingual' } },
  { upstreamId: 'gpt-4o-mini-transcribe', family: 'gpt-4o-mini-transcribe', tier: 'T3', created: released('2025-03-20'), qualityPrior: 0.72, unitPrices: { perMinute: 0.003 },
    voice: { languages: 'multilingual', lowLatency: true } },
]);

/** OpenAI's moderation, text-to-speech and speech-to-text models. */
export const openaiAudioModels: readonly ModelInfo[] = [...openaiModerationModels, ...openaiSpeechModels, ...openaiTranscriptionModels];
