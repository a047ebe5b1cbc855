import { defineModels, released } from './define.js';

// Hosts of open-weight models, all on the OpenAI wire format. One `family` names the same
// weights on every host (`llama-3.3-70b` on groq, cerebras, together, fireworks, openrouter),
// which is what lets a pinned request fall back to another host of the same model.
// Rates are each host's public serverless list price (groq.com/pricing, cerebras.ai/pricing,
// together.ai/pricing, fireworks.ai/pricing, openrouter.ai model pages) as last published
// before 2026-11-21; open-weight hosts change prices often, so operators should override.

// Shared with the clouds (bedrock.ts) and local runtimes (ollama.ts) that serve the same weights.
export const llama33 = { family: 'llama-3.3-70b', created: released('2024-12-06'), qualityPrior: 0.6 } as const;
export const llama31 = { family: 'llama-3.1-8b', created: released('2024-07-23'), qualityPrior: 0.42 } as const;
export const gptOss120 = { family: 'gpt-oss-120b', created: released('2025-08-05'), qualityPrior: 0.72 } as const;
export const gptOss20 = { family: 'gpt-oss-20b', created: released('2025-08-05'), qualityPrior: 0.6 } as const;
export const qwen32 = { family: 'qwen3-32b', created: released('2025-04-29'), qualityPrior: 0.62 } as const;
const deepseekV3 = { family: 'deepseek-v3', created: released('2024-12-26'), qualityPrior: 0.7 } as const;
const deepseekR1 = { family: 'deepseek-r1', created: released('2025-01-20'), qualityPrior: 0.76 } as const;
const qwen235 = { family: 'qwen3-235b-a22b-instruct-2507', created: released('2025-07-21'), qualityPrior: 0.74 } as const;

export const chat = ['tools', 'json'] as const;
export const thinking = ['tools', 'json', 'reasoning'] as const;

export const groqModels = /* @__PURE__ */ defineModels('groq', 'chat', [
  { ...llama33, upstreamId: 'llama-3.3-70b-versatile', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 32_768,
    inputPricePerMTok: 0.59, outputPricePerMTok: 0.79, capabilities: chat, openWeight: true },
  { ...llama31, upstreamId: 'llama-3.1-8b-instant', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 131_072,
    inputPricePerMTok: 0.05, outputPricePerMTok: 0.08, capabilities: chat, openWeight: true },
  { ...gptOss120, upstreamId: 'openai/gpt-oss-120b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 65_536,
    inputPricePerMTok: 0.15, cachedInputPricePerMTok: 0.075, outputPricePerMTok: 0.6, capabilities: thinking,
    openWeight: true },
  { ...gptOss20, upstreamId: 'openai/gpt-oss-20b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 65_536,
    inputPricePerMTok: 0.075, cachedInputPricePerMTok: 0.0375, outputPricePerMTok: 0.3, capabilities: thinking,
    openWeight: true },
  { ...qwen32, upstreamId: 'qwen/qwen3-32b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 40_960,
    inputPricePerMTok: 0.29, outputPricePerMTok: 0.59, capabilities: thinking, openWeight: true },
]);

export const cerebrasModels = /* @__PURE__ */ defineModels('cerebras', 'chat', [
  { ...llama33, upstreamId: 'llama-3.3-70b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 65_536,
    inputPricePerMTok: 0.85, outputPricePerMTok: 1.2, capabilities: chat, openWeight: true },
  { ...llama31, upstreamId: 'llama3.1-8b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 8_192,
    inputPricePerMTok: 0.1, outputPricePerMTok: 0.1, capabilities: chat, openWeight: true },
  { ...gptOss120, upstreamId: 'gpt-oss-120b', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 65_536,
    inputPricePerMTok: 0.25, outputPricePerMTok: 0.69, capabilities: thinking, openWeight: true },
]);

