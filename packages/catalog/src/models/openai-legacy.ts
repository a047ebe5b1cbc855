import { defineModels, released } from './define.js';

// Older OpenAI models still named by existing applications: list prices from
// openai.com/api/pricing ("Other models" / legacy table; gpt-3.5-turbo is gpt-3.5-turbo-0125's
// rate). Served only when named (`routable: false`): newer models do the same work for less, so
// no alias or fallback sends them traffic. Not re-verified on 2026-12-02 that OpenAI still
// serves each; a retired one answers OpenAI's own 404, passed back as `model_not_found`.
// (Claude Haiku 3.5 and Gemini 2.0 Flash are not listed: Anthropic retired
// claude-3-5-haiku-20241022 on 2026-02-19 and Google shut gemini-2.0-flash down in 2026.)
export const openaiLegacyModels = /* @__PURE__ */ defineModels('openai', 'chat', [
  { upstreamId: 'o1', family: 'o1', tier: 'T1', contextWindow: 200_000, maxOutputTokens: 100_000,
    inputPricePerMTok: 15, cachedInputPricePerMTok: 7.5, outputPricePerMTok: 60, capabilities: ['tools', 'vision', 'json', 'reasoning'],
    created: released('2024-12-17'), qualityPrior: 0.72, routable: false },
  { upstreamId: 'o3-mini', family: 'o3-mini', tier: 'T2', contextWindow: 200_000, maxOutputTokens: 100_000,
    inputPricePerMTok: 1.1, cachedInputPricePerMTok: 0.55, outputPricePerMTok: 4.4, capabilities: ['tools', 'json', 'reasoning'],
    created: released('2025-01-31'), qualityPrior: 0.66, routable: false },
  { upstreamId: 'gpt-4-turbo', family: 'gpt-4-turbo', tier: 'T2', contextWindow: 128_000, maxOutputTokens: 4_096,
    inputPricePerMTok: 10, outputPricePerMTok: 30, capabilities: ['tools', 'vision', 'json'],
    created: released('2024-04-09'), qualityPrior: 0.6, routable: false },
  { upstreamId: 'gpt-3.5-turbo', family: 'gpt-3.5-turbo', tier: 'T3', contextWindow: 16_385, maxOutputTokens: 4_096,
    inputPricePerMTok: 0.5, outputPricePerMTok: 1.5, capabilities: ['tools', 'json'],
    created: released('2024-01-25'), qualityPrior: 0.4, routable: false },
]);
