import { defineModels, released } from './define.js';

// Audio-capable chat models: chat completions with `input_audio` content parts, answered in text.
// Text tokens at the text rates, audio prompt tokens at `audioInputPricePerMTok`
// (openai.com/api/pricing). Served only when named (`routable: false`): their audio pricing is no
// reason to send them text traffic. gpt-4o-audio-preview and its mini were shut down on
// 2026-05-07 (gpt-audio-1.5 replaced them).
const audioChat = ['tools', 'audio'] as const;

export const openaiAudioChatModels = /* @__PURE__ */ defineModels('openai', 'chat', [
  { upstreamId: 'gpt-audio-1.5', family: 'gpt-audio-1.5', tier: 'T1', contextWindow: 128_000, maxOutputTokens: 16_384,
    inputPricePerMTok: 2.5, outputPricePerMTok: 10, audioInputPricePerMTok: 32, capabilities: audioChat,
    created: released('2026-05-07'), qualityPrior: 0.7, routable: false },
  { upstreamId: 'gpt-audio', family: 'gpt-audio', tier: 'T2', contextWindow: 128_000, maxOutputTokens: 16_384,
    inputPricePerMTok: 2.5, outputPricePerMTok: 10, audioInputPricePerMTok: 32, capabilities: audioChat,
    created: released('2025-08-28'), qualityPrior: 0.66, routable: false },
  { upstreamId: 'gpt-audio-mini', family: 'gpt-audio-mini', tier: 'T3', contextWindow: 128_000, maxOutputTokens: 16_384,
    inputPricePerMTok: 0.6, outputPricePerMTok: 2.4, audioInputPricePerMTok: 10, capabilities: audioChat,
    created: released('2025-10-06'), qualityPrior: 0.58, routable: false },
]);
