import type { ModelInfo } from '../model.js';
import { defineModels, released } from './define.js';

// Realtime (speech-to-speech over a WebSocket) models, served only by GET /v1/voice/realtime.
// OpenAI bills them per token: text at the token prices, audio at `unitPrices.audio*PerMTok`.
// Source: developers.openai.com/api/docs/models/<model> (read 2026-11). gpt-4o-realtime-preview
// is shut down and gpt-4o-mini-realtime-preview replaced by gpt-realtime-mini, so neither is listed.
const capabilities = ['tools', 'audio'] as const;

export const openaiRealtimeModels: readonly ModelInfo[] = /* @__PURE__ */ defineModels('openai', 'realtime', [
  {
    upstreamId: 'gpt-realtime-2',
    family: 'gpt-realtime-2',
    tier: 'T1',
    contextWindow: 128_000,
    maxOutputTokens: 32_000,
    inputPricePerMTok: 4,
    cachedInputPricePerMTok: 0.4,
    outputPricePerMTok: 24,
    unitPrices: { audioInputPerMTok: 32, cachedAudioInputPerMTok: 0.4, audioOutputPerMTok: 64 },
    capabilities: [...capabilities, 'reasoning'],
    created: released('2026-05-07'),
    qualityPrior: 0.9,
  },
  {
    upstreamId: 'gpt-realtime',
    family: 'gpt-realtime',
    tier: 'T2',
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    inputPricePerMTok: 4,
    cachedInputPricePerMTok: 0.4,
    outputPricePerMTok: 16,
    unitPrices: { audioInputPerMTok: 32, cachedAudioInputPerMTok: 0.4, audioOutputPerMTok: 64 },
    capabilities,
    created: released('2025-08-28'),
    qualityPrior: 0.82,
  },
  {
    upstreamId: 'gpt-realtime-mini',
    family: 'gpt-realtime-mini',
    tier: 'T3',
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    inputPricePerMTok: 0.6,
    cachedInputPricePerMTok: 0.06,
    outputPricePerMTok: 2.4,
    unitPrices: { audioInputPerMTok: 10, cachedAudioInputPerMTok: 0.3, audioOutputPerMTok: 20 },
    capabilities,
    created: released('2025-10-06'),
    qualityPrior: 0.72,
  },
]);
