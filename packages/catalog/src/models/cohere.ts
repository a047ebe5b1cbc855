import { defineModels, released } from './define.js';

// Cohere's own API (v2 chat). Source: cohere.com/pricing and docs.cohere.com/docs/models, read
// 2026-11-21. Command R (08-2024) and Command R7B carry published self-serve rates; Command A,
// Command R+ and the 2024-03/04 snapshots are listed as existing-customer pricing, transcribed
// here at their last published rates. The 2024-03/04 snapshots are the ones Bedrock serves as
// `cohere.command-r(-plus)-v1:0`. Weights are published (CC-BY-NC), hence `openWeight`.
const tools = ['tools', 'json'] as const;

export const cohereModels = /* @__PURE__ */ defineModels('cohere', 'chat', [
  { upstreamId: 'command-a-reasoning-08-2025', family: 'command-a-reasoning-08-2025', tier: 'T2',
    contextWindow: 256_000, maxOutputTokens: 32_000, inputPricePerMTok: 2.5, outputPricePerMTok: 10,
    capabilities: ['tools', 'json', 'reasoning'], openWeight: true, created: released('2025-08-21'), qualityPrior: 0.74 },
  { upstreamId: 'command-a-03-2025', family: 'command-a-03-2025', tier: 'T2', contextWindow: 256_000,
    maxOutputTokens: 8_000, inputPricePerMTok: 2.5, outputPricePerMTok: 10, capabilities: tools, openWeight: true,
    created: released('2025-03-13'), qualityPrior: 0.7 },
  { upstreamId: 'command-r-plus-08-2024', family: 'command-r-plus-08-2024', tier: 'T2', contextWindow: 128_000,
    maxOutputTokens: 4_000, inputPricePerMTok: 2.5, outputPricePerMTok: 10, capabilities: tools, openWeight: true,
    created: released('2024-08-30'), qualityPrior: 0.6 },
  { upstreamId: 'command-r-08-2024', family: 'command-r-08-2024', tier: 'T3', contextWindow: 128_000,
    maxOutputTokens: 4_000, inputPricePerMTok: 0.15, outputPricePerMTok: 0.6, capabilities: tools, openWeight: true,
    created: released('2024-08-30'), qualityPrior: 0.52 },
  { upstreamId: 'command-r7b-12-2024', family: 'command-r7b-12-2024', tier: 'T3', contextWindow: 128_000,
    maxOutputTokens: 4_000, inputPricePerMTok: 0.0375, outputPricePerMTok: 0.15, capabilities: tools, openWeight: true,
    created: released('2024-12-13'), qualityPrior: 0.42 },
  { upstreamId: 'command-r-plus-04-2024', family: 'command-r-plus-04-2024', tier: 'T2', contextWindow: 128_000,
    maxOutputTokens: 4_000, inputPricePerMTok: 3, outputPricePerMTok: 15, capabilities: tools, openWeight: true,
    created: released('2024-04-04'), qualityPrior: 0.55 },
  { upstreamId: 'command-r-03-2024', family: 'command-r-03-2024', tier: 'T3', contextWindow: 128_000,
    maxOutputTokens: 4_000, inputPricePerMTok: 0.5, outputPricePerMTok: 1.5, capabilities: tools, openWeight: true,
    created: released('2024-03-11'), qualityPrior: 0.46 },
]);