export const togetherModels = /* @__PURE__ */ defineModels('together', 'chat', [
  { ...llama33, upstreamId: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', tier: 'T2', contextWindow: 131_072,
    maxOutputTokens: 32_768, inputPricePerMTok: 0.88, outputPricePerMTok: 0.88, capabilities: chat, openWeight: true },
  { ...llama31, upstreamId: 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', tier: 'T3', contextWindow: 131_072,
    maxOutputTokens: 32_768, inputPricePerMTok: 0.18, outputPricePerMTok: 0.18, capabilities: chat, openWeight: true },
  { ...deepseekV3, upstreamId: 'deepseek-ai/DeepSeek-V3', tier: 'T2', contextWindow: 131_072, maxOutputTokens: 32_768,
    inputPricePerMTok: 1.25, outputPricePerMTok: 1.25, capabilities: chat, openWeight: true },
  { ...deepseekR1, upstreamId: 'deepseek-ai/DeepSeek-R1', tier: 'T1', contextWindow: 163_840, maxOutputTokens: 32_768,
    inputPricePerMTok: 3, outputPricePerMTok: 7, capabilities: thinking, openWeight: true },
  { ...qwen235, upstreamId: 'Qwen/Qwen3-235B-A22B-Instruct-2507-tput', tier: 'T2', contextWindow: 262_144,
    maxOutputTokens: 32_768, inputPricePerMTok: 0.2, outputPricePerMTok: 0.6, capabilities: chat, openWeight: true },
  { ...gptOss120, upstreamId: 'openai/gpt-oss-120b', tier: 'T2', contextWindow: 131_072, maxOutputTokens: 32_768,
    inputPricePerMTok: 0.15, outputPricePerMTok: 0.6, capabilities: thinking, openWeight: true },
]);

export const fireworksModels = /* @__PURE__ */ defineModels('fireworks', 'chat', [
  { ...llama33, upstreamId: 'accounts/fireworks/models/llama-v3p3-70b-instruct', tier: 'T2', contextWindow: 131_072,
    maxOutputTokens: 16_384, inputPricePerMTok: 0.9, outputPricePerMTok: 0.9, capabilities: chat, openWeight: true },
  { ...llama31, upstreamId: 'accounts/fireworks/models/llama-v3p1-8b-instruct', tier: 'T3', contextWindow: 131_072,
    maxOutputTokens: 16_384, inputPricePerMTok: 0.2, outputPricePerMTok: 0.2, capabilities: chat, openWeight: true },
  { ...deepseekV3, upstreamId: 'accounts/fireworks/models/deepseek-v3', tier: 'T2', contextWindow: 131_072,
    maxOutputTokens: 16_384, inputPricePerMTok: 0.9, outputPricePerMTok: 0.9, capabilities: chat, openWeight: true },
  { ...deepseekR1, upstreamId: 'accounts/fireworks/models/deepseek-r1-0528', tier: 'T1', contextWindow: 163_840,
    maxOutputTokens: 32_768, inputPricePerMTok: 1.35, outputPricePerMTok: 5.4, capabilities: thinking, openWeight: true },
  { ...qwen235, upstreamId: 'accounts/fireworks/models/qwen3-235b-a22b-instruct-2507', tier: 'T2',
    contextWindow: 262_144, maxOutputTokens: 32_768, inputPricePerMTok: 0.22, outputPricePerMTok: 0.88,
    capabilities: chat, openWeight: true },
  { ...gptOss120, upstreamId: 'accounts/fireworks/models/gpt-oss-120b', tier: 'T2', contextWindow: 131_072,
    maxOutputTokens: 32_768, inputPricePerMTok: 0.15, outputPricePerMTok: 0.6, capabilities: thinking, openWeight: true },
]);

// OpenRouter's `:free` variants: zero price, low rate limits, prompts may be logged by the host.
export const openrouterModels = /* @__PURE__ */ defineModels('openrouter', 'chat', [
  { ...llama33, upstreamId: 'meta-llama/llama-3.3-70b-instruct:free', tier: 'T3', contextWindow: 131_072,
    maxOutputTokens: 8_192, inputPricePerMTok: 0, outputPricePerMTok: 0, capabilities: chat, openWeight: true },
  { ...gptOss20, upstreamId: 'openai/gpt-oss-20b:free', tier: 'T3', contextWindow: 131_072, maxOutputTokens: 8_192,
    inputPricePerMTok: 0, outputPricePerMTok: 0, capabilities: thinking, openWeight: true },
]);
