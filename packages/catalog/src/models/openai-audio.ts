import type { ModelInfo } from '../model.js';
import { type ModelSpec, defineModels, released } from './define.js';

// Moderation, speech and transcription models: no token prices, no output tokens. Speech is
// priced per million input characters, transcription per minute of audio (`unitPrices`).
// Source: openai.com/api/pricing (2026). Moderation is free.
type AudioSpec = Pick<ModelSpec, 'upstreamId' | 'family' | 'tier' | 'created' | 'qualityPrior' | 'unitPrices'> & { contextWindow?: number };

function audio(kind: 'moderation' | 'speech' | 'transcription', specs: readonly AudioSpec[]): ModelInfo[] {
  return defineModels(
    'openai',
    kind,
    specs.map((spec) => ({
      contextWindow: 4_096,
      ...spec,
      maxOutputTokens: 0,
      inputPricePerMTok: 0,
      outputPricePerMTok: 0,
      capabilities: kind === 'moderation' ? [] : (['audio'] as const),
      free: kind === 'moderation',
    })),
  );
}

export const openaiModerationModels = /* @__PURE__ */ audio('moderation', [
  { upstreamId: 'omni-moderation-latest', family: 'omni-moderation', tier: 'T1', contextWindow: 32_768, created: released('2024-09-26'), qualityPrior: 0.8 },
  { upstreamId: 'text-moderation-latest', family: 'text-moderation', tier: 'T2', contextWindow: 32_768, created: released('2023-08-14'), qualityPrior: 0.6 },
]);

export const openaiSpeechModels = /* @__PURE__ */ audio('speech', [
  { upstreamId: 'tts-1', family: 'tts-1', tier: 'T3', created: released('2023-11-06'), qualityPrior: 0.6, unitPrices: { perMChars: 15 } },
  { upstreamId: 'tts-1-hd', family: 'tts-1-hd', tier: 'T1', created: released('2023-11-06'), qualityPrior: 0.75, unitPrices: { perMChars: 30 } },
  { upstreamId: 'gpt-4o-mini-tts', family: 'gpt-4o-mini-tts', tier: 'T2', created: released('2025-03-20'), qualityPrior: 0.72, unitPrices: { perMChars: 12 } },
]);

export const openaiTranscriptionModels = /* @__PURE__ */ audio('transcription', [
  { upstreamId: 'whisper-1', family: 'whisper-1', tier: 'T2', created: released('2023-03-01'), qualityPrior: 0.65, unitPrices: { perMinute: 0.006 } },
  { upstreamId: 'gpt-4o-transcribe', family: 'gpt-4o-transcribe', tier: 'T1', created: released('2025-03-20'), qualityPrior: 0.8, unitPrices: { perMinute: 0.006 } },
  { upstreamId: 'gpt-4o-mini-transcribe', family: 'gpt-4o-mini-transcribe', tier: 'T3', created: released('2025-03-20'), qualityPrior: 0.72, unitPrices: { perMinute: 0.003 } },
]);

/** OpenAI's moderation, text-to-speech and speech-to-text models. */
export const openaiAudioModels: readonly ModelInfo[] = [...openaiModerationModels, ...openaiSpeechModels, ...openaiTranscriptionModels];
